-- Fewer bytes per domain-month (issue #17: the database after 30 days of hourly checks at 1,000,000
-- domains, goal 20 GB). Measured with `ScaleBench seed 10000 --history-domains 10000` (30 days of
-- hourly checks for every domain, rolled up by the retention job's own statement) and `ScaleBench
-- sizes` before this migration: 251 MB for 10,000 domains; per domain check_repeats 9.8 KB (165 rows,
-- 52 B of heap + 7 B of index each), checks 8.6 KB (5 rows, of which 2.4 KB in five indexes),
-- check_rollups 3.4 KB (25 rows, 93 B of heap + 41 B of index each).

-- checks: (domain_id, started_at DESC) twice — once whole, once WHERE changed — beside
-- checks_domain_chart (domain_id, started_at) INCLUDE (id, latency_ms), which a backward scan reads in
-- the same order. Every checks row is a changed check since 0005 (repeats have their own table), so
-- the partial index held every row too. 89 bytes per changed check.
DROP INDEX checks_domain_time;
DROP INDEX checks_domain_changes;

-- check_repeats and check_rollups: the domain's id as an integer (two billion domains) and the
-- columns widest first, so no padding: a repeat's tuple is 40 bytes instead of 48 (its heap row
-- 44 with the line pointer, was 52), a roll-up's 80 instead of 88 and its key's index entry 24
-- instead of 32. A table cannot change its column order in place, so each is copied once, in time
-- order (the BRIN index on the repeats' time stays tight).
CREATE TABLE check_repeats_narrow (
    checked_at timestamptz NOT NULL,
    domain_id integer NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    latency_ms integer NOT NULL
);
INSERT INTO check_repeats_narrow (checked_at, domain_id, latency_ms)
SELECT checked_at, domain_id, latency_ms FROM check_repeats ORDER BY checked_at;
DROP TABLE check_repeats;
ALTER TABLE check_repeats_narrow RENAME TO check_repeats;
ALTER TABLE check_repeats RENAME CONSTRAINT check_repeats_narrow_domain_id_fkey TO check_repeats_domain_id_fkey;
CREATE INDEX check_repeats_time ON check_repeats USING brin (checked_at);
CREATE INDEX check_repeats_domain ON check_repeats (domain_id);

CREATE TABLE check_rollups_narrow (
    first_check_at timestamptz NOT NULL,
    last_check_at timestamptz NOT NULL,
    -- Informational, no foreign key: deleting a domain's checks must not scan this table per check
    -- (the domain's rows go by domain_id).
    repeated_check_id bigint,
    latency_sum_ms bigint NOT NULL,
    domain_id integer NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    day date NOT NULL,
    check_count integer NOT NULL CHECK (check_count > 0),
    latency_min_ms integer NOT NULL,
    latency_max_ms integer NOT NULL,
    -- Exact within one roll-up run; merging runs keeps the larger one (an upper bound).
    latency_p95_ms integer NOT NULL
);
INSERT INTO check_rollups_narrow (first_check_at, last_check_at, repeated_check_id, latency_sum_ms, domain_id, day, check_count,
                                  latency_min_ms, latency_max_ms, latency_p95_ms)
SELECT first_check_at, last_check_at, repeated_check_id, latency_sum_ms, domain_id, day, check_count,
       latency_min_ms, latency_max_ms, latency_p95_ms
FROM check_rollups ORDER BY day, domain_id;
DROP TABLE check_rollups;
ALTER TABLE check_rollups_narrow RENAME TO check_rollups;
ALTER TABLE check_rollups RENAME CONSTRAINT check_rollups_narrow_domain_id_fkey TO check_rollups_domain_id_fkey;
ALTER TABLE check_rollups RENAME CONSTRAINT check_rollups_narrow_check_count_check TO check_rollups_check_count_check;
CREATE UNIQUE INDEX check_rollups_key ON check_rollups (domain_id, day, coalesce(repeated_check_id, 0));
