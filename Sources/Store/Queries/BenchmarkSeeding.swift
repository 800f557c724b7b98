import Foundation

extension Queryable {
    /// Fills an empty database with `domains` domains and, for the first `withHistory` of them, a
    /// check every `intervalMinutes` over `days` days, in a few set-based statements (the benchmark
    /// and the screenshots need a realistic size; row-by-row inserts would take minutes).
    public func seedBenchmarkData(domains: Int, withHistory: Int, days: Int, intervalMinutes: Int, body: [UInt8],
                                  otherBody: [UInt8], findingsJSON: String, transportJSON: String) throws {
        try execute("""
            INSERT INTO domains (host, display_name, interval_seconds, next_check_at, last_verdict, last_checked_at, last_changed_at)
            SELECT 'site' || g || '.example', 'site' || g || '.example', 3600, now() + interval '1 hour',
              CASE WHEN g % 17 = 0 THEN 'fail' WHEN g % 5 = 0 THEN 'warn' ELSE 'pass' END,
              now() - (g % 60) * interval '1 minute', now() - (g % 90) * interval '1 day'
            FROM generate_series(1, $1) g
            """, domains)
        let a = ContentDigest.sha256Hex(body), b = ContentDigest.sha256Hex(otherBody)
        try execute("INSERT INTO aasa_versions (sha256, body, size) VALUES ($1, $2, $3), ($4, $5, $6) ON CONFLICT DO NOTHING",
                    a, body, body.count, b, otherBody, otherBody.count)
        try execute("""
            INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, origin_version_id, transport, findings,
                                changed, latency_ms)
            SELECT d.id, 'seed-' || t.n, now() - t.n * make_interval(mins => $3), now() - t.n * make_interval(mins => $3),
              d.last_verdict,
              (SELECT id FROM aasa_versions WHERE sha256 = CASE WHEN t.n > 2000 THEN $5 ELSE $4 END),
              $6::jsonb, CASE WHEN d.last_verdict = 'pass' THEN '[]'::jsonb ELSE $7::jsonb END,
              t.n % 500 = 0 OR t.n = 2000 OR t.n = ($2 * 1440 / $3)::int, 40 + ((d.id * 7 + t.n * 13) % 160)
            FROM (SELECT id, last_verdict FROM domains ORDER BY id LIMIT $1) d,
                 generate_series(0, ($2 * 1440 / $3)::int) AS t(n)
            """, withHistory, days, intervalMinutes, a, b, transportJSON, findingsJSON)
        try execute("""
            UPDATE domains d SET last_check_id = c.id,
              last_reason = (SELECT f->>'message' FROM jsonb_array_elements(c.findings) f
                             ORDER BY CASE f->>'severity' WHEN 'error' THEN 0 WHEN 'warning' THEN 1 WHEN 'deprecation' THEN 2 ELSE 3 END
                             LIMIT 1)
            FROM (SELECT DISTINCT ON (domain_id) domain_id, id, findings FROM checks ORDER BY domain_id, started_at DESC) c
            WHERE c.domain_id = d.id
            """)
        try execute("ANALYZE")
    }
}
