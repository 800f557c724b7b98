import Foundation

/// A statement parameter as libpq receives it: SQL NULL, a value in PostgreSQL's text input
/// format, or raw bytes sent in binary format (only bytea needs that, and it saves the hex doubling).
public enum SQLValue: Sendable, Equatable {
    case null
    case text(String)
    case bytes([UInt8])
}

/// A Swift value that can be sent as a statement parameter. Values travel separately from the SQL
/// text (PQexecParams), so no value can ever change what a statement does.
public protocol SQLEncodable: Sendable {
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLEncodable {
    public var sqlValue: SQLValue { self }
}

extension String: SQLEncodable {
    public var sqlValue: SQLValue { .text(self) }
}

extension Substring: SQLEncodable {
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Int: SQLEncodable {
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Int64: SQLEncodable {
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Int32: SQLEncodable {
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Bool: SQLEncodable {
    public var sqlValue: SQLValue { .text(self ? "true" : "false") }
}

extension Double: SQLEncodable {
    // Swift spells the specials "inf"/"nan"; PostgreSQL's float8 input wants these.
    public var sqlValue: SQLValue {
        if isNaN { return .text("NaN") }
        if isInfinite { return .text(self < 0 ? "-Infinity" : "Infinity") }
        return .text(String(self))
    }
}

extension Array: SQLEncodable where Element == UInt8 {
    public var sqlValue: SQLValue { .bytes(self) }
}

extension Optional: SQLEncodable where Wrapped: SQLEncodable {
    public var sqlValue: SQLValue {
        switch self {
        case .none: return .null
        case .some(let value): return value.sqlValue
        }
    }
}

/// A PostgreSQL array literal for `= ANY($1)` and friends, e.g. `SQLArray(ids)` or `SQLArray(hosts)`.
/// Elements are quoted and escaped here, once, so callers never build array literals by hand.
public struct SQLArray: SQLEncodable {
    private let literal: String

    public init(_ values: [Int]) {
        literal = "{" + values.map { String($0) }.joined(separator: ",") + "}"
    }

    public init(_ values: [String]) {
        literal = "{" + values.map(SQLArray.quote).joined(separator: ",") + "}"
    }

    public init(_ values: [Int64]) {
        literal = "{" + values.map { String($0) }.joined(separator: ",") + "}"
    }

    /// Ids where nil is SQL NULL.
    public init(_ values: [Int64?]) {
        literal = "{" + values.map { $0.map { String($0) } ?? "NULL" }.joined(separator: ",") + "}"
    }

    /// Words of the vocabulary (verdicts, services…) by their stored raw values.
    public init<Word: RawRepresentable>(_ values: [Word]) where Word.RawValue == String {
        self.init(values.map(\.rawValue))
    }

    /// Words of the vocabulary where nil is SQL NULL (a platform's state where the platform does not count).
    public init<Word: RawRepresentable>(_ values: [Word?]) where Word.RawValue == String {
        literal = "{" + values.map { $0.map { SQLArray.quote($0.rawValue) } ?? "NULL" }.joined(separator: ",") + "}"
    }

    /// Timestamps in the text form `Date` uses as a parameter; cast with `$n::timestamptz[]`.
    public init(_ values: [Date]) {
        self.init(values.map(SQLTimestamp.format))
    }

    /// Timestamps where nil is SQL NULL; cast with `$n::timestamptz[]`.
    public init(_ values: [Date?]) {
        literal = "{" + values.map { $0.map { SQLArray.quote(SQLTimestamp.format($0)) } ?? "NULL" }.joined(separator: ",") + "}"
    }

    public var sqlValue: SQLValue { .text(literal) }

    private static func quote(_ element: String) -> String {
        var quoted = "\""
        for character in element {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
