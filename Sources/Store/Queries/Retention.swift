import Foundation

extension Database {
    /// Folds unchanged repeats older than `age` into one row per domain and day (count, first and
    /// last time, latency min/avg/max) and deletes them; checks that changed something are kept
    /// forever. Returns how many repeats were folded. Idempotent: a day rolled up twice adds up.
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
                 min(latency_ms) AS lo, sum(latency_ms) AS total, max(latency_ms) AS hi
          FROM gone GROUP BY 1, 2
        ), merged AS (
          INSERT INTO check_rollups AS r (domain_id, day, repeat_count, first_at, last_at,
                                          latency_min_ms, latency_avg_ms, latency_max_ms)
          SELECT domain_id, day, n, first_at, last_at, lo, (total / n)::int, hi FROM grouped
          ON CONFLICT (domain_id, day) DO UPDATE SET
            latency_avg_ms = ((r.latency_avg_ms::bigint * r.repeat_count + EXCLUDED.latency_avg_ms::bigint * EXCLUDED.repeat_count)
                              / (r.repeat_count + EXCLUDED.repeat_count))::int,
            repeat_count = r.repeat_count + EXCLUDED.repeat_count,
            first_at = LEAST(r.first_at, EXCLUDED.first_at),
            last_at = GREATEST(r.last_at, EXCLUDED.last_at),
            latency_min_ms = LEAST(r.latency_min_ms, EXCLUDED.latency_min_ms),
            latency_max_ms = GREATEST(r.latency_max_ms, EXCLUDED.latency_max_ms)
        )
        -- A data-modifying WITH runs to completion whether or not it is read.
        SELECT COALESCE(sum(n), 0)::bigint FROM grouped
        """
    }
}
