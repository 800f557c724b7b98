import Foundation

extension Database {
    /// Folds unchanged repeats older than `age` into `check_rollups`: one row per domain, UTC day and
    /// the changed check they repeated (count, first and last time, latency min/max/sum/p95), merged
    /// into the row an earlier run of the same day wrote, and deletes them — plain `check_repeats`
    /// rows and packed `check_repeat_days` entries alike. Checks that changed something stay
    /// forever. Returns how many repeats were folded.
    @discardableResult
    public func rollUpRepeats(olderThan age: Duration, now: Date = Date()) throws -> Int {
        let cutoff = now.addingTimeInterval(-Double(age.components.seconds))
        return try withTransaction { connection in
            try connection.value(Self.rollUp, cutoff)
        }
    }

    /// Packs every unchanged repeat before `cutoff` into its domain's `check_repeat_days` row for
    /// that UTC day (merged into a row an earlier run wrote) and returns how many it moved. The
    /// retention job passes the current day's midnight: today's repeats stay plain rows the pipeline
    /// appends one cheap INSERT at a time, and each earlier day is written once, as one row of two
    /// arrays instead of a 28-byte tuple header and line pointer per repeat (issue #17: 1,224 → about
    /// 390 bytes for a day of hourly repeats). The statement is migration 0056's `aasa_pack_repeats`,
    /// which converted the repeats stored before it.
    @discardableResult
    public func packRepeats(before cutoff: Date) throws -> Int {
        try value("SELECT aasa_pack_repeats($1)", cutoff)
    }

    static var rollUp: SQL {
        """
        WITH gone_rows AS (
          DELETE FROM check_repeats WHERE checked_at < $1
          RETURNING domain_id, checked_at, latency_ms
        ), gone_days AS (
          -- Packed days wholly before the cutoff's day go whole.
          DELETE FROM check_repeat_days WHERE day < ($1::timestamptz AT TIME ZONE 'UTC')::date
          RETURNING domain_id, checked_at, latency_ms
        ), split AS (
          -- The cutoff's own day, when the cutoff is not its midnight (the scheduler's always is, so
          -- its hourly runs skip this): each entry, and whether it goes.
          SELECT p.domain_id, p.day, e.checked_at, e.latency_ms, e.checked_at < $1 AS goes
          FROM check_repeat_days p CROSS JOIN LATERAL unnest(p.checked_at, p.latency_ms) AS e(checked_at, latency_ms)
          WHERE p.day = ($1::timestamptz AT TIME ZONE 'UTC')::date AND ($1::timestamptz AT TIME ZONE 'UTC')::time > '00:00'
        ), split_days AS (
          SELECT domain_id, day, bool_or(goes) AS some_go,
                 array_agg(checked_at ORDER BY checked_at) FILTER (WHERE NOT goes) AS kept_at,
                 array_agg(latency_ms ORDER BY checked_at) FILTER (WHERE NOT goes) AS kept_ms
          FROM split GROUP BY 1, 2
        ), trimmed AS (
          UPDATE check_repeat_days p SET checked_at = s.kept_at, latency_ms = s.kept_ms FROM split_days s
          WHERE p.domain_id = s.domain_id AND p.day = s.day AND s.some_go AND s.kept_at IS NOT NULL
        ), emptied AS (
          DELETE FROM check_repeat_days p USING split_days s
          WHERE p.domain_id = s.domain_id AND p.day = s.day AND s.kept_at IS NULL
        ), gone AS (
          SELECT domain_id, checked_at, latency_ms FROM gone_rows
          UNION ALL
          SELECT g.domain_id, e.checked_at, e.latency_ms
          FROM gone_days g CROSS JOIN LATERAL unnest(g.checked_at, g.latency_ms) AS e(checked_at, latency_ms)
          UNION ALL
          SELECT domain_id, checked_at, latency_ms FROM split WHERE goes
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
