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
        let stats = try rows(Self.latencyHistogram, SQLArray(buckets))
        m.latencyBuckets = try stats.filter { try $0.decode("le", as: Int?.self) != nil }.map { (try $0.decode("le"), try $0.decode("n")) }
        if let r = try stats.first(where: { try $0.decode("le", as: Int?.self) == nil }) {
            m.latencySum = try r.decode("s")
            m.latencyCount = try r.decode("n")
        }
        m.queueDepth = try value("""
            SELECT count(*) FROM domains WHERE NOT paused AND (check_requested_at IS NOT NULL OR next_check_at <= now())
              AND (lease_until IS NULL OR lease_until < now())
            """)
        for r in try rows("SELECT state, count(*) AS n FROM deliveries GROUP BY 1") {
            m.deliveriesByState[try r.decode("state")] = try r.decode("n")
        }
        return m
    }

    /// Every check ever made, by verdict: changed checks and unchanged repeats alike (the counters
    /// every check adds to in its domain's row; a deleted domain's checks leave the total).
    static var checksByVerdict: SQL {
        """
        SELECT v, n FROM (
          SELECT 'pass' AS v, coalesce(sum(checks_passed), 0)::bigint AS n FROM domains
          UNION ALL SELECT 'warn', coalesce(sum(checks_warned), 0)::bigint FROM domains
          UNION ALL SELECT 'fail', coalesce(sum(checks_failed), 0)::bigint FROM domains
        ) counted WHERE n > 0
        """
    }

    /// The last 24 hours' checks, changed and unchanged: a cumulative count per bucket bound, and a
    /// last row (le NULL) with the sum and count of all of them.
    static var latencyHistogram: SQL {
        """
        WITH recent AS (
          SELECT latency_ms FROM checks WHERE started_at > now() - interval '24 hours' AND latency_ms IS NOT NULL
          UNION ALL
          SELECT latency_ms FROM check_repeats WHERE checked_at > now() - interval '24 hours'
        )
        SELECT b.le, (SELECT count(*) FROM recent WHERE latency_ms <= b.le) AS n, 0::bigint AS s
        FROM unnest($1::int[]) AS b(le)
        UNION ALL
        SELECT NULL, count(*), coalesce(sum(latency_ms), 0)::bigint FROM recent
        ORDER BY 1 NULLS LAST
        """
    }
}
