-- The overview and /metrics at a million domains (issue #17): counts kept as domains change, rather
-- than counted per request, and an index in the overview's default order.
--
-- Measured with Benchmarks/scale-bench.sh at 100,000 domains before this migration: the state counts
-- every overview page shows were a scan of every domain (65 ms; 10x that at 1M), /metrics joined
-- every domain to its latest check (535 ms), and the Android filter read each domain's latest check.

-- The latest check's verdicts, kept on the domain row so that filters and counts need not read the
-- check: the Apple file's verdict (checks.verdict) and Android's where it counts (the site serves
-- assetlinks.json or an Android app is expected of it; else NULL). Set from the check by the trigger
-- below whenever last_check_id moves; checks are never updated, so they stay right. The expression is
-- AndroidResult.sqlIsWatched's (Store), which a test holds this copy to.
ALTER TABLE domains ADD COLUMN last_file_verdict text, ADD COLUMN last_android_verdict text;

CREATE FUNCTION aasa_domain_latest_verdicts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT c.verdict,
           CASE WHEN c.android IS NOT NULL AND ((c.android->>'serves')::boolean OR jsonb_array_length(c.android->'identities') > 0)
                THEN c.android->>'verdict' END
      INTO NEW.last_file_verdict, NEW.last_android_verdict
      FROM checks c WHERE c.id = NEW.last_check_id;
    IF NOT FOUND THEN
        NEW.last_file_verdict := NULL;
        NEW.last_android_verdict := NULL;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER domains_latest_verdicts_insert BEFORE INSERT ON domains FOR EACH ROW
    WHEN (NEW.last_check_id IS NOT NULL) EXECUTE FUNCTION aasa_domain_latest_verdicts();
-- Only when the latest check changes: an unchanged repeat writes the same last_check_id.
CREATE TRIGGER domains_latest_verdicts_update BEFORE UPDATE OF last_check_id ON domains FOR EACH ROW
    WHEN (OLD.last_check_id IS DISTINCT FROM NEW.last_check_id) EXECUTE FUNCTION aasa_domain_latest_verdicts();

UPDATE domains d SET last_file_verdict = c.verdict,
    last_android_verdict = CASE WHEN c.android IS NOT NULL AND ((c.android->>'serves')::boolean OR jsonb_array_length(c.android->'identities') > 0)
                                THEN c.android->>'verdict' END
FROM checks c WHERE c.id = d.last_check_id;

-- How many domains have each combination of what the overview and /metrics count by: the domain's
-- verdict ('' for never checked), the platform setting, and the latest check's two verdicts ('' for
-- none). At most a few hundred rows. Kept by the triggers below in the statement that changes a
-- domain, so a count can never disagree with the rows; the 'checking' state, which depends on the
-- clock (a lease running out), is counted at read time from the few domains being checked.
CREATE TABLE domain_counts (
    verdict text NOT NULL,
    platforms text NOT NULL,
    file_verdict text NOT NULL,
    android_verdict text NOT NULL,
    n bigint NOT NULL,
    PRIMARY KEY (verdict, platforms, file_verdict, android_verdict)
);

INSERT INTO domain_counts
SELECT coalesce(last_verdict, ''), platforms, coalesce(last_file_verdict, ''), coalesce(last_android_verdict, ''), count(*)
FROM domains GROUP BY 1, 2, 3, 4;

-- Inserts and deletes: one upsert per combination per statement (a bulk import is one statement).
CREATE FUNCTION aasa_count_domains() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO domain_counts AS k
        SELECT coalesce(last_verdict, ''), platforms, coalesce(last_file_verdict, ''), coalesce(last_android_verdict, ''), count(*)
        FROM changed_domains GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT (verdict, platforms, file_verdict, android_verdict) DO UPDATE SET n = k.n + EXCLUDED.n;
    ELSE
        UPDATE domain_counts k SET n = k.n - g.n
        FROM (SELECT coalesce(last_verdict, '') AS verdict, platforms, coalesce(last_file_verdict, '') AS file_verdict,
                     coalesce(last_android_verdict, '') AS android_verdict, count(*) AS n
              FROM changed_domains GROUP BY 1, 2, 3, 4) g
        WHERE (k.verdict, k.platforms, k.file_verdict, k.android_verdict) = (g.verdict, g.platforms, g.file_verdict, g.android_verdict);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER domains_count_insert AFTER INSERT ON domains REFERENCING NEW TABLE AS changed_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_domains();
