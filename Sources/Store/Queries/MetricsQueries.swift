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
        for r in try rows("SELECT coalesce(verdict, 'unfinished') AS v, count(*) AS n FROM checks GROUP BY 1") {
            m.checksByVerdict[try r.decode("v")] = try r.decode("n")
        }
        for r in try rows("""
            SELECT f->>'code' AS code, count(DISTINCT d.id) AS n FROM domains d JOIN checks c ON c.id = d.last_check_id,
              jsonb_array_elements(c.findings) f WHERE f->>'severity' = 'error' GROUP BY 1
            """) { m.failingByCode[try r.decode("code")] = try r.decode("n") }
        let stats = try rows("""
            SELECT b.le, count(c.latency_ms) FILTER (WHERE c.latency_ms <= b.le) AS n
            FROM unnest($1::int[]) AS b(le)
            LEFT JOIN checks c ON c.started_at > now() - interval '24 hours' AND c.latency_ms IS NOT NULL
            GROUP BY b.le ORDER BY b.le
            """, SQLArray(buckets))
        m.latencyBuckets = try stats.map { (try $0.decode("le"), try $0.decode("n")) }
        if let r = try firstRow("""
            SELECT coalesce(sum(latency_ms), 0) AS s, count(latency_ms) AS n FROM checks WHERE started_at > now() - interval '24 hours'
            """) {
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
}
