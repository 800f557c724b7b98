import Foundation
import Vocabulary

/// What /metrics reports from the database, gathered in a few aggregate queries.
public struct MonitorMetrics: Sendable {
    /// How far /metrics counts the check queue by default: counting reads each queued domain's row,
    /// so a backlog of hundreds of thousands took seconds; up to 10,000 costs a few milliseconds.
    public static let queueDepthLimit = 10_000

    public var domainsByState: [String: Int] = [:]
    public var checksByVerdict: [String: Int] = [:]
    /// Domains failing on a platform whose latest check has an error finding of this code there, per
    /// platform: Apple's file's findings where Apple's state fails, assetlinks.json's where Android's
    /// does (migrations 0054, 0061): over the domains `domainsByPlatform` counts failing.
    public var failingByCode: [Platform: [String: Int]] = [:]
    /// Every check's origin fetch time, as a Prometheus histogram: cumulative counts per upper bound
    /// (ms; the bounds are the database's `aasa_latency_bounds()`), plus sum and count. Counters that
    /// only go up: a deleted domain's checks stay in them.
    public var latencyBuckets: [(le: Int, count: Int)] = []
    public var latencySum: Int = 0
    public var latencyCount: Int = 0
    /// Domains due or requested and not leased to a worker, counted up to `queueDepthLimit`: a larger
    /// queue reads as the limit (`queueDepthLimited`), and `queueLagSeconds` tells how far behind it is.
    public var queueDepth: Int = 0
    public var queueDepthLimited = false
    /// How long the domain that has waited longest in that queue has been due (or requested), in
    /// seconds; 0 when the queue is empty.
    public var queueLagSeconds: Double = 0
    public var deliveriesByState: [String: Int] = [:]
    /// Domains with a platform whose file passes or warns but that misses an expectation of that
    /// platform (an app ID, a watched URL's outcome): its state fails while its file does not.
    public var unmetExpectations: Int = 0
    /// Domains by platform and that platform's state (`domains.last_apple_state` / `last_android_state`:
    /// its file's verdict made worse by its unmet expectations), as the overview shows it; a domain
    /// counts for a platform where it has a state (watched, checked, and for Android where it counts).
    public var domainsByPlatform: [Platform: [Verdict: Int]] = [:]
}

extension CheckStore {
    /// `queueDepthLimit`: how far the queue depth is counted (`MonitorMetrics.queueDepthLimit`).
    public func monitorMetrics(queueDepthLimit: Int = MonitorMetrics.queueDepthLimit) throws -> MonitorMetrics {
        var m = MonitorMetrics()
        // By domain_counts (migrations 0039, 0061), kept as domains change: at a million domains, grouping the
        // domains joined to their latest checks took seconds (issue #17).
        for k in try rows(CountedDomains.sqlCounts).map(CountedDomains.init(row:)) {
            m.domainsByState[k.verdict?.rawValue ?? "never", default: 0] += k.n
            // Each platform's state, as the overview's columns and filter show it (migration 0061).
            if let v = k.appleState { m.domainsByPlatform[.apple, default: [:]][v, default: 0] += k.n }
            if let v = k.androidState { m.domainsByPlatform[.android, default: [:]][v, default: 0] += k.n }
            if k.missesAnExpectation { m.unmetExpectations += k.n }
        }
        // Kept per platform and code as domains change (failing_code_counts, migration 0054): joining the
        // failing domains to their latest checks' findings read every failing domain (issue #17).
        for r in try rows("SELECT platform, code, n FROM failing_code_counts WHERE n > 0") {
            m.failingByCode[try r.decode("platform", as: Platform.self), default: [:]][try r.decode("code")] = try r.decode("n")
        }
        // Every check's counters, kept as totals (check_counter_totals, migration 0049).
        if let totals = try firstRow(Self.checkCounters) {
            for (verdict, column) in [("pass", "passed"), ("warn", "warned"), ("fail", "failed")] {
                let n: Int = try totals.decode(column)
                if n > 0 { m.checksByVerdict[verdict] = n }
            }
            let bounds = try totals.decode("bounds", as: SQLIntegerArray.self).elements.compactMap { $0 }
            // Counter i (1-based) holds the latencies <= bounds[i-1] and above the bound before; the
            // one after the last bound holds the rest; the one after that, checks that measured no time.
            let perBucket = try totals.decode("buckets", as: SQLIntegerArray.self).elements.map { $0 ?? 0 }
            var cumulative = 0
            m.latencyBuckets = bounds.enumerated().map { i, le in
                cumulative += i < perBucket.count ? perBucket[i] : 0
                return (le, cumulative)
            }
            m.latencyCount = perBucket.prefix(bounds.count + 1).reduce(0, +)
            m.latencySum = try totals.decode("latency_sum")
        }
        // Requested, plus due and not requested: each through its partial index (one OR read every
        // domain), each stopping after `queueDepthLimit` rows. The lease and request flags are not in
        // the due index, so counting reads each due domain's row: 1.5 s with 317,000 due at 1M
        // (issue #17). The lag is the first not-leased row of each index: the leased ones come first
        // (the lease takes the longest-due), so it reads about as many rows as are being checked.
        let queue = try firstRow(Self.queue, queueDepthLimit)
        let depth: Int = try queue.map { try $0.decode("depth") } ?? 0
        m.queueDepth = min(depth, queueDepthLimit)
        m.queueDepthLimited = depth > queueDepthLimit
        m.queueLagSeconds = try queue.flatMap { try $0.decode("lag", as: Double?.self) } ?? 0
        for r in try rows("SELECT state, count(*) AS n FROM deliveries GROUP BY 1") {
            m.deliveriesByState[try r.decode("state")] = try r.decode("n")
        }
        return m
    }

