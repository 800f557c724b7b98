/// A one-dimensional integer array column (`integer[]`, `smallint[]`, `bigint[]`), from
/// PostgreSQL's text form `{1,-2,NULL}`; NULL elements are nil.
public struct SQLIntegerArray: SQLDecodable, Sendable, Equatable {
    public var elements: [Int?]

    public static func decode(sqlText text: String?, column: String) throws -> SQLIntegerArray {
        let text = try nonNull(text, column)
        guard text.first == "{", text.last == "}" else {
            throw DatabaseError.decoding(column: column, message: "\"\(text)\" is not a one-dimensional array")
        }
        let inner = text.dropFirst().dropLast()
        if inner.isEmpty { return SQLIntegerArray(elements: []) }
        return SQLIntegerArray(elements: try inner.split(separator: ",", omittingEmptySubsequences: false).map { element in
            if element == "NULL" { return nil }
            guard let value = Int(element) else {
                throw DatabaseError.decoding(column: column, message: "element \"\(element)\" is not an integer")
            }
            return value
        })
    }
}
