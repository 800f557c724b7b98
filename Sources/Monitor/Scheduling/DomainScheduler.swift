import Vocabulary
import Foundation
import Store
import AssetLinks

/// The crawler loop of one process: leases due domains in batches, runs many checks at once through
/// the pipeline (the fetcher multiplexes them on one curl multi handle), and sleeps until a check
/// finishes, a "check now" NOTIFY arrives or the poll interval passes. Any number of processes may
/// run it against one database: leases and SKIP LOCKED keep them from checking a domain twice.
public final class DomainScheduler: Sendable {
    public struct Configuration: Sendable {
        /// Written into `domains.leased_by`, for operators looking at who holds what.
        public var workerID: String
        public var maxInFlight: Int
        public var batchSize: Int
        /// Longer than the slowest check (several transfers with their timeouts); when it expires the
        /// domain is due again, so this is also how long a crashed worker's domains wait.
        public var lease: Duration
        /// How often to look for due domains when nothing wakes the loop.
        public var pollInterval: Duration
        /// Unchanged repeats older than this are rolled up, at most every `retentionEvery`.
        public var retentionAge: Duration
        public var retentionEvery: Duration

        public init(workerID: String = DomainScheduler.defaultWorkerID(), maxInFlight: Int = 256, batchSize: Int = 64,
                    lease: Duration = .seconds(300), pollInterval: Duration = .seconds(5),
                    retentionAge: Duration = .seconds(7 * 86_400), retentionEvery: Duration = .seconds(3600)) {
            self.workerID = workerID
            self.maxInFlight = max(maxInFlight, 1)
            self.batchSize = max(batchSize, 1)
            self.lease = lease
            self.pollInterval = pollInterval
            self.retentionAge = retentionAge
            self.retentionEvery = retentionEvery
        }
    }

    /// NOTIFY channel that `check-now` and the web's button use to wake the schedulers.
    public static let checkNowChannel = "check_now"

    public let pipeline: CheckPipeline
    public let configuration: Configuration
    private let wake = WakeSignal()
    private let inFlight = InFlightCounter()

    public init(pipeline: CheckPipeline, configuration: Configuration = Configuration()) {
        self.pipeline = pipeline
        self.configuration = configuration
    }

