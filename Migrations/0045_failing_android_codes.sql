-- /metrics' failing-codes gauge by platform (issue #13): aasa_failing_domains counted Apple's error
-- findings only (checks.findings, kept per code in failing_code_counts by 0049). Android's are in
-- checks.android; they are kept the same way, beside Apple's and independent of 0049's objects (this
-- migration may run before or after it): the latest check's distinct Android error codes on the
-- domain row, counted per code over the failing domains by statement-level triggers.

-- The latest check's Android error codes where Android counts for the domain: watched for Android
-- only (whatever the site serves), or for both where the site serves assetlinks.json or an Android
-- app is expected (AndroidResult.sqlIsWatched); NULL otherwise, so most rows do not grow. Set when
-- the latest check or the platform setting changes.
ALTER TABLE domains ADD COLUMN last_android_error_codes text[];

CREATE FUNCTION aasa_domain_android_error_codes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.last_android_error_codes := (
        SELECT array_agg(DISTINCT f->>'code' ORDER BY f->>'code')
        FROM checks c, jsonb_array_elements(c.android->'findings') f
        WHERE c.id = NEW.last_check_id AND f->>'severity' = 'error'
          AND (NEW.platforms = 'android' OR (NEW.platforms = 'both'
               AND ((c.android->>'serves')::boolean OR jsonb_array_length(c.android->'identities') > 0))));
    RETURN NEW;
END $$;
CREATE TRIGGER domains_android_error_codes_insert BEFORE INSERT ON domains FOR EACH ROW
    WHEN (NEW.last_check_id IS NOT NULL) EXECUTE FUNCTION aasa_domain_android_error_codes();
CREATE TRIGGER domains_android_error_codes_update BEFORE UPDATE OF last_check_id, platforms ON domains FOR EACH ROW
    WHEN (OLD.last_check_id IS DISTINCT FROM NEW.last_check_id OR OLD.platforms IS DISTINCT FROM NEW.platforms)
    EXECUTE FUNCTION aasa_domain_android_error_codes();

UPDATE domains d SET last_android_error_codes = e.codes
FROM (SELECT x.id, array_agg(DISTINCT f->>'code' ORDER BY f->>'code') AS codes
      FROM domains x JOIN checks c ON c.id = x.last_check_id, jsonb_array_elements(c.android->'findings') f
      WHERE f->>'severity' = 'error'
        AND (x.platforms = 'android' OR (x.platforms = 'both'
             AND ((c.android->>'serves')::boolean OR jsonb_array_length(c.android->'identities') > 0)))
      GROUP BY x.id) e
WHERE e.id = d.id;

CREATE TABLE failing_android_code_counts (
    code text PRIMARY KEY,
    n bigint NOT NULL
);
INSERT INTO failing_android_code_counts
SELECT code, count(*) FROM domains, unnest(last_android_error_codes) code WHERE last_verdict = 'fail' GROUP BY 1;

-- Per statement, from the transition tables, as 0049's Apple counts: each failing domain's codes
-- leave with its old row and come back with its new one (a batch of repeats sums to nothing).
CREATE FUNCTION aasa_count_failing_android_codes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO failing_android_code_counts AS k
        SELECT code, count(*) FROM new_domains, unnest(last_android_error_codes) code WHERE last_verdict = 'fail' GROUP BY 1 ORDER BY 1
        ON CONFLICT (code) DO UPDATE SET n = k.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE failing_android_code_counts k SET n = k.n - g.n
        FROM (SELECT code, count(*) AS n FROM old_domains, unnest(last_android_error_codes) code WHERE last_verdict = 'fail' GROUP BY 1) g
        WHERE k.code = g.code;
    ELSE
        INSERT INTO failing_android_code_counts AS k
        SELECT code, sum(delta) FROM (
            SELECT code, -1 AS delta FROM old_domains, unnest(last_android_error_codes) code WHERE last_verdict = 'fail'
            UNION ALL
            SELECT code, 1 FROM new_domains, unnest(last_android_error_codes) code WHERE last_verdict = 'fail'
        ) moved
        GROUP BY 1 HAVING sum(delta) <> 0 ORDER BY 1
        ON CONFLICT (code) DO UPDATE SET n = k.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER domains_failing_android_codes_insert AFTER INSERT ON domains REFERENCING NEW TABLE AS new_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_failing_android_codes();
CREATE TRIGGER domains_failing_android_codes_delete AFTER DELETE ON domains REFERENCING OLD TABLE AS old_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_failing_android_codes();
CREATE TRIGGER domains_failing_android_codes_update AFTER UPDATE ON domains REFERENCING OLD TABLE AS old_domains NEW TABLE AS new_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_count_failing_android_codes();

CREATE FUNCTION aasa_clear_failing_android_code_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM failing_android_code_counts;
    RETURN NULL;
END $$;
CREATE TRIGGER domains_failing_android_codes_truncate AFTER TRUNCATE ON domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_clear_failing_android_code_counts();