CREATE TRIGGER domains_count_delete AFTER DELETE ON domains REFERENCING OLD TABLE AS changed_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_domains();

-- Updates: one upsert per combination per statement, from the rows whose counted columns changed (a
-- verdict change; the lease, the finish of an unchanged check and the repeats' batch change none).
-- Per statement, not per row: a statement changing many domains' verdicts would otherwise update one
-- counter row once per domain in one transaction, and each update walks the row's chain of versions
-- that transaction left (quadratic: a seed of 1,000,000 such rows had not finished after 27 minutes).
-- In key order, so two transactions moving domains between the same combinations cannot deadlock.
CREATE FUNCTION aasa_recount_domains() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO domain_counts AS k
    SELECT verdict, platforms, file_verdict, android_verdict, sum(delta)
    FROM (
        SELECT coalesce(o.last_verdict, '') AS verdict, o.platforms, coalesce(o.last_file_verdict, '') AS file_verdict,
               coalesce(o.last_android_verdict, '') AS android_verdict, -1 AS delta
        FROM old_domains o JOIN new_domains n ON n.id = o.id
        WHERE (o.last_verdict, o.platforms, o.last_file_verdict, o.last_android_verdict)
              IS DISTINCT FROM (n.last_verdict, n.platforms, n.last_file_verdict, n.last_android_verdict)
        UNION ALL
        SELECT coalesce(n.last_verdict, ''), n.platforms, coalesce(n.last_file_verdict, ''), coalesce(n.last_android_verdict, ''), 1
        FROM old_domains o JOIN new_domains n ON n.id = o.id
        WHERE (o.last_verdict, o.platforms, o.last_file_verdict, o.last_android_verdict)
              IS DISTINCT FROM (n.last_verdict, n.platforms, n.last_file_verdict, n.last_android_verdict)
    ) moved
    GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (verdict, platforms, file_verdict, android_verdict) DO UPDATE SET n = k.n + EXCLUDED.n;
    RETURN NULL;
END $$;
CREATE TRIGGER domains_count_update AFTER UPDATE ON domains REFERENCING OLD TABLE AS old_domains NEW TABLE AS new_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_recount_domains();

CREATE FUNCTION aasa_clear_domain_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM domain_counts;
    RETURN NULL;
END $$;
CREATE TRIGGER domains_count_truncate AFTER TRUNCATE ON domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_clear_domain_counts();

-- The overview's default order, worst first (DomainState.worstFirstRank of the verdict's state; the
-- few domains being checked are merged in at read time): page 1 and a state filter read the first
-- rows of this index instead of sorting every domain. The expression is DomainState.sqlVerdictRank's.
-- The included columns are the ones the walk reads (the expression's, the platform filter's), so it
-- is an index-only scan: a deep page skips its offset in the index alone (offset 50,000 of 100,000:
-- 11 ms, against a sort of every domain, 641 ms). None of them changes when a check changes nothing.
CREATE INDEX domains_state_order ON domains
    ((CASE last_verdict WHEN 'pass' THEN 4 WHEN 'warn' THEN 1 WHEN 'fail' THEN 0 ELSE 3 END), lower(display_name), id)
    INCLUDE (last_verdict, display_name, platforms, last_android_verdict);
-- The overview sorted by host, likewise.
CREATE INDEX domains_name_order ON domains (lower(display_name), id) INCLUDE (display_name, platforms, last_android_verdict);
-- The 'checking' state's domains that are paused (the due index leaves paused domains out).
CREATE INDEX domains_paused ON domains (id) WHERE paused;
