import Foundation

extension Database {
    /// Folds unchanged repeats older than `age` into `check_rollups`, one row per domain and UTC day
    /// (count, first and last time, latency min/max/sum/p95, and the verdict and version they
    /// repeated), and deletes them. Checks that changed something stay forever. Returns how many
    /// repeats were folded.
    @discardableResult
    public func rollUpRepeats(olderThan age: Duration, now: Date = Date()) throws -> Int {
        let cutoff = now.addingTimeInterval(-Double(age.components.seconds))
        return try withTransaction { connection in
            try connection.value(Self.rollUp, cutoff)
        }
    }

    static var rollUp: SQL {
        """
        WITH gone AS (
          DELETE FROM check_repeats WHERE checked_at < $1
          RETURNING domain_id, checked_at, latency_ms
        ), grouped AS (
          SELECT domain_id, (checked_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n,
                 min(checked_at) AS first_at, max(checked_at) AS last_at,
                 min(latency_ms) AS lo, max(latency_ms) AS hi, sum(latency_ms) AS total,
                 percentile_disc(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95
          FROM gone GROUP BY 1, 2
        ), inserted AS (
          INSERT INTO check_rollups (domain_id, first_check_at, last_check_at, check_count, verdict,
                                     origin_version_id, cdn_version_id, latency_min_ms, latency_max_ms, latency_sum_ms, latency_p95_ms)
          SELECT g.domain_id, g.first_at, g.last_at, g.n, c.verdict, c.origin_version_id, c.cdn_version_id, g.lo, g.hi, g.total, g.p95
          FROM grouped g
          -- The changed check the repeats repeated: the last one before them.
          LEFT JOIN LATERAL (
            SELECT verdict, origin_version_id, cdn_version_id FROM checks
            WHERE domain_id = g.domain_id AND started_at <= g.first_at ORDER BY started_at DESC LIMIT 1
          ) c ON true
        )
        -- A data-modifying WITH runs to completion whether or not it is read.
        SELECT COALESCE(sum(n), 0)::bigint FROM grouped
        """
    }
}
