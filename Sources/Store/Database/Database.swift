import Foundation

/// The application's handle on PostgreSQL: a thread-safe pool of libpq connections. Calls block the
/// calling thread (HTTP handlers run on worker threads and may block), so async code should call it
/// without holding a connection across an `await`.
public final class Database: Queryable, Sendable {
    public let configuration: ConnectionConfiguration
    private let pool: ConnectionPool

    /// - Parameters:
    ///   - poolSize: the most connections open at once (size it to worker threads + background jobs).
    ///   - acquireTimeout: how long a caller waits for a free connection before `.poolTimeout`.
    public init(configuration: ConnectionConfiguration, poolSize: Int = 8, acquireTimeout: Duration = .seconds(10)) {
        self.configuration = configuration
        pool = ConnectionPool(configuration: configuration, size: poolSize, acquireTimeout: acquireTimeout)
    }

    public var poolSize: Int { pool.size }

    /// Open and idle connections right now.
    public var poolCounts: (open: Int, idle: Int) { pool.counts }

    /// Runs one statement on a pooled connection. A connection error on a connection that had been
    /// idle in the pool is retried once on a new connection: the statement was the first thing sent
    /// on a connection whose server had gone (restart, failover), so it never ran. Errors from the
    /// statement itself, and connection errors on fresh connections, are thrown as they are.
    public func query(_ sql: SQL, _ parameters: [any SQLEncodable]) throws -> QueryResult {
        try withPooledConnection { connection in try connection.query(sql, parameters) }
    }

    /// Lends one connection for several statements outside a transaction (e.g. session settings).
    public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let (connection, _) = try pool.acquire()
        defer { pool.release(connection) }
        return try body(connection)
    }

    /// Runs `body` in a transaction on one connection: committed when it returns, rolled back when it
    /// throws. Only BEGIN is retried on a connection error (nothing has happened yet at that point);
    /// a failure later is thrown, since the outcome of a half-sent COMMIT is unknown.
    public func withTransaction<T>(isolation: TransactionIsolation = .readCommitted,
                                   _ body: (Connection) throws -> T) throws -> T {
        let connection = try withPooledConnection(keep: true) { connection in
            try connection.execute(isolation.begin)
            return connection
        }
        do {
            let value = try body(connection)
            try connection.execute("COMMIT")
            pool.release(connection)
            return value
        } catch {
            if connection.isOpen { _ = try? connection.query("ROLLBACK", []) }
            pool.release(connection)
            throw error
        }
    }

    /// Whether the database answers a round trip within `timeout` (for /healthz). Never throws.
    public func isReachable(timeout: Duration = .seconds(2)) -> Bool {
        do {
            let (connection, _) = try pool.acquire(timeout: timeout)
            defer { pool.release(connection) }
            let one: Int = try connection.value("SELECT 1")
            return one == 1
        } catch {
            return false
        }
    }

    /// A dedicated connection (outside the pool) that LISTENs for notifications.
    public func makeListener() -> NotificationListener {
        NotificationListener(configuration: configuration)
    }

    /// Closes idle connections and refuses new work; call at shutdown.
    public func close() {
        pool.close()
    }

    /// Acquire → run → release, with the retry rule described on `query`. With `keep`, the
    /// connection is not released on success (the caller owns it, for transactions).
    private func withPooledConnection<T>(keep: Bool = false, _ body: (Connection) throws -> T) throws -> T {
        var (connection, reused) = try pool.acquire()
        var retried = false
        while true {
            do {
                let value = try body(connection)
                if !keep { pool.release(connection) }
                return value
            } catch let error as DatabaseError where error.isConnectionProblem {
                pool.discard(connection)
                guard reused, !retried else { throw error }
                retried = true
                pool.discardIdle()
                (connection, reused) = try pool.acquire()
                // A connection opened now is fresh; if it fails as well, the error is real.
                reused = false
            } catch {
                // The statement itself failed; the connection is fine (release drops it if not).
                pool.release(connection)
                throw error
            }
        }
    }
}

/// Transaction isolation levels PostgreSQL offers.
public enum TransactionIsolation: Sendable {
    case readCommitted, repeatableRead, serializable

    var begin: SQL {
        switch self {
        case .readCommitted: return "BEGIN"
        case .repeatableRead: return "BEGIN ISOLATION LEVEL REPEATABLE READ"
        case .serializable: return "BEGIN ISOLATION LEVEL SERIALIZABLE"
        }
    }
}
