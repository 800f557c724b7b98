-- What every check adds to, in a table of its own: the per-verdict check counters (0010, until now
-- on the domain row), the latency histogram /metrics exports, and the overview sparkline's latest
-- 20 response times.
--
-- Why not on the domain row: every check rewrites that row anyway, and because the check moves
-- next_check_at, which is indexed, the rewrite is never HOT: each check leaves a dead copy of the
-- whole row and new index entries behind until VACUUM. Wider domain rows made every unchanged check
-- cost ~10 more bytes (measured). This table has no index but its key, so its updates are HOT and
-- reuse their page (fillfactor 50); its arrays are fixed-width from the start, so no check widens a row.
CREATE TABLE domain_stats (
    domain_id bigint PRIMARY KEY REFERENCES domains (id) ON DELETE CASCADE,
    checks_passed bigint NOT NULL DEFAULT 0,
    checks_warned bigint NOT NULL DEFAULT 0,
    checks_failed bigint NOT NULL DEFAULT 0,
    -- Counter i holds the checks whose origin fetch took <= aasa_latency_bounds()[i] ms (and more than
    -- the bound before); 9: above the last bound; 10: checks that measured no time.
    latency_buckets bigint[] NOT NULL DEFAULT array_fill(0::bigint, ARRAY[10]),
    latency_sum_ms bigint NOT NULL DEFAULT 0,
    -- Newest first, ms up to 32,767; -1 a check that measured no time, -2 no check yet.
    recent_latencies smallint[] NOT NULL DEFAULT array_fill(-2::smallint, ARRAY[20])
) WITH (fillfactor = 50);

-- The histogram's bounds live here, once: the writers and /metrics read them from these functions.
CREATE FUNCTION aasa_latency_bounds() RETURNS integer[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT ARRAY[50, 100, 250, 500, 1000, 2500, 5000, 10000] $$;

CREATE FUNCTION aasa_latency_bucket(ms integer) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT coalesce(width_bucket(ms - 1, aasa_latency_bounds()) + 1, 10) $$;

-- Every domain has its row, however it was inserted (the web, import, benchmarks, tests).
CREATE FUNCTION aasa_create_domain_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO domain_stats (domain_id) SELECT id FROM new_domains;
    RETURN NULL;
END $$;
CREATE TRIGGER domains_create_stats AFTER INSERT ON domains REFERENCING NEW TABLE AS new_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_create_domain_stats();

-- /metrics' counters must never go down (Prometheus reads a decrease as a restart, and rate()
-- turns it into a spike): a deleted domain's counts move here in the statement that deletes it.
CREATE TABLE retired_check_counts (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    checks_passed bigint NOT NULL DEFAULT 0,
    checks_warned bigint NOT NULL DEFAULT 0,
    checks_failed bigint NOT NULL DEFAULT 0,
    latency_buckets bigint[] NOT NULL DEFAULT array_fill(0::bigint, ARRAY[10]),
    latency_sum_ms bigint NOT NULL DEFAULT 0
);
INSERT INTO retired_check_counts DEFAULT VALUES;

CREATE FUNCTION aasa_retire_check_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE retired_check_counts r SET
        checks_passed = r.checks_passed + g.passed,
        checks_warned = r.checks_warned + g.warned,
        checks_failed = r.checks_failed + g.failed,
        latency_buckets = ARRAY(SELECT r.latency_buckets[i] + coalesce(g.buckets[i], 0) FROM generate_series(1, 10) i ORDER BY i),
        latency_sum_ms = r.latency_sum_ms + g.latency_sum
    FROM (SELECT coalesce(sum(checks_passed), 0) AS passed, coalesce(sum(checks_warned), 0) AS warned,
                 coalesce(sum(checks_failed), 0) AS failed, coalesce(sum(latency_sum_ms), 0) AS latency_sum,
                 ARRAY(SELECT coalesce(sum(s.latency_buckets[i]), 0)::bigint FROM deleted_stats s, generate_series(1, 10) i
                       GROUP BY i ORDER BY i) AS buckets
          FROM deleted_stats) g;
    RETURN NULL;
