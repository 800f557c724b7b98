import Foundation

extension Database {
    /// Folds unchanged repeats older than `age` into `check_rollups`: one row per domain, UTC day and
    /// the changed check they repeated (count, first and last time, latency min/max/sum/p95), merged
    /// into the row an earlier run of the same day wrote, and deletes them. Checks that changed
    /// something stay forever. Returns how many repeats were folded.
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
        ), attributed AS (
          SELECT g.domain_id, (g.checked_at AT TIME ZONE 'UTC')::date AS day, c.id AS check_id, g.checked_at, g.latency_ms
          FROM gone g
          -- The changed check each repeat repeated: the last one before it.
          LEFT JOIN LATERAL (
            SELECT id FROM checks WHERE domain_id = g.domain_id AND started_at <= g.checked_at
            ORDER BY started_at DESC LIMIT 1
          ) c ON true
        ), grouped AS (
          SELECT domain_id, day, check_id, count(*) AS n, min(checked_at) AS first_at, max(checked_at) AS last_at,
                 min(latency_ms) AS lo, max(latency_ms) AS hi, sum(latency_ms) AS total,
                 percentile_disc(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95
          FROM attributed GROUP BY 1, 2, 3
        ), merged AS (
          INSERT INTO check_rollups AS r (domain_id, repeated_check_id, first_check_at, last_check_at, latency_sum_ms, day,
                                          check_count, latency_min_ms, latency_max_ms, latency_p95_ms)
          SELECT domain_id, check_id, first_at, last_at, total, day, n, lo, hi, p95 FROM grouped
          ON CONFLICT (domain_id, day, coalesce(repeated_check_id, 0)) DO UPDATE SET
            first_check_at = least(r.first_check_at, EXCLUDED.first_check_at),
            last_check_at = greatest(r.last_check_at, EXCLUDED.last_check_at),
            latency_sum_ms = r.latency_sum_ms + EXCLUDED.latency_sum_ms,
            check_count = r.check_count + EXCLUDED.check_count,
            latency_min_ms = least(r.latency_min_ms, EXCLUDED.latency_min_ms),
            latency_max_ms = greatest(r.latency_max_ms, EXCLUDED.latency_max_ms),
            latency_p95_ms = greatest(r.latency_p95_ms, EXCLUDED.latency_p95_ms)
        )
        -- A data-modifying WITH runs to completion whether or not it is read.
        SELECT COALESCE(sum(n), 0)::bigint FROM grouped
        """
    }
}
