import CLibPQ
import Foundation
import Glibc

/// One libpq connection. Not thread-safe by itself: the pool hands it to one thread at a time
/// (hence `@unchecked Sendable`, which only lets it move between threads, never be shared).
public final class Connection: Queryable, @unchecked Sendable {
    private var handle: OpaquePointer?
    /// "table.column" of the table columns results have come from, by (table OID, column number):
    /// decoding errors name where a value is stored, not only the result's column label. Filled
    /// once per table per connection; the OIDs are stable while the table exists.
    private var columnSources: [ColumnSourceKey: String] = [:]

    /// Opens a connection; throws `.connectionFailed` with libpq's reason when it cannot.
    public init(configuration: ConnectionConfiguration) throws {
        let keywords = configuration.parameters.map { strdup($0.keyword) } + [nil]
        let values = configuration.parameters.map { strdup($0.value) } + [nil]
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let connection = keywords.withUnsafeBufferPointer { keywordBuffer in
            values.withUnsafeBufferPointer { valueBuffer in
                keywordBuffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: keywords.count) { k in
                    valueBuffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: values.count) { v in
                        PQconnectdbParams(k, v, 1)
                    }
                }
            }
        }
        guard let connection else {
            throw DatabaseError.connectionFailed(message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw DatabaseError.connectionFailed(message: message)
        }
        // NOTICEs (e.g. "relation already exists, skipping") are not errors; libpq would print
        // them on our standard error, so they are dropped here.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Closes the connection now (also done on deinit).
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// False once the connection broke or was closed; the pool drops such connections.
    public var isOpen: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// True when no transaction is open or half-done, so the connection can go back to the pool.
    var isIdle: Bool {
        guard let handle else { return false }
        return PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// The server's process id for this session (for pg_terminate_backend in tests and diagnostics).
    public var backendPID: Int32 {
        guard let handle else { return 0 }
        return PQbackendPID(handle)
    }

    var socket: Int32 {
        guard let handle else { return -1 }
        return PQsocket(handle)
    }

    /// Cheap check before reusing an idle pooled connection: a connection the server closed while it
    /// sat idle (restart, idle timeout, pg_terminate_backend) has a readable socket (EOF or a FATAL
    /// message). Reading it lets libpq notice, so the pool opens a new one instead of failing a query.
    func isUsableAfterIdling() -> Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK, isIdle else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, 0)
        if ready == 0 { return true }
        if ready < 0 { return false }
        if PQconsumeInput(handle) == 0 { return false }
        _ = PQisBusy(handle)  // parses what arrived, so an ErrorResponse updates the status
        // Anything the server sends an idle session (short of a notification) precedes a disconnect.
        return PQstatus(handle) == CONNECTION_OK && (descriptor.revents & Int16(POLLHUP | POLLERR)) == 0
    }

    public func query(_ sql: SQL, _ parameters: [any SQLEncodable]) throws -> QueryResult {
        guard let handle else { throw DatabaseError.connectionLost(message: "the connection was closed") }
        let values = parameters.map(\.sqlValue)
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        buffers.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .null:
                buffers.append(nil); lengths.append(0); formats.append(0)
            case .text(let text):
                buffers.append(strdup(text)); lengths.append(0); formats.append(0)
            case .bytes(let bytes):
                let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
                bytes.withUnsafeBufferPointer { source in
                    if let base = source.baseAddress {
                        UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: bytes.count)
                    }
                }
                buffers.append(buffer); lengths.append(Int32(bytes.count)); formats.append(1)
            }
        }
        defer {
            for (index, buffer) in buffers.enumerated() {
                if case .bytes = values[index] { buffer?.deallocate() } else { free(buffer) }
            }
        }
        let result: OpaquePointer? = buffers.withUnsafeBufferPointer { bufferPointer in
            bufferPointer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { params in
                PQexecParams(handle, sql.text, Int32(values.count), nil, params.baseAddress, lengths, formats, 0)
            }
        }
        return try consume(result)
    }

    /// Runs a script of several statements with no parameters (PQexec). Only the migration runner
    /// uses it, for the trusted files in Migrations/: PQexecParams accepts one statement at a time.
    func runScript(_ sql: SQL) throws {
        guard let handle else { throw DatabaseError.connectionLost(message: "the connection was closed") }
        _ = try consume(PQexec(handle, sql.text))
    }

    /// Reads whatever the server has sent and returns pending notifications (LISTEN).
    func drainNotifications() throws -> [DatabaseNotification] {
        guard let handle else { throw DatabaseError.connectionLost(message: "the connection was closed") }
        if PQconsumeInput(handle) == 0 || PQstatus(handle) != CONNECTION_OK {
            throw DatabaseError.connectionLost(message: Self.trimmed(PQerrorMessage(handle)))
        }
        var notifications: [DatabaseNotification] = []
        while let notify = PQnotifies(handle) {
            notifications.append(DatabaseNotification(
                channel: String(cString: notify.pointee.relname),
                payload: String(cString: notify.pointee.extra),
                senderPID: notify.pointee.be_pid))
            PQfreemem(notify)
        }
        return notifications
    }

    /// Quotes a name (channel, database) as an SQL identifier, for the few statements that cannot
    /// take a parameter there (LISTEN, CREATE DATABASE).
    func quotedIdentifier(_ name: String) throws -> String {
        guard let handle else { throw DatabaseError.connectionLost(message: "the connection was closed") }
        guard let quoted = PQescapeIdentifier(handle, name, name.utf8.count) else {
            throw DatabaseError.decoding(column: name, message: Self.trimmed(PQerrorMessage(handle)))
        }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    private func consume(_ result: OpaquePointer?) throws -> QueryResult {
        guard let handle else { throw DatabaseError.connectionLost(message: "the connection was closed") }
        guard let result else {
            throw PQstatus(handle) == CONNECTION_OK
                ? DatabaseError.server(ServerError(sqlState: "53200", message: Self.trimmed(PQerrorMessage(handle))))
                : DatabaseError.connectionLost(message: Self.trimmed(PQerrorMessage(handle)))
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE:
            return QueryResult(rows: rows(of: result), affectedRows: Self.affectedRows(result))
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return QueryResult(rows: [], affectedRows: Self.affectedRows(result))
        default:
            throw error(from: result)
        }
    }

    private func error(from result: OpaquePointer) -> DatabaseError {
        func field(_ code: UInt8) -> String? {
            guard let value = PQresultErrorField(result, Int32(code)) else { return nil }
            return String(cString: value)
        }
        let message = field(UInt8(ascii: "M")) ?? Self.trimmed(PQresultErrorMessage(result))
        // A broken socket has no SQLSTATE; a server shutting down sends 57P01 and then hangs up.
        if let handle, PQstatus(handle) != CONNECTION_OK {
            return .connectionLost(message: message.isEmpty ? Self.trimmed(PQerrorMessage(handle)) : message)
        }
        let error = ServerError(
            sqlState: field(UInt8(ascii: "C")) ?? "XX000",
            severity: field(UInt8(ascii: "V")) ?? field(UInt8(ascii: "S")) ?? "ERROR",
            message: message,
            detail: field(UInt8(ascii: "D")),
            hint: field(UInt8(ascii: "H")),
            constraint: field(UInt8(ascii: "n")))
        return error.isConnectionClass ? .connectionLost(message: error.description) : .server(error)
    }

    private func rows(of result: OpaquePointer) -> [Row] {
        let rowCount = PQntuples(result), columnCount = PQnfields(result)
        let names = (0..<columnCount).map { column in PQfname(result, column).map { String(cString: $0) } ?? "?column?" }
        let layout = ColumnLayout(names: names, labels: qualifiedLabels(of: result, names: names))
        var rows: [Row] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(nil)
                } else {
                    let length = Int(PQgetlength(result, row, column))
                    let start = UnsafeRawPointer(PQgetvalue(result, row, column)).assumingMemoryBound(to: UInt8.self)
                    values.append(String(decoding: UnsafeBufferPointer(start: start, count: length), as: UTF8.self))
                }
            }
            rows.append(Row(layout: layout, values: values))
        }
        return rows
    }

    /// Each column's name for error messages: `domains.last_verdict`, or `verdict (checks.verdict)`
    /// when the result renamed it; the bare name for computed columns. Table columns not seen before
    /// on this connection are looked up in the catalog once (expression columns there have no table,
    /// so that lookup never recurses). A failed lookup only leaves the bare names.
    private func qualifiedLabels(of result: OpaquePointer, names: [String]) -> [String] {
        let keys = names.indices.map { column in
            ColumnSourceKey(table: PQftable(result, Int32(column)), column: PQftablecol(result, Int32(column)))
        }
        let unknownTables = Set(keys.filter { $0.table != 0 && columnSources[$0] == nil }.map(\.table))
        if !unknownTables.isEmpty, let found = try? query("""
            SELECT a.attrelid::int8 AS t, a.attnum::int4 AS n, (c.relname || '.' || a.attname)::text AS source
            FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
            WHERE a.attrelid = ANY($1::int8[]::oid[]) AND a.attnum > 0
            """, [SQLArray(unknownTables.map { Int64($0) })]) {
            for row in found.rows {
                if let table: Int64 = try? row.decode(0), let column: Int32 = try? row.decode(1), let source: String = try? row.decode(2),
                   let oid = UInt32(exactly: table) {
                    columnSources[ColumnSourceKey(table: oid, column: column)] = source
                }
            }
        }
        return zip(names, keys).map { name, key in
            guard let source = columnSources[key] else { return name }
            return source.hasSuffix("." + name) ? source : "\(name) (\(source))"
        }
    }

    private static func affectedRows(_ result: OpaquePointer) -> Int {
        guard let text = PQcmdTuples(result) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown libpq error" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A NOTIFY received on a listening connection.
public struct DatabaseNotification: Sendable, Equatable {
    public var channel: String
    public var payload: String
    public var senderPID: Int32
}

extension Connection {
    /// CREATE DATABASE cannot take parameters; the names are quoted as identifiers by libpq.
    public func createDatabase(_ name: String, template: String) throws {
        try runScript(SQL(trustedFileContents: "CREATE DATABASE \(try quotedIdentifier(name)) TEMPLATE \(try quotedIdentifier(template))"))
    }

    public func dropDatabase(_ name: String) throws {
        try runScript(SQL(trustedFileContents: "DROP DATABASE IF EXISTS \(try quotedIdentifier(name)) WITH (FORCE)"))
    }
}

/// A result column's origin: the table's OID and the column's number in it (0 and 0 for computed columns).
struct ColumnSourceKey: Hashable {
    var table: UInt32
    var column: Int32
}
