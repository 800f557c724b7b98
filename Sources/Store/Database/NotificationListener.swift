import Foundation
import Glibc

/// A dedicated connection that LISTENs on channels and waits for NOTIFYs with a timeout, e.g. the
/// scheduler waiting for "check now" or the notifier waiting for new outbox rows. Use it from one
/// thread. It reconnects by itself; after a reconnect it reports `.reconnected`, because
/// notifications sent while it was away are lost and the caller should rescan.
public final class NotificationListener: @unchecked Sendable {
    /// What one `wait` saw.
    public enum Wake: Sendable, Equatable {
        case notifications([DatabaseNotification])
        case timedOut
        /// The connection was re-established (and every channel re-LISTENed); rescan the tables.
        case reconnected
        /// No connection could be made; the call waited out its timeout instead of spinning.
        case unavailable(message: String)
    }

    private let configuration: ConnectionConfiguration
    private var connection: Connection?
    private var channels: [String] = []

    init(configuration: ConnectionConfiguration) {
        self.configuration = configuration.applicationName("aasa-monitor listener")
    }

    deinit {
        connection?.close()
    }

    /// Starts listening on `channel` (letters, digits and underscores). Connects if needed.
    public func listen(_ channel: String) throws {
        guard !channel.isEmpty, channel.utf8.count < 64,
              channel.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x61...0x7a).contains($0) })
        else {
            throw DatabaseError.decoding(column: channel, message: "a channel name is lower-case letters, digits and _")
        }
        if !channels.contains(channel) { channels.append(channel) }
        let connection = try connected()
        try listen(channel, on: connection)
    }

    /// Waits up to `timeout` for notifications on the channels listened to.
    public func wait(timeout: Duration) -> Wake {
        let deadline = ContinuousClock.now + timeout
        let current: Connection
        if let connection, connection.isOpen {
            current = connection
        } else {
            do {
                current = try reconnect()
                return .reconnected
            } catch {
                sleep(until: deadline)
                return .unavailable(message: String(describing: error))
            }
        }
        do {
            var notifications = try current.drainNotifications()
            while notifications.isEmpty {
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else { return .timedOut }
                let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
                var descriptor = pollfd(fd: current.socket, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, milliseconds)
                if ready < 0 && errno != EINTR { throw DatabaseError.connectionLost(message: String(cString: strerror(errno))) }
                if ready > 0 { notifications = try current.drainNotifications() }
            }
            return .notifications(notifications)
        } catch {
            connection?.close()
            connection = nil
            do {
                _ = try reconnect()
                return .reconnected
            } catch {
                sleep(until: deadline)
                return .unavailable(message: String(describing: error))
            }
        }
    }

    /// Closes the connection; a later `listen` or `wait` opens a new one.
    public func close() {
        connection?.close()
        connection = nil
    }

    private func connected() throws -> Connection {
        if let connection, connection.isOpen { return connection }
        return try reconnect()
    }

    private func reconnect() throws -> Connection {
        connection?.close()
        connection = nil
        let fresh = try Connection(configuration: configuration)
        for channel in channels { try listen(channel, on: fresh) }
        connection = fresh
        return fresh
    }

    private func listen(_ channel: String, on connection: Connection) throws {
        // LISTEN takes an identifier, which cannot be a bound parameter: the name was checked above
        // and is quoted by libpq.
        let statement = "LISTEN " + (try connection.quotedIdentifier(channel))
        try connection.runScript(SQL(trustedFileContents: statement))
    }

    private func sleep(until deadline: ContinuousClock.Instant) {
        let remaining = deadline - ContinuousClock.now
        if remaining > .zero { Thread.sleep(forTimeInterval: Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18) }
    }
}
