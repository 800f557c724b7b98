import Foundation
import Store

/// Runs the outbox in the background: `threads` sending threads and one listener thread. The
/// listener LISTENs for new rows (NOTIFY at the enqueueing transaction's commit) and wakes the
/// senders at once; an idle sender otherwise sleeps until the next retry is due or the poll
/// interval passes, whichever is first, so a lost notification costs at most one poll interval.
public final class DeliveryWorker: @unchecked Sendable {
    private var currentDeliverer: OutboxDeliverer
    /// Re-reads the settings (SMTP, base URL) so a change on the settings page applies without a restart.
    private let reload: (@Sendable () throws -> DeliveryConfiguration)?
    private var reloadedAt = ContinuousClock.now
    private let wake = WakeSignal()
    private let lock = NSLock()
    private var threads: [Thread] = []
    private var running = 0
    private let finished = NSCondition()
    /// Errors are logged, not thrown: a database outage must not stop the worker for good.
    private let log: @Sendable (String) -> Void
    /// For the listener's own connection; the deliverer sees only the outbox.
    private let database: Database

    public init(database: Database, configuration: DeliveryConfiguration,
                reload: (@Sendable () throws -> DeliveryConfiguration)? = nil,
                log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.database = database
        currentDeliverer = OutboxDeliverer(store: database, configuration: configuration)
        self.reload = reload
        self.log = log
    }

    /// The deliverer in use; refreshed from `reload` at most every 30 seconds.
    public var deliverer: OutboxDeliverer { deliverer(refreshedWithin: .seconds(30)) }

    /// The deliverer, its settings re-read when they are older than `age`. Rows about to be sent are
    /// sent with settings read for them (`sendLoop`, age zero), so a change on the settings page
    /// (private receivers allowed, a new SMTP server) applies to the next message, not up to half a
    /// minute later; idle polling keeps the 30-second refresh.
    func deliverer(refreshedWithin age: Duration) -> OutboxDeliverer {
        lock.lock()
        defer { lock.unlock() }
        guard let reload, ContinuousClock.now - reloadedAt > age else { return currentDeliverer }
        reloadedAt = ContinuousClock.now
        do {
            currentDeliverer = OutboxDeliverer(store: database, configuration: try reload())
        } catch {
            log("outbox: keeping the previous settings: \(error)")
        }
        return currentDeliverer
    }

    /// Starts the threads; returns at once.
    public func start() {
        lock.lock()
        defer { lock.unlock() }
        guard threads.isEmpty else { return }
        var all: [Thread] = []
        all.append(Thread { [self] in listenLoop() })
        for _ in 0..<currentDeliverer.configuration.threads {
            all.append(Thread { [self] in sendLoop() })
        }
        finished.lock()
        running = all.count
        finished.unlock()
        for (i, t) in all.enumerated() {
            t.name = i == 0 ? "outbox-listener" : "outbox-sender-\(i)"
            t.start()
        }
        threads = all
    }

    /// Asks every thread to stop after its current send, and waits for them.
    public func stop() {
        wake.stop()
        finished.lock()
        while running > 0 { finished.wait() }
        finished.unlock()
        lock.lock()
        threads.removeAll()
        lock.unlock()
    }

    private func threadDone() {
        finished.lock()
        running -= 1
        finished.broadcast()
        finished.unlock()
    }

    private func sendLoop() {
        defer { threadDone() }
        let poll = Self.seconds(deliverer.configuration.pollInterval)
        while !wake.isStopped {
            let seen = wake.current
            let deliverer = self.deliverer
            do {
                let claimedAt = ContinuousClock.now
                let claimed = try deliverer.claimDue()
                if !claimed.isEmpty {
                    // Claiming needs no settings; sending does, as they are now: read again for every
                    // batch (a few small queries, only when there is something to send).
                    try self.deliverer(refreshedWithin: .zero).deliver(claimed, claimedAt: claimedAt)
                    continue
                }
                let next = try deliverer.store.secondsUntilNextDelivery()
                wake.wait(after: seen, seconds: min(poll, next ?? poll))
            } catch {
                log("outbox: \(error)")
                wake.wait(after: seen, seconds: min(poll, 1))
            }
        }
    }

    private func listenLoop() {
        defer { threadDone() }
        let listener = database.makeListener()
        defer { listener.close() }
        var listening = false
        while !wake.isStopped {
            if !listening {
                do {
                    try listener.listen(outboxNotificationChannel)
                    listening = true
                    wake.signal()  // rows may have arrived while we were not listening
                } catch {
                    log("outbox: cannot LISTEN (polling instead): \(error)")
                    wake.wait(after: wake.current, seconds: Self.seconds(deliverer.configuration.pollInterval))
                    continue
                }
            }
            // Short waits so stop() is noticed promptly; a wake-up costs one poll(2) on an idle socket.
            switch listener.wait(timeout: .milliseconds(500)) {
            case .notifications, .reconnected: wake.signal()
            case .timedOut: break
            case .unavailable: listening = false
            }
        }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
