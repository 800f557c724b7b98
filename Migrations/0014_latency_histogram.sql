-- /metrics' latency histogram as Prometheus means one: cumulative counters that only go up, so
-- rate() and histogram_quantile() over any window work. It was a count of the last 24 hours'
-- checks, which goes down as checks age out (meaningless to rate()) and read every check of a day
-- at each scrape. Like the per-verdict counters (0010), every check adds to its domain's row in the
-- update it makes anyway, and a deleted domain's counts move to retired_check_counts (0012).

-- The bucket bounds live here, once: the writers and /metrics read them from these functions.
CREATE FUNCTION aasa_latency_bounds() RETURNS integer[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ARRAY[50, 100, 250, 500, 1000, 2500, 5000, 10000];

-- The counter a latency adds to: 1 for <= 50 ms ... 8 for <= 10 s, 9 above; 10 for a check that
-- measured no time (not part of the histogram; a subscript cannot be NULL).
CREATE FUNCTION aasa_latency_bucket(ms integer) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN coalesce(width_bucket(ms - 1, aasa_latency_bounds()) + 1, 10);

-- Fixed width from the start, as recent_latencies (0013): checks never widen the row.
ALTER TABLE domains
    ADD COLUMN latency_buckets bigint[] NOT NULL DEFAULT array_fill(0::bigint, ARRAY[10]),
    ADD COLUMN latency_sum_ms bigint NOT NULL DEFAULT 0;
ALTER TABLE retired_check_counts
    ADD COLUMN latency_buckets bigint[] NOT NULL DEFAULT array_fill(0::bigint, ARRAY[10]),
    ADD COLUMN latency_sum_ms bigint NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION aasa_retire_check_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE retired_check_counts r SET
        checks_passed = r.checks_passed + g.passed,
        checks_warned = r.checks_warned + g.warned,
        checks_failed = r.checks_failed + g.failed,
        latency_buckets = ARRAY(SELECT r.latency_buckets[i] + coalesce(g.buckets[i], 0) FROM generate_series(1, 10) i),
        latency_sum_ms = r.latency_sum_ms + g.latency_sum
    FROM (SELECT coalesce(sum(checks_passed), 0) AS passed, coalesce(sum(checks_warned), 0) AS warned,
                 coalesce(sum(checks_failed), 0) AS failed, coalesce(sum(latency_sum_ms), 0) AS latency_sum,
                 ARRAY(SELECT coalesce(sum(d.latency_buckets[i]), 0)::bigint FROM deleted_domains d, generate_series(1, 10) i
                       GROUP BY i ORDER BY i) AS buckets
          FROM deleted_domains) g;
    RETURN NULL;
END $$;

-- Recounts every domain's histogram from its history: changed checks and repeats exactly, a
-- roll-up's checks by their mean. For this migration and for data seeded in bulk (benchmarks).
CREATE FUNCTION aasa_recount_latency_histograms() RETURNS void LANGUAGE sql AS $$
WITH every_check AS (
  SELECT domain_id, latency_ms, 1 AS n, latency_ms AS total FROM checks
  UNION ALL
  SELECT domain_id, latency_ms, 1, latency_ms FROM check_repeats
  UNION ALL
  SELECT domain_id, (latency_sum_ms / check_count)::integer, check_count, latency_sum_ms FROM check_rollups WHERE check_count > 0
), per_bucket AS (
  SELECT domain_id, aasa_latency_bucket(latency_ms) AS b, sum(n) AS n, coalesce(sum(total), 0) AS total
  FROM every_check GROUP BY 1, 2
), counted AS (
  SELECT ids.domain_id, array_agg(coalesce(p.n, 0)::bigint ORDER BY k.i) AS buckets,
         coalesce(sum(p.total) FILTER (WHERE k.i < 10), 0) AS total
  FROM (SELECT DISTINCT domain_id FROM per_bucket) ids CROSS JOIN generate_series(1, 10) AS k(i)
  LEFT JOIN per_bucket p ON p.domain_id = ids.domain_id AND p.b = k.i
  GROUP BY ids.domain_id
)
UPDATE domains d SET latency_buckets = c.buckets, latency_sum_ms = c.total
FROM counted c WHERE c.domain_id = d.id;
$$;

SELECT aasa_recount_latency_histograms();
