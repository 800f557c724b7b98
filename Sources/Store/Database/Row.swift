import Synchronization
import Vocabulary

/// One result row, copied out of libpq's result so it can outlive the connection and cross threads.
/// Decode columns by position or by name into any `SQLDecodable` type, e.g.
/// `try row.decode("host", as: String.self)` or `let id: Int = try row.decode(0)`.
public struct Row: Sendable {
    /// The columns of the result this row came from, shared by all its rows.
    let layout: ColumnLayout
    let values: [String?]

    public var columnNames: [String] { layout.names }

    public init(columnNames: [String], values: [String?]) {
        self.init(layout: ColumnLayout(names: columnNames, labels: columnNames), values: values)
    }

    init(layout: ColumnLayout, values: [String?]) {
        self.layout = layout
        self.values = values
    }

    public func decode<Value: SQLDecodable>(_ index: Int, as type: Value.Type = Value.self) throws -> Value {
        guard values.indices.contains(index) else {
            throw DatabaseError.decoding(column: "#\(index)", message: "the result has only \(values.count) columns")
        }
        return try Value.decode(sqlText: values[index], column: layout.labels[index])
    }

    public func decode<Value: SQLDecodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        let index = try layout.position(of: name)
        return try Value.decode(sqlText: values[index], column: layout.labels[index])
    }

    /// A host name column (`domains.host`: its ASCII form) read back typed, with its Unicode form from
    /// the column `unicode`. One that is not a host name is an error naming the column, never a default.
    public func decodeHost(_ name: String, unicode: String) throws -> HostName {
        let ascii: String = try decode(name)
        do {
            return try HostName(storedASCII: ascii, unicode: try decode(unicode))
        } catch let error as HostNameError {
            let label = layout.firstPosition(of: name).map { layout.labels[$0] } ?? name
            throw DatabaseError.decoding(column: label, message: "is not a host name: \(error.reason)")
        }
    }

    /// The same row with the column `name` NULL: for a reader that decodes that column itself.
    func withNull(_ name: String) -> Row {
        var values = values
        if let index = layout.firstPosition(of: name) { values[index] = nil }
        return Row(layout: layout, values: values)
    }

    /// A jsonb column decoded with the stored JSON coding (`StoredJSON`), for stored values whose
    /// type is not `SQLJSONCodable` itself (`[Finding]`). A document that does not decode is an error
    /// naming the table and column, never an empty default.
    public func decodeJSON<Value: Decodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        let text: String = try decode(name)
        do {
            return try StoredJSON.decode(Value.self, from: text)
        } catch {
            let label = layout.firstPosition(of: name).map { layout.labels[$0] } ?? name
            throw DatabaseError.decoding(column: label, message: "is not a \(Value.self) as stored JSON: \(StoredJSON.describe(error))")
        }
    }
}

/// A result's columns: their names, what errors call them, and where each name stands. Built once per
/// result and shared by its rows. A wide result (a domain row has 30 columns; the export reads 10,000
/// rows per request) finds a name by one hash lookup; a narrow one by comparing its few names, which
/// costs less than hashing. A row type's properties (`RowDecodable`) are found by the position the
/// result's first row found for them (`position(ofProperty:)`).
final class ColumnLayout: Sendable {
    let names: [String]
    /// What decoding errors call each column: `domains.last_verdict` where the server said which
    /// table column it came from.
    let labels: [String]
    /// The first column of each name, for results wider than `scanned` columns.
    private let positions: [String: Int]?
    private static let scanned = 8

    init(names: [String], labels: [String]) {
        self.names = names
        self.labels = labels.count == names.count ? labels : names
        if names.count > Self.scanned {
            var positions: [String: Int] = [:]
            for (index, name) in names.enumerated() where positions[name] == nil { positions[name] = index }
            self.positions = positions
        } else {
            self.positions = nil
        }
    }

    /// The first column called `name`, nil when there is none.
    func firstPosition(of name: String) -> Int? {
        if let positions { return positions[name] }
        return names.firstIndex(of: name)
    }

    /// The column of a row type's property, its column name asked of `column` the first time a row of
    /// this result is read: the rest find it by one lookup.
    func position(ofProperty property: String, column: (String) -> String) throws -> Int {
        if let known = propertyPositions.withLock({ $0[property] }) { return known }
        let index = try position(of: column(property))
        propertyPositions.withLock { $0[property] = index }
        return index
    }

    private let propertyPositions = Mutex<[String: Int]>([:])

    func position(of name: String) throws -> Int {
        guard let index = firstPosition(of: name) else {
            throw DatabaseError.decoding(column: name, message: "no such column in the result (\(names.joined(separator: ", ")))")
        }
        return index
    }
}

/// The rows a statement returned and, for INSERT/UPDATE/DELETE, how many rows it touched.
public struct QueryResult: Sendable {
    public var rows: [Row]
    public var affectedRows: Int
}
