import Foundation

/// A fixed-size pool of connections for blocking callers (HTTP worker threads, the scheduler).
/// Connections open lazily, idle ones are checked before reuse, and broken ones are dropped, so the
/// pool heals by itself after the server restarts.
final class ConnectionPool: @unchecked Sendable {
    // @unchecked: every mutable field below is touched only while `condition` is locked.
    private let condition = NSCondition()
    private var idle: [Connection] = []
    private var openCount = 0
    private var closed = false

    let configuration: ConnectionConfiguration
    let size: Int
    let acquireTimeout: Duration

    init(configuration: ConnectionConfiguration, size: Int, acquireTimeout: Duration) {
        self.configuration = configuration
        self.size = max(1, size)
        self.acquireTimeout = acquireTimeout
    }

    /// A connection for the caller's exclusive use; `reused` tells whether it sat idle in the pool
    /// (and so may have broken unnoticed) or was opened just now.
    func acquire(timeout: Duration? = nil) throws -> (connection: Connection, reused: Bool) {
        let wait = timeout ?? acquireTimeout
        let deadline = Date().addingTimeInterval(Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
        while true {
            condition.lock()
            var candidate: Connection?
            var mayOpen = false
            while candidate == nil && !mayOpen {
                if closed {
                    condition.unlock()
                    throw DatabaseError.connectionFailed(message: "the connection pool was closed")
                }
                if let connection = idle.popLast() {
                    candidate = connection
                } else if openCount < size {
                    openCount += 1
                    mayOpen = true
                } else if !condition.wait(until: deadline) {
                    condition.unlock()
                    throw DatabaseError.poolTimeout(waited: wait, size: size)
                }
            }
            condition.unlock()

            if let candidate {
                if candidate.isUsableAfterIdling() { return (candidate, true) }
                discard(candidate)
                continue
            }
            do {
                return (try Connection(configuration: configuration), false)
            } catch {
                condition.lock()
                openCount -= 1
                condition.signal()
                condition.unlock()
                throw error
            }
        }
    }

    /// Returns a connection after use. One left inside a transaction or broken is closed instead.
    func release(_ connection: Connection) {
        guard connection.isOpen, connection.isIdle else {
            discard(connection)
            return
        }
        condition.lock()
        if closed {
            condition.unlock()
            connection.close()
            return
        }
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }

    /// Closes a connection that must not be reused and frees its slot.
    func discard(_ connection: Connection) {
        connection.close()
        condition.lock()
        openCount -= 1
        condition.signal()
        condition.unlock()
    }

    /// Closes every idle connection: after one connection broke, the others most likely point at the
    /// same dead server process.
    func discardIdle() {
        condition.lock()
        let stale = idle
        idle.removeAll()
        openCount -= stale.count
        condition.broadcast()
        condition.unlock()
        stale.forEach { $0.close() }
    }

    /// Closes idle connections and refuses new acquisitions; busy ones close when released.
    func close() {
        condition.lock()
        closed = true
        condition.unlock()
        // A connection released in between is closed by `release` (the pool is closed by then).
        discardIdle()
    }

    /// (open, idle) for metrics and tests.
    var counts: (open: Int, idle: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (openCount, idle.count)
    }
}
