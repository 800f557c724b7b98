-- One definition of a platform's state (review of the sixth session, §1). 0060 stored each platform's
-- state (DomainVerdict.apple / .android: its file's verdict made worse by its unmet expectations) on
-- the domain row, but left it NULL for rows from before it, for batched repeats and for checks written
-- by insertCheck, and every reader fell back to the latest check's file verdict (COALESCE). The
-- counts /metrics' per-platform gauges read (domain_counts, 0039/0046) and the failing-codes gauge
-- (0054) kept counting the file verdicts, so a domain missing an app ID was Apple "failing" on the
-- overview and counted with the passing files on /metrics.
--
-- Here: the states are computed for every checked row that has none, by the SQL below, which is
-- DomainVerdict's rule over what a check stores (MonitorTests.PlatformStateMigrationTests holds it to
-- the Swift computation); every writer writes them (the batched repeats and insertCheck from now on);
-- domain_counts and failing_code_counts are keyed by them; the overview's indexes carry Android's
-- state for its platform filter. Readers read the two columns and nothing else.
--
-- NULL now means only "the platform does not count for the domain" (not watched; Android: no
-- assetlinks.json served and no Android app expected; or not checked yet).

-- Apple's state: where the domain is watched for Apple and the check fetched Apple's file, the file's
-- verdict, or 'fail' when an expectation measured against it is unmet (a missing app ID in any
-- service; a watched URL whose outcome is not the expected one). ExpectationResults' stored keys.
-- `checked_apple` is AndroidResult.sqlCheckedApple (false for a check made while the domain was
-- watched for Android only, whose verdict is Android's).
CREATE FUNCTION aasa_apple_state(platforms text, checked_apple boolean, verdict text, expectations jsonb)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN platforms <> 'android' AND checked_apple THEN
        CASE WHEN EXISTS (SELECT FROM jsonb_each(CASE WHEN jsonb_typeof(expectations->'missingAppIDs') = 'object'
                                                      THEN expectations->'missingAppIDs' ELSE '{}' END) m
                          WHERE jsonb_typeof(m.value) = 'array' AND jsonb_array_length(m.value) > 0)
               OR EXISTS (SELECT FROM jsonb_array_elements(CASE WHEN jsonb_typeof(expectations->'watchedURLs') = 'array'
                                                                THEN expectations->'watchedURLs' ELSE '[]' END) w
                          WHERE w->'expected' IS DISTINCT FROM w->'actual')
             THEN 'fail' ELSE verdict END
    END
$$;

-- Android's state (DomainVerdict.androidState): the assetlinks.json verdict, or 'fail' when the site
-- serves a file that does not fail and a URL watched on Android does not do what it must on Android
-- 15+. Where it counts: a domain watched for both whose check measured Apple counts Android only where
-- the site serves a file or an Android app is expected (AndroidResult.isWatched); a domain watched for
-- Android only — or not yet measured for Apple — whenever Android was checked (DomainVerdict(android:)).
CREATE FUNCTION aasa_android_state(platforms text, checked_apple boolean, android jsonb)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN android IS NULL OR jsonb_typeof(android) <> 'object' OR platforms = 'apple' THEN NULL
        WHEN platforms <> 'android' AND checked_apple
             AND NOT (coalesce((android->>'serves')::boolean, false) OR coalesce(jsonb_array_length(android->'identities'), 0) > 0) THEN NULL
        WHEN android->>'verdict' <> 'fail' AND coalesce((android->>'serves')::boolean, false)
             AND EXISTS (SELECT FROM jsonb_array_elements(CASE WHEN jsonb_typeof(android->'watchedURLs') = 'array'
                                                              THEN android->'watchedURLs' ELSE '[]' END) w
                         WHERE w->'expected' IS DISTINCT FROM w->'actual') THEN 'fail'
        ELSE android->>'verdict'
    END
$$;

-- The domain's verdict its platform states make (DomainVerdict.verdict): the worse of the two, pass
-- when neither counts.
CREATE FUNCTION aasa_verdict_of_states(apple text, android text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN 'fail' IN (apple, android) THEN 'fail' WHEN 'warn' IN (apple, android) THEN 'warn' ELSE 'pass' END
$$;

-- The counting triggers go while the rows are filled (each would join a million old and new rows for
-- nothing); the tables are rebuilt from the rows below and the triggers come back with the new keys.
DROP TRIGGER domains_count_insert ON domains;
DROP TRIGGER domains_count_delete ON domains;
DROP TRIGGER domains_count_update ON domains;
DROP TRIGGER domains_count_truncate ON domains;
DROP TRIGGER domains_failing_codes_insert ON domains;
DROP TRIGGER domains_failing_codes_delete ON domains;
DROP TRIGGER domains_failing_codes_update ON domains;
DROP TRIGGER domains_failing_codes_truncate ON domains;

-- Every checked row whose states were never written (both NULL: before 0060, a batched repeat, an
-- insertCheck), from its latest check: Apple's expectations as last measured (the check's, or a
-- re-measure's after an edit: last_expectations; NULL only where no file was read, whose verdict is
-- 'fail' anyway), Android's result as the check stored it. A row both NULL by right recomputes to NULL.
UPDATE domains d SET
    last_apple_state = aasa_apple_state(d.platforms, NOT (c.transport ? 'assetLinks' AND NOT c.transport ? 'wellKnown'),
                                        c.verdict, coalesce(d.last_expectations, c.expectations)),
    last_android_state = aasa_android_state(d.platforms, NOT (c.transport ? 'assetLinks' AND NOT c.transport ? 'wellKnown'), c.android)
FROM checks c
WHERE c.id = d.last_check_id AND d.last_apple_state IS NULL AND d.last_android_state IS NULL;

-- A row whose stored verdict its states do not make was judged by an older rule (before each platform
-- counted its own expectations) or re-measured against an Android file SQL cannot re-read (an edit's
-- re-measure before 0060): it takes the states' verdict and a check is requested, which writes the
-- verdict, the reason and both states through the pipeline.
UPDATE domains SET last_verdict = aasa_verdict_of_states(last_apple_state, last_android_state),
    check_requested_at = coalesce(check_requested_at, now())
WHERE last_check_id IS NOT NULL
  AND last_verdict IS DISTINCT FROM aasa_verdict_of_states(last_apple_state, last_android_state);

-- What the states may hold (migration 0062 adds that they make the verdict).
ALTER TABLE domains
    ADD CONSTRAINT domains_last_apple_state_check CHECK (last_apple_state IN ('pass', 'warn', 'fail')),
    ADD CONSTRAINT domains_last_android_state_check CHECK (last_android_state IN ('pass', 'warn', 'fail'));

-- domain_counts keyed by the states too. The file verdicts stay in the key for one gauge,
-- aasa_domains_unmet_expectations (a platform whose state fails while its file does not).
DROP TABLE domain_counts;
CREATE TABLE domain_counts (
    verdict text NOT NULL,
    platforms text NOT NULL,
    file_verdict text NOT NULL,
    android_verdict text NOT NULL,
    apple_state text NOT NULL,
    android_state text NOT NULL,
    n bigint NOT NULL,
    PRIMARY KEY (verdict, platforms, file_verdict, android_verdict, apple_state, android_state)
);
INSERT INTO domain_counts
SELECT coalesce(last_verdict, ''), platforms, coalesce(last_file_verdict, ''), coalesce(last_android_verdict, ''),
       coalesce(last_apple_state, ''), coalesce(last_android_state, ''), count(*)
FROM domains GROUP BY 1, 2, 3, 4, 5, 6;

-- 0039's functions with the two columns more; the same shape (per statement, in key order).
CREATE OR REPLACE FUNCTION aasa_count_domains() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO domain_counts AS k
        SELECT coalesce(last_verdict, ''), platforms, coalesce(last_file_verdict, ''), coalesce(last_android_verdict, ''),
               coalesce(last_apple_state, ''), coalesce(last_android_state, ''), count(*)
        FROM changed_domains GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (verdict, platforms, file_verdict, android_verdict, apple_state, android_state) DO UPDATE SET n = k.n + EXCLUDED.n;
    ELSE
        UPDATE domain_counts k SET n = k.n - g.n
        FROM (SELECT coalesce(last_verdict, '') AS verdict, platforms, coalesce(last_file_verdict, '') AS file_verdict,
                     coalesce(last_android_verdict, '') AS android_verdict, coalesce(last_apple_state, '') AS apple_state,
                     coalesce(last_android_state, '') AS android_state, count(*) AS n
              FROM changed_domains GROUP BY 1, 2, 3, 4, 5, 6) g
        WHERE (k.verdict, k.platforms, k.file_verdict, k.android_verdict, k.apple_state, k.android_state)
              = (g.verdict, g.platforms, g.file_verdict, g.android_verdict, g.apple_state, g.android_state);
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION aasa_recount_domains() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO domain_counts AS k
    SELECT verdict, platforms, file_verdict, android_verdict, apple_state, android_state, sum(delta)
    FROM (
        SELECT coalesce(o.last_verdict, '') AS verdict, o.platforms, coalesce(o.last_file_verdict, '') AS file_verdict,
               coalesce(o.last_android_verdict, '') AS android_verdict, coalesce(o.last_apple_state, '') AS apple_state,
               coalesce(o.last_android_state, '') AS android_state, -1 AS delta
        FROM old_domains o JOIN new_domains n ON n.id = o.id
        WHERE (o.last_verdict, o.platforms, o.last_file_verdict, o.last_android_verdict, o.last_apple_state, o.last_android_state)
              IS DISTINCT FROM (n.last_verdict, n.platforms, n.last_file_verdict, n.last_android_verdict, n.last_apple_state, n.last_android_state)
        UNION ALL
        SELECT coalesce(n.last_verdict, ''), n.platforms, coalesce(n.last_file_verdict, ''), coalesce(n.last_android_verdict, ''),
               coalesce(n.last_apple_state, ''), coalesce(n.last_android_state, ''), 1
        FROM old_domains o JOIN new_domains n ON n.id = o.id
        WHERE (o.last_verdict, o.platforms, o.last_file_verdict, o.last_android_verdict, o.last_apple_state, o.last_android_state)
              IS DISTINCT FROM (n.last_verdict, n.platforms, n.last_file_verdict, n.last_android_verdict, n.last_apple_state, n.last_android_state)
    ) moved
    GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (verdict, platforms, file_verdict, android_verdict, apple_state, android_state) DO UPDATE SET n = k.n + EXCLUDED.n;
    RETURN NULL;
END $$;

CREATE TRIGGER domains_count_insert AFTER INSERT ON domains REFERENCING NEW TABLE AS changed_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_domains();
CREATE TRIGGER domains_count_delete AFTER DELETE ON domains REFERENCING OLD TABLE AS changed_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_domains();
CREATE TRIGGER domains_count_update AFTER UPDATE ON domains REFERENCING OLD TABLE AS old_domains NEW TABLE AS new_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_recount_domains();
CREATE TRIGGER domains_count_truncate AFTER TRUNCATE ON domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_clear_domain_counts();

-- The failing codes (0054) by the states: a platform's error codes count where that platform's state
-- fails, as aasa_platform_domains{verdict="fail"} now counts the domain. A platform's state is set
-- only where the platform counts, so 0054's platform condition is in it. (Error codes fail their
-- file, so this counts the same domains as 0054 did wherever the states were written; what changes
-- is that the rule reads the one definition.)
CREATE FUNCTION aasa_failing_codes(apple_state text, error_codes text[], android_state text, android_error_codes text[])
RETURNS TABLE (platform text, code text) LANGUAGE sql IMMUTABLE AS $$
    SELECT 'apple', c FROM unnest(error_codes) c WHERE apple_state = 'fail'
    UNION ALL
    SELECT 'android', c FROM unnest(android_error_codes) c WHERE android_state = 'fail'
