import Synchronization

/// A row type that states its columns once: its stored properties, through `Decodable`. Each
/// property reads the column of its name in snake_case (`lastCheckedAt` → `last_checked_at`,
/// `lastCheckID` → `last_check_id`); a `CodingKeys` case with another raw value names another
/// column (`originVersionSHA256 = "origin_sha"`). A column is decoded as its `SQLDecodable` type
/// (so a stored value the code does not know is an error naming the table and column, as with
/// `Row.decode`), a property that is itself `RowDecodable` from the same row's columns (a group of
/// fields two row types share), any other `Decodable` as stored JSON (`Row.decodeJSON`); a missing
/// column is an error, never a default. In the spirit of postgres-nio's `PostgresRow.decode(_:)`.
protocol RowDecodable: Decodable {}

extension RowDecodable {
    init(row: Row) throws {
        self = try Self(from: RowDecoder(row: row))
    }
}

/// Decodes one `Row` into a `RowDecodable` (only a keyed container: a row is columns by name).
private struct RowDecoder: Decoder {
    let row: Row
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DatabaseError.decoding(column: "*", message: "a row is read by column name, not by position")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DatabaseError.decoding(column: "*", message: "a row is read by column name, not as one value")
    }
}

private struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: Row
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { row.columnNames.compactMap { Key(stringValue: $0) } }

    /// Every column is "present": a missing one must fail in `decodeNil`/`decode` with its name,
    /// not read as nil the way `decodeIfPresent` would take an absent key.
    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        row.values[try position(key)] == nil
    }

    /// One lookup of the column where the default asks `decodeNil` and then `decode` to find it.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let index = try position(key)
        guard row.values[index] != nil else { return nil }
        return try decode(type, forKey: key, at: index)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(type, forKey: key, at: nil)
    }

    /// `index`: where the column stands, when the caller has found it already.
    private func decode<T: Decodable>(_ type: T.Type, forKey key: Key, at index: Int?) throws -> T {
        // Most properties are columns of an SQLDecodable type: asked first, so they cost one cast.
        if let coded = T.self as? any SQLDecodable.Type {
            guard let value = try row.decode(try index ?? position(key), as: coded) as? T else {
                throw DatabaseError.decoding(column: Self.column(key), message: "did not decode as \(T.self)")
            }
            return value
        }
        let name = Self.column(key)
        if let group = T.self as? any RowDecodable.Type {
            guard let value = try group.init(row: row) as? T else {
                throw DatabaseError.decoding(column: name, message: "did not decode as \(T.self)")
            }
            return value
        }
        return try row.decodeJSON(name)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DatabaseError.decoding(column: Self.column(key), message: "a column holds one value, not columns")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DatabaseError.decoding(column: Self.column(key), message: "a column holds one value, not a list of columns")
    }

    func superDecoder() throws -> any Decoder { RowDecoder(row: row) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoder(row: row) }

    /// Where a property's column stands in this row's result: remembered by the result's layout, so
    /// its later rows find it by the property's name alone.
    private func position(_ key: Key) throws -> Int {
        try row.layout.position(ofProperty: key.stringValue) { _ in Self.column(key) }
    }

    /// The column of a property: its name in snake_case. A word of capitals stays one word
    /// (`lastCheckID` → `last_check_id`, `URLCount` → `url_count`); a name already in snake_case
    /// (a `CodingKeys` raw value) is itself. Converted once per name: every row asks again.
    static func column(_ key: Key) -> String {
        let property = key.stringValue
        if let known = columnOfProperty.withLock({ $0[property] }) { return known }
        let name = snakeCase(property)
        columnOfProperty.withLock { $0[property] = name }
        return name
    }

    private static func snakeCase(_ property: String) -> String {
        let bytes = Array(property.utf8)
        func isUpper(_ b: UInt8) -> Bool { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") }
        func isLower(_ b: UInt8) -> Bool { b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") }
        var name: [UInt8] = []
        name.reserveCapacity(bytes.count + 4)
        for (i, byte) in bytes.enumerated() {
            if isUpper(byte), i > 0 {
                let afterWord = !isUpper(bytes[i - 1]) && bytes[i - 1] != UInt8(ascii: "_")
                let startsWord = i + 1 < bytes.count && isLower(bytes[i + 1])
                if afterWord || startsWord { name.append(UInt8(ascii: "_")) }
            }
            name.append(isUpper(byte) ? byte + 32 : byte)
        }
        return String(decoding: name, as: UTF8.self)
    }
}

/// Property name → column name, filled as row types are first read (a few hundred names at most).
private let columnOfProperty = Mutex<[String: String]>([:])
