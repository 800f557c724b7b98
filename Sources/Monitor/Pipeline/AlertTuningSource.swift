import Store
import Synchronization

/// The instance's alert tuning (`AlertTuning`) as the crawlers use it: read from the settings at most
/// once per `maxAge`, so a change saved on the settings page, through the API or by a config file
/// reaches every worker within that time, without a query per check.
public final class AlertTuningSource: Sendable {
    let database: Database
    let maxAge: Duration
    private let cached = Mutex<(tuning: AlertTuning, readAt: ContinuousClock.Instant)?>(nil)

    /// `maxAge` zero reads on every check (tests that change the settings between checks).
    public init(database: Database, maxAge: Duration = .seconds(15)) {
        self.database = database
        self.maxAge = maxAge
    }

    /// The tuning, fresh within `maxAge`. A database that does not answer keeps the last one read (the
    /// defaults before any): the check's own write will meet the outage and retry, a stale threshold will not.
    func current() async -> AlertTuning {
        let now = ContinuousClock.now
        if let kept = cached.withLock({ $0 }), now - kept.readAt < maxAge { return kept.tuning }
        let database = self.database
        guard let read = try? await BlockingCallQueue.run({ try database.alertTuning() }) else {
            return cached.withLock { $0?.tuning } ?? .defaults
        }
        cached.withLock { $0 = (read, now) }
        return read
    }
}
