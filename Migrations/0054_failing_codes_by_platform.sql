-- /metrics' failing-codes gauge (aasa_failing_domains{platform, code}) from ONE kept table keyed by
-- platform and code, filled by ONE trigger function over both platforms' code columns. Before, 0049
-- kept Apple's codes in failing_code_counts and 0045 Android's in failing_android_code_counts, each with
-- its own copy of the same statement-level trigger (only the code column differed), and /metrics read
-- their UNION.
--
-- The meaning changes with it (issue #11 review, D1): a platform's codes count where THAT platform's
-- side of the latest check fails — Apple's error codes where the domain is watched for Apple and the
-- Apple file's verdict (last_file_verdict) fails, Android's where Android counts and its verdict
-- (last_android_verdict, 0039/0046) fails — as aasa_platform_domains{platform, verdict="fail"} counts
-- the domains. Both copies counted a platform's codes when the domain's overall state failed
-- (last_verdict), which mixes the other platform and unmet expectations into one platform's gauge: a
-- domain failing on Apple would count Android codes, and a domain whose state was set to warn without
-- a check would drop a failing platform's codes while aasa_platform_domains still counted it failing.
-- The counts are recounted under this meaning from the codes kept on the domain rows (0045, 0049).

DROP TRIGGER domains_failing_codes_insert ON domains;
DROP TRIGGER domains_failing_codes_delete ON domains;
DROP TRIGGER domains_failing_codes_update ON domains;
DROP TRIGGER domains_failing_codes_truncate ON domains;
DROP FUNCTION aasa_count_failing_codes();
DROP FUNCTION aasa_clear_failing_code_counts();
DROP TRIGGER domains_failing_android_codes_insert ON domains;
DROP TRIGGER domains_failing_android_codes_delete ON domains;
DROP TRIGGER domains_failing_android_codes_update ON domains;
DROP TRIGGER domains_failing_android_codes_truncate ON domains;
DROP FUNCTION aasa_count_failing_android_codes();
DROP FUNCTION aasa_clear_failing_android_code_counts();
DROP TABLE failing_code_counts, failing_android_code_counts;

-- The (platform, code) pairs one domain row counts: the single statement of the rule, used by the
-- trigger and the fill below. Arguments rather than the row: a transition table's rows are records,
-- not `domains`. SQL and immutable, so the planner inlines it.
CREATE FUNCTION aasa_failing_codes(platforms text, file_verdict text, error_codes text[],
                                   android_verdict text, android_error_codes text[])
RETURNS TABLE (platform text, code text) LANGUAGE sql IMMUTABLE AS $$
    SELECT 'apple', c FROM unnest(error_codes) c WHERE platforms <> 'android' AND file_verdict = 'fail'
    UNION ALL
    -- last_android_error_codes is already NULL where Android does not count for the domain (0045).
    SELECT 'android', c FROM unnest(android_error_codes) c WHERE android_verdict = 'fail'
$$;

CREATE TABLE failing_code_counts (
    platform text NOT NULL,
    code text NOT NULL,
    n bigint NOT NULL,
    PRIMARY KEY (platform, code)
);
INSERT INTO failing_code_counts
SELECT f.platform, f.code, count(*)
FROM domains d, aasa_failing_codes(d.platforms, d.last_file_verdict, d.last_error_codes, d.last_android_verdict, d.last_android_error_codes) f
GROUP BY 1, 2;

-- Per statement, from the transition tables: each domain's pairs leave with its old row and come back
-- with its new one, so a statement that changes no verdict, code or platform setting (a lease, a
-- batch of repeats) sums to nothing and writes nothing. In key order, so two transactions moving
-- the same pairs cannot deadlock.
CREATE FUNCTION aasa_count_failing_codes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO failing_code_counts AS k
        SELECT f.platform, f.code, count(*)
        FROM new_domains d, aasa_failing_codes(d.platforms, d.last_file_verdict, d.last_error_codes,
                                               d.last_android_verdict, d.last_android_error_codes) f
        GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (platform, code) DO UPDATE SET n = k.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE failing_code_counts k SET n = k.n - g.n
        FROM (SELECT f.platform, f.code, count(*) AS n
              FROM old_domains d, aasa_failing_codes(d.platforms, d.last_file_verdict, d.last_error_codes,
                                                     d.last_android_verdict, d.last_android_error_codes) f
              GROUP BY 1, 2) g
        WHERE (k.platform, k.code) = (g.platform, g.code);
    ELSE
        INSERT INTO failing_code_counts AS k
        SELECT platform, code, sum(delta) FROM (
            SELECT f.platform, f.code, -1 AS delta
            FROM old_domains d, aasa_failing_codes(d.platforms, d.last_file_verdict, d.last_error_codes,
                                                   d.last_android_verdict, d.last_android_error_codes) f
            UNION ALL
            SELECT f.platform, f.code, 1
            FROM new_domains d, aasa_failing_codes(d.platforms, d.last_file_verdict, d.last_error_codes,
                                                   d.last_android_verdict, d.last_android_error_codes) f
        ) moved
        GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
        ON CONFLICT (platform, code) DO UPDATE SET n = k.n + EXCLUDED.n;
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