$$;

CREATE OR REPLACE FUNCTION aasa_count_failing_codes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO failing_code_counts AS k
        SELECT f.platform, f.code, count(*)
        FROM new_domains d, aasa_failing_codes(d.last_apple_state, d.last_error_codes, d.last_android_state, d.last_android_error_codes) f
        GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (platform, code) DO UPDATE SET n = k.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE failing_code_counts k SET n = k.n - g.n
        FROM (SELECT f.platform, f.code, count(*) AS n
              FROM old_domains d, aasa_failing_codes(d.last_apple_state, d.last_error_codes, d.last_android_state, d.last_android_error_codes) f
              GROUP BY 1, 2) g
        WHERE (k.platform, k.code) = (g.platform, g.code);
    ELSE
        INSERT INTO failing_code_counts AS k
        SELECT platform, code, sum(delta) FROM (
            SELECT f.platform, f.code, -1 AS delta
            FROM old_domains d, aasa_failing_codes(d.last_apple_state, d.last_error_codes, d.last_android_state, d.last_android_error_codes) f
            UNION ALL
            SELECT f.platform, f.code, 1
            FROM new_domains d, aasa_failing_codes(d.last_apple_state, d.last_error_codes, d.last_android_state, d.last_android_error_codes) f
        ) moved
        GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
        ON CONFLICT (platform, code) DO UPDATE SET n = k.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
