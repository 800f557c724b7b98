/// One result row, copied out of libpq's result so it can outlive the connection and cross threads.
/// Decode columns by position or by name into any `SQLDecodable` type, e.g.
/// `try row.decode("host", as: String.self)` or `let id: Int = try row.decode(0)`.
public struct Row: Sendable {
    /// Shared by every row of one result (copy-on-write), so it costs one array per result.
    public let columnNames: [String]
    /// What decoding errors call each column: `domains.last_verdict` where the server said which
    /// table column it came from (shared by every row of a result, like `columnNames`).
    let labels: [String]
    let values: [String?]

    public init(columnNames: [String], values: [String?]) {
        self.init(columnNames: columnNames, labels: columnNames, values: values)
    }

    init(columnNames: [String], labels: [String], values: [String?]) {
        self.columnNames = columnNames
        self.labels = labels.count == columnNames.count ? labels : columnNames
        self.values = values
    }

    public func decode<Value: SQLDecodable>(_ index: Int, as type: Value.Type = Value.self) throws -> Value {
        guard values.indices.contains(index) else {
            throw DatabaseError.decoding(column: "#\(index)", message: "the result has only \(values.count) columns")
        }
        return try Value.decode(sqlText: values[index], column: labels[index])
    }

    public func decode<Value: SQLDecodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        guard let index = columnNames.firstIndex(of: name) else {
            throw DatabaseError.decoding(column: name, message: "no such column in the result (\(columnNames.joined(separator: ", ")))")
        }
        return try Value.decode(sqlText: values[index], column: labels[index])
    }

    /// The same row with the column `name` NULL: for a reader that decodes that column itself.
    func withNull(_ name: String) -> Row {
        var values = values
        if let index = columnNames.firstIndex(of: name) { values[index] = nil }
        return Row(columnNames: columnNames, labels: labels, values: values)
    }

    /// A jsonb column decoded with the stored JSON coding (`StoredJSON`), for stored values whose
    /// type is not `SQLJSONCodable` itself (`[Finding]`). A document that does not decode is an error
    /// naming the table and column, never an empty default.
    public func decodeJSON<Value: Decodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        let text: String = try decode(name)
        do {
            return try StoredJSON.decode(Value.self, from: text)
        } catch {
            let label = columnNames.firstIndex(of: name).map { labels[$0] } ?? name
            throw DatabaseError.decoding(column: label, message: "is not a \(Value.self) as stored JSON: \(StoredJSON.describe(error))")
        }
    }
}

/// The rows a statement returned and, for INSERT/UPDATE/DELETE, how many rows it touched.
public struct QueryResult: Sendable {
    public var rows: [Row]
    public var affectedRows: Int
}
