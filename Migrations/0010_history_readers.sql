-- What the readers of a domain's history need now that most checks are repeats and roll-ups.

-- The domain page's chart and timeline and the overview's sparkline read ONE domain's repeats.
-- A btree on domain_id alone is deduplicated (posting lists, ~6 bytes per repeat once a page is
-- deduplicated), a fraction of the ~30 bytes of a (domain_id, checked_at) entry; the time
-- condition is then checked on the domain's few hundred rows.
CREATE INDEX check_repeats_domain ON check_repeats (domain_id);

-- /metrics counts every check by verdict. Counting repeats and roll-ups at every scrape would read
-- tables that grow with time, so each check adds one to its domain's counter in the update of the
-- domain row that every check makes anyway.
ALTER TABLE domains
    ADD COLUMN checks_passed bigint NOT NULL DEFAULT 0,
    ADD COLUMN checks_warned bigint NOT NULL DEFAULT 0,
    ADD COLUMN checks_failed bigint NOT NULL DEFAULT 0;

WITH every_check AS (
  SELECT domain_id, verdict, 1 AS n FROM checks
  UNION ALL
  SELECT r.domain_id, c.verdict, r.check_count FROM check_rollups r LEFT JOIN checks c ON c.id = r.repeated_check_id
  UNION ALL
  SELECT r.domain_id, c.verdict, 1 FROM check_repeats r
  LEFT JOIN LATERAL (
    SELECT verdict FROM checks WHERE domain_id = r.domain_id AND started_at <= r.checked_at ORDER BY started_at DESC LIMIT 1
  ) c ON true
), counted AS (
  SELECT domain_id, sum(n) FILTER (WHERE verdict = 'pass') AS passed, sum(n) FILTER (WHERE verdict = 'warn') AS warned,
         sum(n) FILTER (WHERE verdict = 'fail') AS failed
  FROM every_check GROUP BY domain_id
)
UPDATE domains d SET checks_passed = coalesce(c.passed, 0), checks_warned = coalesce(c.warned, 0),
                     checks_failed = coalesce(c.failed, 0)
FROM counted c WHERE c.domain_id = d.id;