DROP FUNCTION aasa_failing_codes(text, text, text[], text, text[]);

DELETE FROM failing_code_counts;
INSERT INTO failing_code_counts
SELECT f.platform, f.code, count(*)
FROM domains d, aasa_failing_codes(d.last_apple_state, d.last_error_codes, d.last_android_state, d.last_android_error_codes) f
GROUP BY 1, 2;

CREATE TRIGGER domains_failing_codes_insert AFTER INSERT ON domains REFERENCING NEW TABLE AS new_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_failing_codes();
CREATE TRIGGER domains_failing_codes_delete AFTER DELETE ON domains REFERENCING OLD TABLE AS old_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_failing_codes();
CREATE TRIGGER domains_failing_codes_update AFTER UPDATE ON domains REFERENCING OLD TABLE AS old_domains NEW TABLE AS new_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_failing_codes();
CREATE TRIGGER domains_failing_codes_truncate AFTER TRUNCATE ON domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_clear_failing_code_counts();

-- The overview's two walks (0039) test the Android filter on the row's Android state now, so they
-- carry it instead of the file's verdict and stay index-only.
DROP INDEX domains_state_order;
CREATE INDEX domains_state_order ON domains
    ((CASE last_verdict WHEN 'pass' THEN 4 WHEN 'warn' THEN 1 WHEN 'fail' THEN 0 ELSE 3 END), lower(display_name), id)
    INCLUDE (last_verdict, display_name, platforms, last_android_state);
DROP INDEX domains_name_order;
CREATE INDEX domains_name_order ON domains (lower(display_name), id) INCLUDE (display_name, platforms, last_android_state);
