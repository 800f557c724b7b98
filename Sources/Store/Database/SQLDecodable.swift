/// A Swift type a result column can be decoded into. Results arrive in PostgreSQL's text format;
/// `text` is nil for SQL NULL, which only `Optional` accepts.
public protocol SQLDecodable {
    static func decode(sqlText text: String?, column: String) throws -> Self
}

extension SQLDecodable {
    static func nonNull(_ text: String?, _ column: String) throws -> String {
        guard let text else {
            throw DatabaseError.decoding(column: column, message: "is NULL; decode it as an Optional")
        }
        return text
    }
}

extension String: SQLDecodable {
    public static func decode(sqlText text: String?, column: String) throws -> String {
        try nonNull(text, column)
    }
}

extension Int: SQLDecodable {
    public static func decode(sqlText text: String?, column: String) throws -> Int {
        let text = try nonNull(text, column)
        guard let value = Int(text) else {
            throw DatabaseError.decoding(column: column, message: "\"\(text)\" is not an integer")
        }
        return value
    }
}

extension Int64: SQLDecodable {
    public static func decode(sqlText text: String?, column: String) throws -> Int64 {
        Int64(try Int.decode(sqlText: text, column: column))
    }
}

extension Int32: SQLDecodable {
    public static func decode(sqlText text: String?, column: String) throws -> Int32 {
        let wide = try Int.decode(sqlText: text, column: column)
        guard let value = Int32(exactly: wide) else {
            throw DatabaseError.decoding(column: column, message: "\(wide) does not fit in Int32")
        }
        return value
    }
}

extension Bool: SQLDecodable {
    public static func decode(sqlText text: String?, column: String) throws -> Bool {
        switch try nonNull(text, column) {
        case "t", "true": return true
        case "f", "false": return false
        case let other: throw DatabaseError.decoding(column: column, message: "\"\(other)\" is not a boolean")
        }
    }
}

extension Double: SQLDecodable {
    public static func decode(sqlText text: String?, column: String) throws -> Double {
        let text = try nonNull(text, column)
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default:
            guard let value = Double(text) else {
                throw DatabaseError.decoding(column: column, message: "\"\(text)\" is not a number")
            }
            return value
        }
    }
}

extension Array: SQLDecodable where Element == UInt8 {
    /// bytea in the text format is `\x` followed by two hex digits per byte (bytea_output = hex,
    /// the default since PostgreSQL 9.0).
    public static func decode(sqlText text: String?, column: String) throws -> [UInt8] {
        let text = try nonNull(text, column)
        let digits = Array(text.utf8)
        guard digits.count >= 2, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x"),
              digits.count % 2 == 0 else {
            throw DatabaseError.decoding(column: column, message: "is not bytea in hex format (set bytea_output = hex)")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity((digits.count - 2) / 2)
        var index = 2
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else {
                throw DatabaseError.decoding(column: column, message: "has a non-hex digit in bytea")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension Optional: SQLDecodable where Wrapped: SQLDecodable {
    public static func decode(sqlText text: String?, column: String) throws -> Wrapped? {
        guard let text else { return nil }
        return try Wrapped.decode(sqlText: text, column: column)
    }
}
