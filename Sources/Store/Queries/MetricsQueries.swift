import Foundation

/// What /metrics reports from the database, gathered in a few aggregate queries.
public struct MonitorMetrics: Sendable {
    public var domainsByState: [String: Int] = [:]
    public var checksByVerdict: [String: Int] = [:]
    /// Domains whose latest check has an error finding with this code.
    public var failingByCode: [String: Int] = [:]
    /// Latency of the last 24 hours' checks: cumulative counts per upper bound (ms), plus sum and count.
    public var latencyBuckets: [(le: Int, count: Int)] = []
    public var latencySum: Int = 0
    public var latencyCount: Int = 0
    public var queueDepth: Int = 0
    public var deliveriesByState: [String: Int] = [:]
    /// Domains whose file passes or warns but that miss an expectation (an app ID, a watched URL's
    /// outcome): failing by `domains.last_verdict` while their latest check's file verdict is not.
    public var unmetExpectations: Int = 0
}

extension Queryable {
    public func monitorMetrics(buckets: [Int]) throws -> MonitorMetrics {
        var m = MonitorMetrics()
        for r in try rows("""
            SELECT coalesce(last_verdict, 'never') AS v, count(*) AS n FROM domains GROUP BY 1
            """) { m.domainsByState[try r.decode("v")] = try r.decode("n") }
        for r in try rows(Self.checksByVerdict) {
            m.checksByVerdict[try r.decode("v")] = try r.decode("n")
        }
        for r in try rows("""
            SELECT f->>'code' AS code, count(DISTINCT d.id) AS n FROM domains d JOIN checks c ON c.id = d.last_check_id,
              jsonb_array_elements(c.findings) f WHERE f->>'severity' = 'error' GROUP BY 1
            """) { m.failingByCode[try r.decode("code")] = try r.decode("n") }
        // Counts per bucket index (k: how many bounds lie below the latency), made cumulative here.
        let bounds = buckets.sorted()
        var perBucket = [Int](repeating: 0, count: bounds.count + 1)
        for r in try rows(Self.latencyHistogram, SQLArray(bounds)) {
            let k: Int = try r.decode("k"), n: Int = try r.decode("n")
            perBucket[min(max(k, 0), bounds.count)] += n
            m.latencyCount += n
            m.latencySum += try r.decode("s") as Int
        }
        var cumulative = 0
        m.latencyBuckets = bounds.enumerated().map { i, le in
            cumulative += perBucket[i]
            return (le, cumulative)
        }
        m.queueDepth = try value("""
            SELECT count(*) FROM domains WHERE NOT paused AND (check_requested_at IS NOT NULL OR next_check_at <= now())
              AND (lease_until IS NULL OR lease_until < now())
            """)
        m.unmetExpectations = try value(Self.unmetExpectations)
        for r in try rows("SELECT state, count(*) AS n FROM deliveries GROUP BY 1") {
            m.deliveriesByState[try r.decode("state")] = try r.decode("n")
        }
        return m
    }

    /// The domain's state counts unmet expectations as `fail`; `checks.verdict` is the file's alone.
    static var unmetExpectations: SQL {
        """
        SELECT count(*) FROM domains d JOIN checks c ON c.id = d.last_check_id
        WHERE d.last_verdict = 'fail' AND c.verdict IN ('pass', 'warn')
        """
    }

    /// Every check ever made, by verdict: changed checks and unchanged repeats alike (the counters
    /// every check adds to in its domain's row, plus those of deleted domains, so the counter never
    /// goes down).
    static var checksByVerdict: SQL {
        """
        WITH living AS (
          SELECT coalesce(sum(checks_passed), 0) AS passed, coalesce(sum(checks_warned), 0) AS warned,
                 coalesce(sum(checks_failed), 0) AS failed FROM domains
        ), counted AS (
          SELECT 'pass' AS v, (l.passed + r.checks_passed)::bigint AS n FROM living l, retired_check_counts r
          UNION ALL SELECT 'warn', (l.warned + r.checks_warned)::bigint FROM living l, retired_check_counts r
          UNION ALL SELECT 'fail', (l.failed + r.checks_failed)::bigint FROM living l, retired_check_counts r
        )
        SELECT v, n FROM counted WHERE n > 0
        """
    }

    /// The last 24 hours' checks, changed and unchanged, in one pass: per bucket index (how many of
    /// the ascending bounds $1 are below the latency, so index i holds the latencies <= bound i and
    /// above the one before) their count and sum. The repeats come through the BRIN index on time.
    static var latencyHistogram: SQL {
        """
        WITH recent AS (
          SELECT latency_ms FROM checks WHERE started_at > now() - interval '24 hours' AND latency_ms IS NOT NULL
          UNION ALL
          SELECT latency_ms FROM check_repeats WHERE checked_at > now() - interval '24 hours'
        )
        SELECT width_bucket(latency_ms - 1, $1::int[]) AS k, count(*) AS n, coalesce(sum(latency_ms), 0)::bigint AS s
        FROM recent GROUP BY 1
        """
    }
}
