/// Where a value starts in the raw bytes. The reader counts UTF-8 continuation bytes as it goes,
/// so the column (in characters, as an editor shows it) costs O(1) per value — recounting from the
/// line start would be quadratic on a 10 MB file written on one line.
package struct TextPosition: Hashable, Sendable {
    package var offset: Int
    /// 1-based line number.
    package var line: Int
    /// 1-based column in Unicode scalars.
    package var column: Int

    package static let start = TextPosition(offset: 0, line: 1, column: 1)
}

/// A JSON value that remembers where it came from. Object members keep byte order and duplicates
/// (the reader reports duplicates; lookups take the last one, like Foundation's dictionaries).
package struct JSONValue: Sendable {
    package enum Kind: Sendable {
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

    package var kind: Kind
    package var position: TextPosition

    /// The last member named `key`: Foundation keeps the last of duplicate keys [inferred], and so do we.
    package func member(_ key: String) -> JSONMember? {
        guard case .object(let members) = kind else { return nil }
        return members.last { $0.key == key }
    }

    package var stringValue: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    /// The JSON type in words, for messages ("Expected an array …, found a string").
    package var typeDescription: String {
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

package struct JSONMember: Sendable {
    package var key: String
    package var keyPosition: TextPosition
    package var value: JSONValue
}
