-- Change notifications for the dashboard's caches. Any process that writes (the web, `worker`
-- crawlers, the CLI) makes PostgreSQL NOTIFY at commit, so a `serve` that caches the overview or
-- session lookups drops them at once, whichever process made the change.
--   aasa_data_changed:     what the overview shows (domains, their checks, alerts)
--   aasa_accounts_changed: what a session lookup returns (sessions, users)
-- Statement-level triggers: one NOTIFY per statement, and PostgreSQL folds identical ones within a
-- transaction, so a check that writes several rows costs one notification.

CREATE FUNCTION aasa_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_ARGV[0], TG_TABLE_NAME);
    RETURN NULL;
END $$;

-- Updates of domains run all the time with no row to change (the schedulers' lease polls): those
-- must not empty the caches, so this one looks at the rows it got and stays quiet without any.
CREATE FUNCTION aasa_notify_change_if_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM changed_rows) THEN
        PERFORM pg_notify(TG_ARGV[0], TG_TABLE_NAME);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER domains_update_notify AFTER UPDATE ON domains REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_notify_change_if_rows('aasa_data_changed');
CREATE TRIGGER domains_notify AFTER INSERT OR DELETE OR TRUNCATE ON domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_notify_change('aasa_data_changed');
CREATE TRIGGER checks_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON checks
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_notify_change('aasa_data_changed');
CREATE TRIGGER alerts_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON alerts
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_notify_change('aasa_data_changed');

CREATE TRIGGER sessions_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sessions
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_notify_change('aasa_accounts_changed');
CREATE TRIGGER users_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_notify_change('aasa_accounts_changed');
