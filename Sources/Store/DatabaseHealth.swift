import Foundation
import Synchronization

/// The database's health for /healthz: a real round trip, remembered for a short time so a load
/// balancer (or a benchmark) polling many times a second costs one query per `maximumAge`, and an
/// answer can be given without waiting on the pool while it is fresh.
public final class DatabaseHealth: Sendable {
    private struct Observation {
        var healthy: Bool
        var at: ContinuousClock.Instant
    }

    private let database: Database
    private let maximumAge: Duration
    private let probeTimeout: Duration
    private let last = Mutex<Observation?>(nil)

    public init(database: Database, maximumAge: Duration = .seconds(1), probeTimeout: Duration = .seconds(2)) {
        self.database = database
        self.maximumAge = maximumAge
        self.probeTimeout = probeTimeout
    }

    /// The last observation if it is younger than `maximumAge`; nil means: call `probe()`.
    public var recent: Bool? {
        last.withLock { observation in
            guard let observation, ContinuousClock.now - observation.at < maximumAge else { return nil }
            return observation.healthy
        }
    }

    /// Runs `SELECT 1` (blocking; call it off the event loop) and remembers the answer.
    @discardableResult
    public func probe() -> Bool {
        let healthy = database.isReachable(timeout: probeTimeout)
        last.withLock { $0 = Observation(healthy: healthy, at: .now) }
        return healthy
    }
}
