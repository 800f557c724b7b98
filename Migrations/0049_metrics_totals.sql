-- /metrics at a million domains (issue #17): its two aggregates that still read every domain are kept
-- as totals, changed in the statement that changes what they count, as domain_counts (0039) is.
--
-- Measured with Benchmarks/scale-bench.sh at 1,000,000 domains before this migration: /metrics took
-- 1,641 / 2,521 ms (p50 / p95): the sum of every domain_stats row's counters and histogram, and the
-- failing domains joined to their latest check with its findings unnested for the failing-codes gauge.

-- 1. Every check's counters: the sum of domain_stats plus retired_check_counts, kept in a few rows.
-- A single row would be updated by every check's transaction and hold them in line behind each
-- other's commit, so the writer's backend picks a row (its pid modulo the row count): one connection
-- runs one transaction at a time, and two connections share a row only when their pids collide.
-- /metrics adds the rows up.
CREATE TABLE check_counter_totals (
    shard integer PRIMARY KEY,
    checks_passed bigint NOT NULL DEFAULT 0,
    checks_warned bigint NOT NULL DEFAULT 0,
    checks_failed bigint NOT NULL DEFAULT 0,
    latency_buckets bigint[] NOT NULL DEFAULT array_fill(0::bigint, ARRAY[10]),
    latency_sum_ms bigint NOT NULL DEFAULT 0
) WITH (fillfactor = 50);

-- The sums of a set of domain_stats rows, the way /metrics adds them (counter by counter).
CREATE FUNCTION aasa_add_check_counters(passed bigint, warned bigint, failed bigint, buckets bigint[], latency_sum bigint)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO check_counter_totals AS t (shard, checks_passed, checks_warned, checks_failed, latency_buckets, latency_sum_ms)
    SELECT pg_backend_pid() % 32, passed, warned, failed, buckets, latency_sum
    WHERE passed <> 0 OR warned <> 0 OR failed <> 0 OR latency_sum <> 0 OR buckets <> array_fill(0::bigint, ARRAY[10])
    ON CONFLICT (shard) DO UPDATE SET
        checks_passed = t.checks_passed + EXCLUDED.checks_passed,
        checks_warned = t.checks_warned + EXCLUDED.checks_warned,
        checks_failed = t.checks_failed + EXCLUDED.checks_failed,
        latency_buckets = ARRAY(SELECT t.latency_buckets[i] + EXCLUDED.latency_buckets[i] FROM generate_series(1, 10) i ORDER BY i),
        latency_sum_ms = t.latency_sum_ms + EXCLUDED.latency_sum_ms;
$$;

-- An update (every check: one statement for a batch of repeats) adds what it changed, new minus old;
-- an insert what it starts with (0 unless a seed writes counters). A delete changes no total: the
-- deleted rows' counts move to retired_check_counts (0012), which the totals already include.
CREATE FUNCTION aasa_total_check_counters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Dynamic only for the old rows: an insert's trigger has none, and a statement naming them would not plan.
    EXECUTE format($sql$
        SELECT aasa_add_check_counters(sum(sign * checks_passed)::bigint, sum(sign * checks_warned)::bigint,
            sum(sign * checks_failed)::bigint,
            ARRAY[sum(sign * latency_buckets[1]), sum(sign * latency_buckets[2]), sum(sign * latency_buckets[3]),
                  sum(sign * latency_buckets[4]), sum(sign * latency_buckets[5]), sum(sign * latency_buckets[6]),
                  sum(sign * latency_buckets[7]), sum(sign * latency_buckets[8]), sum(sign * latency_buckets[9]),
                  sum(sign * latency_buckets[10])]::bigint[],
            sum(sign * latency_sum_ms)::bigint)
        FROM (SELECT 1 AS sign, checks_passed, checks_warned, checks_failed, latency_buckets, latency_sum_ms FROM new_stats
              %s) s
        HAVING count(*) > 0
        $sql$,
        CASE WHEN TG_OP = 'UPDATE' THEN
            'UNION ALL SELECT -1, checks_passed, checks_warned, checks_failed, latency_buckets, latency_sum_ms FROM old_stats' ELSE '' END);
    RETURN NULL;
END $$;
CREATE TRIGGER domain_stats_total_update AFTER UPDATE ON domain_stats REFERENCING OLD TABLE AS old_stats NEW TABLE AS new_stats
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_total_check_counters();
CREATE TRIGGER domain_stats_total_insert AFTER INSERT ON domain_stats REFERENCING NEW TABLE AS new_stats
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_total_check_counters();

-- TRUNCATE moves nothing to retired_check_counts: what remains counted is what was retired.
CREATE FUNCTION aasa_reset_check_counter_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM check_counter_totals;
    INSERT INTO check_counter_totals (shard, checks_passed, checks_warned, checks_failed, latency_buckets, latency_sum_ms)
    SELECT 0, checks_passed, checks_warned, checks_failed, latency_buckets, latency_sum_ms FROM retired_check_counts;
    RETURN NULL;
END $$;
CREATE TRIGGER domain_stats_total_truncate AFTER TRUNCATE ON domain_stats
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_reset_check_counter_totals();

INSERT INTO check_counter_totals (shard, checks_passed, checks_warned, checks_failed, latency_buckets, latency_sum_ms)
SELECT 0, l.passed + r.checks_passed, l.warned + r.checks_warned, l.failed + r.checks_failed,
       ARRAY(SELECT coalesce(l.buckets[i], 0) + r.latency_buckets[i] FROM generate_series(1, 10) i ORDER BY i),
       l.latency_sum + r.latency_sum_ms
FROM (SELECT coalesce(sum(checks_passed), 0)::bigint AS passed, coalesce(sum(checks_warned), 0)::bigint AS warned,
             coalesce(sum(checks_failed), 0)::bigint AS failed, coalesce(sum(latency_sum_ms), 0)::bigint AS latency_sum,
             ARRAY[sum(latency_buckets[1]), sum(latency_buckets[2]), sum(latency_buckets[3]), sum(latency_buckets[4]),
                   sum(latency_buckets[5]), sum(latency_buckets[6]), sum(latency_buckets[7]), sum(latency_buckets[8]),
                   sum(latency_buckets[9]), sum(latency_buckets[10])]::bigint[] AS buckets
      FROM domain_stats) l, retired_check_counts r;

-- 2. The failing-codes gauge: how many failing domains' latest check has an error finding of each
-- code. The latest check's distinct error codes are copied onto the domain row when last_check_id
-- moves (NULL when there are none, so a passing domain's row does not grow), by the trigger that
-- copies its verdicts (0039): a deleted domain's checks are gone by the time a statement's trigger
-- runs, so the codes must be on the row the delete removes.
ALTER TABLE domains ADD COLUMN last_error_codes text[];

CREATE OR REPLACE FUNCTION aasa_domain_latest_verdicts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT c.verdict,
           CASE WHEN c.android IS NOT NULL AND ((c.android->>'serves')::boolean OR jsonb_array_length(c.android->'identities') > 0)
                THEN c.android->>'verdict' END,
           (SELECT array_agg(DISTINCT f->>'code' ORDER BY f->>'code') FROM jsonb_array_elements(c.findings) f
             WHERE f->>'severity' = 'error')
      INTO NEW.last_file_verdict, NEW.last_android_verdict, NEW.last_error_codes
      FROM checks c WHERE c.id = NEW.last_check_id;
    IF NOT FOUND THEN
        NEW.last_file_verdict := NULL;
        NEW.last_android_verdict := NULL;
        NEW.last_error_codes := NULL;
    END IF;
    RETURN NEW;
END $$;

UPDATE domains d SET last_error_codes = e.codes
FROM (SELECT c.id, array_agg(DISTINCT f->>'code' ORDER BY f->>'code') AS codes
      FROM checks c JOIN domains x ON x.last_check_id = c.id, jsonb_array_elements(c.findings) f
      WHERE f->>'severity' = 'error' GROUP BY c.id) e
WHERE e.id = d.last_check_id;

CREATE TABLE failing_code_counts (
    code text PRIMARY KEY,
    n bigint NOT NULL
);
INSERT INTO failing_code_counts
SELECT code, count(*) FROM domains, unnest(last_error_codes) code WHERE last_verdict = 'fail' GROUP BY 1;

-- Per statement, from the transition tables: each failing domain's codes leave with its old row and
-- come back with its new one, so a statement that changes neither the verdict nor the latest check
-- (a batch of repeats) sums to nothing and writes nothing. In key order, as domain_counts.
CREATE FUNCTION aasa_count_failing_codes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO failing_code_counts AS k
        SELECT code, count(*) FROM new_domains, unnest(last_error_codes) code WHERE last_verdict = 'fail' GROUP BY 1 ORDER BY 1
        ON CONFLICT (code) DO UPDATE SET n = k.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE failing_code_counts k SET n = k.n - g.n
        FROM (SELECT code, count(*) AS n FROM old_domains, unnest(last_error_codes) code WHERE last_verdict = 'fail' GROUP BY 1) g
        WHERE k.code = g.code;
    ELSE
        INSERT INTO failing_code_counts AS k
        SELECT code, sum(delta) FROM (
            SELECT code, -1 AS delta FROM old_domains, unnest(last_error_codes) code WHERE last_verdict = 'fail'
            UNION ALL
            SELECT code, 1 FROM new_domains, unnest(last_error_codes) code WHERE last_verdict = 'fail'
        ) moved
        GROUP BY 1 HAVING sum(delta) <> 0 ORDER BY 1
        ON CONFLICT (code) DO UPDATE SET n = k.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER domains_failing_codes_insert AFTER INSERT ON domains REFERENCING NEW TABLE AS new_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_failing_codes();
CREATE TRIGGER domains_failing_codes_delete AFTER DELETE ON domains REFERENCING OLD TABLE AS old_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_failing_codes();
CREATE TRIGGER domains_failing_codes_update AFTER UPDATE ON domains REFERENCING OLD TABLE AS old_domains NEW TABLE AS new_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_failing_codes();

CREATE FUNCTION aasa_clear_failing_code_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM failing_code_counts;
    RETURN NULL;
END $$;
CREATE TRIGGER domains_failing_codes_truncate AFTER TRUNCATE ON domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_clear_failing_code_counts();
