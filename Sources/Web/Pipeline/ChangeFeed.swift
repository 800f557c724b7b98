import Foundation
import Store
import Synchronization

/// Tells the dashboard's caches when what they hold may be out of date. Two counters, one for what
/// the overview shows (domains, checks, alerts) and one for what a session lookup returns (sessions,
/// users), go up on every change: changes made through this app bump them synchronously, and
/// changes by any other process (crawler workers, the CLI, another `serve`) arrive as PostgreSQL
/// NOTIFYs from migration 0007's triggers on a listening connection.
///
/// Caches may only be trusted while that connection is up (`isLive`): without it a change by another
/// process could go unseen, so the caches are bypassed. After a reconnect both counters go up,
/// because notifications sent while the connection was down are lost.
///
/// Notified data changes move the counter at most once per `dataCoalescing`: busy crawlers write
/// many checks a second, and recomputing the overview for each would cost more than it serves.
/// The first change after a quiet spell counts at once; within a burst a change shows at most
/// `dataCoalescing` late. Changes made through this app, and account changes, always count at once.
public final class ChangeFeed: Sendable {
    static let dataCoalescing: Duration = .milliseconds(100)

    private let dataCounter = Atomic<UInt64>(0)
    /// The data counter just after the latest change made through this app: a cached page computed
    /// at or after it has every such change, so it may be shown while a newer one is computed.
    private let ownDataFloor = Atomic<UInt64>(0)
    private let accountsCounter = Atomic<UInt64>(0)
    private let live = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    public init() {}

    /// Goes up whenever domains, checks or alerts change.
    var dataGeneration: UInt64 { dataCounter.load(ordering: .acquiring) }
    /// Goes up whenever sessions or users change.
    var accountsGeneration: UInt64 { accountsCounter.load(ordering: .acquiring) }
    /// True while every change, from any process, reaches the counters.
    public var isLive: Bool { live.load(ordering: .acquiring) }

    var dataFloor: UInt64 { ownDataFloor.load(ordering: .acquiring) }

    func dataChanged() { dataCounter.add(1, ordering: .acquiringAndReleasing) }

    /// A change made through this app is committed: no page computed before now may be shown again.
    func ownDataChanged() {
        let now = dataCounter.add(1, ordering: .acquiringAndReleasing).newValue
        var floor = ownDataFloor.load(ordering: .acquiring)
        while floor < now {
            let (exchanged, original) = ownDataFloor.compareExchange(expected: floor, desired: now, ordering: .acquiringAndReleasing)
            if exchanged { break }
            floor = original
        }
    }
    func accountsChanged() { accountsCounter.add(1, ordering: .acquiringAndReleasing) }

    /// Starts the listening thread (once). libpq's wait blocks, so it gets a thread of its own.
    public func start(database: Database) {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let listener = database.makeListener()
        let thread = Thread { [self] in
            run(listener)
            finished.signal()
        }
        thread.name = "change-feed"
        thread.start()
    }

    /// Stops listening; returns once the thread is gone (within about half a second).
    public func stop() {
        guard started.load(ordering: .acquiring) else { return }
        guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
    }

    private func run(_ listener: NotificationListener) {
        do {
            try listener.listen(ChangeChannel.data)
            try listener.listen(ChangeChannel.accounts)
            becameLive()
        } catch {
            // The wait below reconnects (and LISTENs on both channels) when the database is back.
            live.store(false, ordering: .releasing)
        }
        // The last notified data change that moved the counter, and whether one is held back since.
        var lastDataBump = ContinuousClock.now - Self.dataCoalescing
        var dataPending = false
        while !stopRequested.load(ordering: .acquiring) {
            let timeout: Duration = dataPending ? max(.zero, lastDataBump + Self.dataCoalescing - ContinuousClock.now) : .milliseconds(500)
            switch listener.wait(timeout: timeout) {
            case .notifications(let notifications):
                for n in notifications {
                    if n.channel == ChangeChannel.accounts { accountsChanged() } else { dataPending = true }
                }
            case .reconnected:
                becameLive()
            case .unavailable:
                live.store(false, ordering: .releasing)
                dataChanged()
                accountsChanged()
            case .timedOut:
                break
            }
            if dataPending && ContinuousClock.now - lastDataBump >= Self.dataCoalescing {
                dataChanged()
                dataPending = false
                lastDataBump = ContinuousClock.now
            }
        }
        live.store(false, ordering: .releasing)
        listener.close()
    }

    private func becameLive() {
        // Anything cached before this point may have missed a notification.
        dataChanged()
        accountsChanged()
        live.store(true, ordering: .releasing)
    }
}
