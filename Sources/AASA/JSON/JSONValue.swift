/// Where a value starts in the raw bytes. The reader counts UTF-8 continuation bytes as it goes,
/// so the column (in characters, as an editor shows it) costs O(1) per value — recounting from the
/// line start would be quadratic on a 10 MB file written on one line.
struct TextPosition: Hashable, Sendable {
    var offset: Int
    /// 1-based line number.
    var line: Int
    /// 1-based column in Unicode scalars.
    var column: Int

    static let start = TextPosition(offset: 0, line: 1, column: 1)
}

/// A JSON value that remembers where it came from. Object members keep byte order and duplicates
/// (the reader reports duplicates; lookups take the last one, like Foundation's dictionaries).
struct JSONValue: Sendable {
    enum Kind: Sendable {
        case object([JSONMember])
        case array([JSONValue])
        case string(String)
        /// The number's text as written; AASA never needs its numeric value, only that it is not a string.
        case number(String)
        case bool(Bool)
        case null
        /// A value the reader could not read (nested too deep, a bare word); a finding already says why.
        case unreadable
    }

    var kind: Kind
    var position: TextPosition

    /// The last member named `key`: Foundation keeps the last of duplicate keys [inferred], and so do we.
    func member(_ key: String) -> JSONMember? {
        guard case .object(let members) = kind else { return nil }
        return members.last { $0.key == key }
    }

    var stringValue: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    /// The JSON type in words, for messages ("Expected an array …, found a string").
    var typeDescription: String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number(let text): "a number (\(text))"
        case .bool(let b): "a Boolean (\(b))"
        case .null: "null"
        case .unreadable: "an unreadable value"
        }
    }
}

struct JSONMember: Sendable {
    var key: String
    var keyPosition: TextPosition
    var value: JSONValue
}
