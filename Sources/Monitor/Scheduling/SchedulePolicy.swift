import Foundation
import Vocabulary

/// When a domain is checked next: its interval, spread by jitter, stretched by backoff while the
/// origin cannot be reached. Pure: the same inputs always give the same time.
public struct SchedulePolicy: Hashable, Sendable {
    /// Used when a domain has no interval of its own.
    public var defaultInterval: Duration
    /// Shorter intervals are raised to this, so a typo cannot turn the crawler into a load test.
    public var minimumInterval: Duration
    /// Each next check moves by up to ± this fraction of the interval, so thousands of domains
    /// registered in one import do not keep firing in the same second forever.
    public var jitterFraction: Double
    /// Backoff for unreachable domains never waits longer than this (nor less than the interval).
    public var backoffCap: Duration
    /// Tests only: every domain gets this interval, whatever it has and however short, so a test
    /// can watch several intervals pass in seconds. The CLI sets it only from an explicitly
    /// allowed option (`--test-interval-seconds` with AASA_MONITOR_ALLOW_TEST_INTERVAL=1).
    public var testIntervalOverride: Duration?

    public init(defaultInterval: Duration = .seconds(3600), minimumInterval: Duration = .seconds(60),
                jitterFraction: Double = 0.1, backoffCap: Duration = .seconds(6 * 3600),
                testIntervalOverride: Duration? = nil) {
        self.defaultInterval = defaultInterval
        self.minimumInterval = minimumInterval
        self.jitterFraction = min(max(jitterFraction, 0), 0.5)
        self.backoffCap = backoffCap
        self.testIntervalOverride = testIntervalOverride
    }

    /// The interval a domain really gets: its own (or the default), never below the minimum
    /// (unless a test overrides every interval).
    public func effectiveInterval(_ requested: Duration?) -> Duration {
        if let testIntervalOverride { return testIntervalOverride }
        return max(requested ?? defaultInterval, minimumInterval)
    }

    /// How long to wait after a check before the next one, without jitter.
    ///
    /// The first unreachable check keeps the normal interval so that the check confirming an alert
    /// (alerts open after N consecutive failures) is not delayed; from the second one on the wait
    /// doubles per failure up to the cap, so a dead domain costs little but is still noticed when it
    /// comes back.
    public func delay(interval requested: Duration?, consecutiveUnreachable: Int) -> Duration {
        let interval = effectiveInterval(requested)
        guard consecutiveUnreachable > 1 else { return interval }
        let cap = max(backoffCap, interval)
        let intervalSeconds = Double(interval.components.seconds)
        let doublings = min(consecutiveUnreachable - 1, 30)
        let seconds = intervalSeconds * pow(2, Double(doublings))
        return seconds >= Double(cap.components.seconds) ? cap : .seconds(Int64(seconds))
    }

    /// The jitter for one (domain, round) pair, in [-fraction, +fraction] × delay. Deterministic, so
    /// tests and restarts see the same spread, yet different domains land on different offsets.
    public func jitter(for delay: Duration, domainKey: UInt64, round: UInt64) -> Duration {
        guard jitterFraction > 0 else { return .zero }
        let unit = Self.unitInterval(Self.mix(domainKey &+ Self.mix(round)))   // [0, 1)
        let fraction = (unit * 2 - 1) * jitterFraction
        let millis = Double(delay.components.seconds) * 1000 * fraction
        return .milliseconds(Int64(millis.rounded()))
    }

    /// The time of the next check after one that finished at `finished`.
    ///
    /// `spreading`: the host of a domain whose *first* check was requested (a registration from the
    /// form, the API, a config file or an app, or "check now" before its first due time) or taken from
    /// the first-check queue (an import). Those ran at once, so 10,000 registered in one go finished
    /// within the crawler's first minute; the ±10 %
    /// jitter alone would keep them bunched for dozens of rounds. Their second check goes to the
    /// host's own slot (`slot(for:interval:notBefore:)`) at least 0.9 × the interval later, which
    /// spreads them over a whole interval at once; from then on the jitter keeps them apart.
    public func nextCheck(after finished: Date, interval: Duration?, consecutiveUnreachable: Int,
                          domainKey: UInt64, round: UInt64, spreading host: String? = nil) -> Date {
        let base = delay(interval: interval, consecutiveUnreachable: consecutiveUnreachable)
        if let host, base == effectiveInterval(interval) {
            return slot(for: host, interval: base, notBefore: finished.addingTimeInterval(Self.seconds(base) * 0.9))
        }
        let total = base + jitter(for: base, domainKey: domainKey, round: round)
        return finished.addingTimeInterval(Self.seconds(total))
    }

    /// The first time at or after `notBefore` that falls on `host`'s place in the interval: every
    /// domain has a fixed offset in [0, interval) taken from a hash of its host name, so domains
    /// registered together land spread evenly over one interval, the same way on every run and worker.
    /// An import's first checks are due here at the latest (the first-check queue takes them sooner
    /// when the workers have room), and so are the second checks of first checks that ran early.
    public func slot(for host: String, interval: Duration, notBefore: Date) -> Date {
        let length = Self.seconds(effectiveInterval(interval))
        guard length > 0 else { return notBefore }
        let offset = Self.phase(of: host) * length
        let start = notBefore.timeIntervalSince1970
        // The slot's distance after `notBefore`, in [0, length).
        var wait = (offset - start).truncatingRemainder(dividingBy: length)
        if wait < 0 { wait += length }
        return Date(timeIntervalSince1970: start + wait)
    }

    /// A host's place in any interval, in [0, 1): FNV-1a over its bytes, then the mixer (FNV alone
    /// leaves names that differ in the last character close together).
    static func phase(of host: String) -> Double {
        unitInterval(mix(HostHash.fnv1a(host)))
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let parts = duration.components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }

    /// splitmix64's finaliser: cheap, and consecutive ids map to unrelated outputs.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static func unitInterval(_ value: UInt64) -> Double {
        Double(value >> 11) / Double(UInt64(1) << 53)
    }
}
