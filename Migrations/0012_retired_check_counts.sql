-- aasa_checks_total is a Prometheus counter, and a counter must never go down: Prometheus reads a
-- decrease as a restart from zero, and rate() over it turns into a spike. Each domain row counts its
-- own checks (0010), so deleting a domain took its checks out of the total. A deleted domain's
-- counts move here, in the statement that deletes it, and /metrics adds them to the living ones.
CREATE TABLE retired_check_counts (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    checks_passed bigint NOT NULL DEFAULT 0,
    checks_warned bigint NOT NULL DEFAULT 0,
    checks_failed bigint NOT NULL DEFAULT 0
);
INSERT INTO retired_check_counts DEFAULT VALUES;

-- One update per DELETE statement, however many domains it removes.
CREATE FUNCTION aasa_retire_check_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE retired_check_counts r SET
        checks_passed = r.checks_passed + g.passed,
        checks_warned = r.checks_warned + g.warned,
        checks_failed = r.checks_failed + g.failed
    FROM (SELECT coalesce(sum(checks_passed), 0) AS passed, coalesce(sum(checks_warned), 0) AS warned,
                 coalesce(sum(checks_failed), 0) AS failed FROM deleted_domains) g;
    RETURN NULL;
END $$;

CREATE TRIGGER domains_retire_check_counts AFTER DELETE ON domains REFERENCING OLD TABLE AS deleted_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_retire_check_counts();
