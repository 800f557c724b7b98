-- Unchanged checks cost fewer bytes (issue 5: ≤ 100 per unchanged check after roll-up).
--
-- check_repeats: the roll-up deletes by age, and repeats arrive in time order, so a BRIN index on
-- the time (a few pages however many rows) replaces the btree on (domain_id, checked_at), which
-- cost ~40 bytes per repeat and kept its pages after the roll-up had emptied the table.
DROP INDEX check_repeats_domain_time;
CREATE INDEX check_repeats_time ON check_repeats USING brin (checked_at);

-- check_rollups: one row per domain, UTC day and the changed check the repeats repeated (its
-- verdict and files are on that check), merged by later roll-ups of the same day. Before, every
-- hourly retention run added a row per domain, so with hourly checks nothing was rolled up at all.
-- No identity column and no second index; fixed-width columns widest first (no padding).
ALTER TABLE check_rollups RENAME TO check_rollups_before_0008;
CREATE TABLE check_rollups (
    domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    -- Informational, no foreign key: deleting a domain's checks must not scan this table per check
    -- (the domain's rows go by domain_id).
    repeated_check_id bigint,
    first_check_at timestamptz NOT NULL,
    last_check_at timestamptz NOT NULL,
    latency_sum_ms bigint NOT NULL,
    day date NOT NULL,
    check_count integer NOT NULL CHECK (check_count > 0),
    latency_min_ms integer NOT NULL,
    latency_max_ms integer NOT NULL,
    -- Exact within one roll-up run; merging runs keeps the larger one (an upper bound).
    latency_p95_ms integer NOT NULL
);
CREATE UNIQUE INDEX check_rollups_key ON check_rollups (domain_id, day, coalesce(repeated_check_id, 0));

INSERT INTO check_rollups (domain_id, repeated_check_id, first_check_at, last_check_at, latency_sum_ms, day,
                           check_count, latency_min_ms, latency_max_ms, latency_p95_ms)
SELECT r.domain_id, c.id, min(r.first_check_at), max(r.last_check_at), coalesce(sum(r.latency_sum_ms), 0),
       (r.first_check_at AT TIME ZONE 'UTC')::date, sum(r.check_count), coalesce(min(r.latency_min_ms), 0),
       coalesce(max(r.latency_max_ms), 0), coalesce(max(r.latency_p95_ms), 0)
FROM check_rollups_before_0008 r
LEFT JOIN LATERAL (
  SELECT id FROM checks WHERE domain_id = r.domain_id AND started_at <= r.first_check_at ORDER BY started_at DESC LIMIT 1
) c ON true
GROUP BY r.domain_id, c.id, (r.first_check_at AT TIME ZONE 'UTC')::date;

DROP TABLE check_rollups_before_0008;