    public static func defaultWorkerID() -> String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
    }

    /// Runs until `stop` is set, then waits for the checks in flight to be recorded.
    /// `observe` sees every finished check (tests, progress output).
    public func run(until stop: StopSignal,
                    observe: (@Sendable (LeasedDomain, Result<CheckPipeline.Result, any Error>) -> Void)? = nil) async {
        let listenerThread = startListener(stop: stop)
        stop.whenStopped { [wake] in wake.signal() }
        var lastRetention = ContinuousClock.now - configuration.retentionEvery
        var failurePause = configuration.pollInterval
        let pacing = ClaimPacing(maxInFlight: configuration.maxInFlight, batchSize: configuration.batchSize)
        var lastClaimFull = false

        await withDiscardingTaskGroup { group in
            while !stop.isStopped {
                if ContinuousClock.now - lastRetention >= configuration.retentionEvery {
                    lastRetention = ContinuousClock.now
                    group.addTask { await self.rollUp() }
                }
                guard case .claim(let asked) = pacing.decide(inFlight: inFlight.value, lastClaimFull: lastClaimFull) else {
                    await wake.wait(timeout: configuration.pollInterval)
                    continue
                }
                let batch: [ClaimedDomain]
                do {
                    batch = try await claim(asked)
                    failurePause = configuration.pollInterval
                    lastClaimFull = batch.count == asked
                } catch {
                    Self.log("claiming due domains failed: \(error); retrying in \(failurePause)")
                    await wake.wait(timeout: failurePause)
                    failurePause = min(failurePause * 2, .seconds(30))
                    continue
                }
                for claimed in batch {
                    let domain = claimed.domain
                    inFlight.add(1)
                    group.addTask {
                        let result: Result<CheckPipeline.Result, any Error>
                        do {
                            result = .success(try await self.pipeline.run(domain, expectations: claimed.expectations, android: claimed.android,
                                                                         history: claimed.history))
                        } catch {
                            Self.log("checking \(domain.host) failed: \(error)")
                            result = .failure(error)
                        }
                        self.inFlight.add(-1)
                        observe?(domain, result)
                        self.wake.signal()
                    }
                }
                // A full batch means more may be due right now. Otherwise nothing more is due: a finished
                // check frees room but makes no domain due, so claiming at each one was a transaction per
                // check, mostly empty. Look again after `claimSpacing` at the soonest (a signal meanwhile, a
                // check-now NOTIFY or a finished check, is kept and ends the wait), else at the poll interval.
                if !lastClaimFull {
                    try? await Task.sleep(for: pacing.claimSpacing)
                    await wake.wait(timeout: configuration.pollInterval)
                }
            }
        }
        listenerThread.join()
    }

    struct ClaimedDomain: Sendable {
        var domain: LeasedDomain
        var expectations: Expectations
        var android: [AndroidAppExpectation]
        var history: DomainHistory?
    }

    private func claim(_ limit: Int) async throws -> [ClaimedDomain] {
        let database = pipeline.database
        let configuration = configuration
        // One transaction: when reading the expectations or histories fails (the database went
        // away between statements), the leases roll back with them. Otherwise the domains would stay
        // leased to a worker that never got them, and wait for the lease to expire.
        return try await BlockingCallQueue.run {
            try database.withTransaction { connection in
                let claim = try connection.claimDueDomains(limit: limit, lease: configuration.lease, worker: configuration.workerID)
                if !claim.unreadable.isEmpty {
                    try connection.deferUnreadable(claim.unreadable.map(\.id))
                    for row in claim.unreadable { Self.log("domain \(row.id) cannot be checked, its row does not read back (\(row.reason)); deferred one interval") }
                }
                let leased = claim.leased
                guard !leased.isEmpty else { return [] }
                let ids = leased.map(\.id)
                let expectations = Dictionary(grouping: try connection.expectations(domainIDs: ids), by: \.domainID)
                let android = Dictionary(grouping: try connection.androidExpectations(domainIDs: ids), by: \.domainID)
                let histories = try connection.domainHistories(domainIDs: ids)
                return leased.map { domain in
                    ClaimedDomain(domain: domain,
                                  expectations: Expectations(rows: expectations[domain.id] ?? [], android: android[domain.id] ?? []),
                                  android: (android[domain.id] ?? []).map(\.app),
                                  history: histories[domain.id])
                }
            }
        }
    }

    private func rollUp() async {
        let database = pipeline.database
        let age = configuration.retentionAge
        do {
            try await BlockingCallQueue.run { try Self.retain(database, now: Date(), age: age) }
        } catch {
            Self.log("rolling up or packing unchanged checks failed: \(error)")
        }
    }

    /// The retention job: folds the repeats of the days older than `age` into daily roll-ups, then
    /// packs every earlier day's repeats into a row per domain and day (0056). The pipeline keeps
    /// appending today's as plain rows.
    static func retain(_ database: Database, now: Date, age: Duration) throws {
        try database.rollUpRepeats(olderThan: .zero, now: rollUpCutoff(now: now, age: age))
        try database.packRepeats(before: rollUpCutoff(now: now, age: .zero))
    }

    /// Repeats are rolled up by whole UTC days: everything before the midnight that starts the day
    /// `age` ago. Each day's roll-up row is then written once, by the first run after that midnight,
    /// instead of being rewritten by every hourly run (a dead row version per domain and hour).
    static func rollUpCutoff(now: Date, age: Duration) -> Date {
        let limit = now.addingTimeInterval(-SchedulePolicy.seconds(age)).timeIntervalSince1970
        return Date(timeIntervalSince1970: (limit / 86_400).rounded(.down) * 86_400)
    }

    /// A thread that LISTENs for "check now" and wakes the loop; libpq's wait blocks, so it gets
    /// its own thread rather than a slot of the cooperative pool.
    private func startListener(stop: StopSignal) -> JoinableThread {
        let listener = pipeline.database.makeListener()
        let wake = self.wake
        return JoinableThread {
            try? listener.listen(Self.checkNowChannel)
            while !stop.isStopped {
                switch listener.wait(timeout: .seconds(1)) {
                case .notifications, .reconnected: wake.signal()
                case .timedOut, .unavailable: break
                }
            }
            listener.close()
        }
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("scheduler: \(message)\n".utf8))
    }
}

/// When the scheduler claims, and how many domains (pure: SchedulePolicyTests hold the table).
///
/// Each claim is a transaction (the lease UPDATE, then the expectations and histories of what it
/// leased). Flat out, a finished check used to free one slot and the loop claimed one domain for it:
/// about one claim per check, the "1.2 commits per check" of the sustained rounds. Now, while domains
/// are waiting (the last claim was full), the loop waits until a quarter of its slots are free and
/// claims them together; the other slots keep the fetcher busy meanwhile.
struct ClaimPacing: Sendable {
    let maxInFlight: Int
    let batchSize: Int
    /// The least room worth a claim while more domains are due.
    var threshold: Int { min(batchSize, max(1, maxInFlight / 4)) }
    /// After a claim that found fewer domains than it asked for, the soonest the next one runs.
    var claimSpacing: Duration = .milliseconds(100)

    enum Decision: Equatable { case claim(Int), wait }

    func decide(inFlight: Int, lastClaimFull: Bool) -> Decision {
        let room = maxInFlight - inFlight
        guard room > 0 else { return .wait }
        // Nothing was waiting at the last look: whatever is due now is claimed at once, however little room.
        if lastClaimFull && room < threshold { return .wait }
        return .claim(min(room, batchSize))
    }
}

/// Checks in flight, shared between the loop and the check tasks.
final class InFlightCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func add(_ delta: Int) {
        lock.lock()
        count += delta
        lock.unlock()
    }
}