    /// The queue: its depth counted to one past $1 (each part stops there, so a backlog costs no more
    /// than $1 rows), and its lag. The conditions are the lease's (`leaseDue`); each part is ordered as
    /// its index is, so it walks the index and stops (unordered, the planner may choose a sequential
    /// scan from stale statistics on next_check_at, which reads the whole table when few are due).
    static var queue: SQL {
        """
        SELECT (SELECT count(*) FROM (SELECT FROM domains WHERE check_requested_at IS NOT NULL AND NOT paused
                  AND (lease_until IS NULL OR lease_until < now()) ORDER BY check_requested_at LIMIT $1 + 1) requested)
             + (SELECT count(*) FROM (SELECT FROM domains WHERE next_check_at <= now() AND NOT paused AND check_requested_at IS NULL
                  AND (lease_until IS NULL OR lease_until < now()) ORDER BY next_check_at LIMIT $1 + 1) due) AS depth,
               extract(epoch FROM now() - least(
                 (SELECT min(check_requested_at) FROM domains WHERE check_requested_at IS NOT NULL AND NOT paused
                    AND (lease_until IS NULL OR lease_until < now())),
                 -- A due domain that was requested too has waited since it fell due.
                 (SELECT min(next_check_at) FROM domains WHERE next_check_at <= now() AND NOT paused
                    AND (lease_until IS NULL OR lease_until < now()))))::float8 AS lag
        """
    }

    /// Every check ever made: per verdict, and the latency histogram's counters (with their bounds)
    /// and sum: what the checks added to `domain_stats` plus the deleted domains' counts, kept as a
    /// few rows of totals by migration 0049's triggers (summing a million domain_stats rows took
    /// seconds), so they never go down.
    static var checkCounters: SQL {
        """
        SELECT coalesce(sum(checks_passed), 0)::bigint AS passed, coalesce(sum(checks_warned), 0)::bigint AS warned,
               coalesce(sum(checks_failed), 0)::bigint AS failed, coalesce(sum(latency_sum_ms), 0)::bigint AS latency_sum,
               ARRAY(SELECT coalesce(sum(t.latency_buckets[i]), 0)::bigint FROM check_counter_totals t, generate_series(1, 10) i
                     GROUP BY i ORDER BY i) AS buckets,
               aasa_latency_bounds() AS bounds
        FROM check_counter_totals
        """
    }
}
