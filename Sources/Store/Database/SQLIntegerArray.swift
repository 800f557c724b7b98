/// A one-dimensional integer array column (`integer[]`, `smallint[]`, `bigint[]`), from
/// PostgreSQL's text form `{1,-2,NULL}`; NULL elements are nil.
public struct SQLIntegerArray: SQLDecodable, Sendable, Equatable {
    public var elements: [Int?]

    public static func decode(sqlText text: String?, column: String) throws -> SQLIntegerArray {
        let text = try nonNull(text, column)
        // Read byte by byte: an overview row's sparkline is a few hundred elements, and splitting the
        // text into substrings to parse each was an eighth of the busy overview's CPU.
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "{"), bytes[bytes.count - 1] == UInt8(ascii: "}") else {
            throw DatabaseError.decoding(column: column, message: "\"\(text)\" is not a one-dimensional array")
        }
        let close = bytes.count - 1
        if close == 1 { return SQLIntegerArray(elements: []) }
        var elements: [Int?] = []
        elements.reserveCapacity(close / 2)
        var start = 1
        while true {
            var end = start
            while end < close, bytes[end] != UInt8(ascii: ",") { end += 1 }
            let element = bytes[start..<end]
            if element.elementsEqual("NULL".utf8) {
                elements.append(nil)
            } else if let value = integer(element) {
                elements.append(value)
            } else {
                throw DatabaseError.decoding(column: column, message: "element \"\(String(decoding: element, as: UTF8.self))\" is not an integer")
            }
            if end == close { return SQLIntegerArray(elements: elements) }
            start = end + 1
        }
    }

    /// Decimal digits after an optional sign, as `Int(_:)` reads them; nil for anything else or too large.
    private static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
        var rest = digits[...]
        let negative = rest.first == UInt8(ascii: "-")
        if negative || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
        guard !rest.isEmpty else { return nil }
        var value = 0
        for byte in rest {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                                      : times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            value = next
        }
        return value
    }
}
