/// Something that runs parameterised statements: the pooled `Database` (each call on some free
/// connection) or one `Connection` (inside `withTransaction`). Query files are written once as
/// `extension Queryable { … }` and work both inside and outside a transaction.
public protocol Queryable {
    func query(_ sql: SQL, _ parameters: [any SQLEncodable]) throws -> QueryResult
}

extension Queryable {
    /// All rows the statement returns.
    public func rows(_ sql: SQL, _ parameters: any SQLEncodable...) throws -> [Row] {
        try query(sql, parameters).rows
    }

    /// The first row, or nil when there is none.
    public func firstRow(_ sql: SQL, _ parameters: any SQLEncodable...) throws -> Row? {
        try query(sql, parameters).rows.first
    }

    /// Runs a statement for its effect; returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ sql: SQL, _ parameters: any SQLEncodable...) throws -> Int {
        try query(sql, parameters).affectedRows
    }

    /// The first column of the first row, e.g. `let count: Int = try db.value("SELECT count(*) …")`.
    /// Throws when there is no row; use an Optional type when the value may be NULL.
    public func value<Value: SQLDecodable>(_ sql: SQL, _ parameters: any SQLEncodable..., as type: Value.Type = Value.self) throws -> Value {
        guard let row = try query(sql, parameters).rows.first else {
            throw DatabaseError.decoding(column: "#0", message: "the statement returned no row")
        }
        return try row.decode(0)
    }

    /// Sends a notification to every session that LISTENs on `channel` (delivered at commit when
    /// called inside a transaction).
    public func notify(channel: String, payload: String = "") throws {
        _ = try query("SELECT pg_notify($1, $2)", [channel, payload])
    }
}