END $$;
CREATE TRIGGER domain_stats_retire AFTER DELETE ON domain_stats REFERENCING OLD TABLE AS deleted_stats
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_retire_check_counts();

-- Recounts every domain's counters, histogram and sparkline from the stored history: changed
-- checks and repeats exactly (a repeat has its preceding changed check's verdict), a roll-up's
-- checks by their mean. For this migration and for data seeded in bulk (benchmarks).
CREATE FUNCTION aasa_recount_domain_stats() RETURNS void LANGUAGE sql AS $$
WITH changed AS (
  SELECT id, domain_id, verdict, started_at, latency_ms,
         lead(started_at, 1, 'infinity') OVER (PARTITION BY domain_id ORDER BY started_at) AS next_at
  FROM checks
), every_check AS (
  SELECT domain_id, verdict, latency_ms, 1 AS n, latency_ms AS total FROM changed
  UNION ALL
  SELECT r.domain_id, c.verdict, r.latency_ms, 1, r.latency_ms FROM check_repeats r
  JOIN changed c ON c.domain_id = r.domain_id AND r.checked_at >= c.started_at AND r.checked_at < c.next_at
  UNION ALL
  SELECT u.domain_id, c.verdict, (u.latency_sum_ms / u.check_count)::integer, u.check_count, u.latency_sum_ms
  FROM check_rollups u LEFT JOIN checks c ON c.id = u.repeated_check_id
), per_bucket AS (
  SELECT domain_id, aasa_latency_bucket(latency_ms) AS b, sum(n) AS n, coalesce(sum(total), 0) AS total,
         sum(n) FILTER (WHERE verdict = 'pass') AS passed, sum(n) FILTER (WHERE verdict = 'warn') AS warned,
         sum(n) FILTER (WHERE verdict = 'fail') AS failed
  FROM every_check GROUP BY 1, 2
), counted AS (
  SELECT ids.domain_id, array_agg(coalesce(p.n, 0)::bigint ORDER BY k.i) AS buckets,
         coalesce(sum(p.total) FILTER (WHERE k.i < 10), 0) AS total,
         coalesce(sum(p.passed), 0) AS passed, coalesce(sum(p.warned), 0) AS warned, coalesce(sum(p.failed), 0) AS failed
  FROM (SELECT DISTINCT domain_id FROM per_bucket) ids CROSS JOIN generate_series(1, 10) AS k(i)
  LEFT JOIN per_bucket p ON p.domain_id = ids.domain_id AND p.b = k.i
  GROUP BY ids.domain_id
)
UPDATE domain_stats s SET latency_buckets = c.buckets, latency_sum_ms = c.total,
  checks_passed = c.passed, checks_warned = c.warned, checks_failed = c.failed,
  recent_latencies = (ARRAY(
    SELECT least(l, 32767)::smallint FROM (
      (SELECT c.started_at AS t, coalesce(c.latency_ms, -1) AS l FROM checks c WHERE c.domain_id = s.domain_id
         ORDER BY c.started_at DESC LIMIT 20)
      UNION ALL
      (SELECT r.checked_at, r.latency_ms FROM check_repeats r WHERE r.domain_id = s.domain_id ORDER BY r.checked_at DESC LIMIT 20)
      UNION ALL
      (SELECT u.last_check_at, (u.latency_sum_ms / u.check_count)::int FROM check_rollups u WHERE u.domain_id = s.domain_id
         ORDER BY u.day DESC LIMIT 20)
    ) latest ORDER BY t DESC LIMIT 20) || array_fill(-2::smallint, ARRAY[20]))[1:20]
FROM counted c WHERE c.domain_id = s.domain_id;
$$;

-- The domains registered so far: their rows, counted from their history (the counters 0010 kept on
-- the domain row were counted from the same history, check by check, so they go).
INSERT INTO domain_stats (domain_id) SELECT id FROM domains;
ALTER TABLE domains DROP COLUMN checks_passed, DROP COLUMN checks_warned, DROP COLUMN checks_failed;
SELECT aasa_recount_domain_stats();
