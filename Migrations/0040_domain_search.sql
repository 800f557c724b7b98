-- Substring search over host names at a million domains (issue #17). The overview's search is
-- LIKE '%text%' on the host and the lowered display name, which no btree serves: every search read
-- every domain row (104 ms at 100,000 domains, measured with Benchmarks/scale-bench.sh).
--
-- The names live in a table of their own, with trigram indexes (pg_trgm), because the domain row is
-- rewritten by every check and never HOT (the finish moves the indexed next_check_at): a GIN index on
-- it would take a dozen trigram entries per check. Names change only on registration and edits.
CREATE TABLE domain_names (
    domain_id bigint PRIMARY KEY REFERENCES domains (id) ON DELETE CASCADE,
    host text NOT NULL,
    -- lower(display_name), as the overview's search compares it.
    name text NOT NULL
);
INSERT INTO domain_names (domain_id, host, name) SELECT id, host, lower(display_name) FROM domains;

CREATE FUNCTION aasa_name_domains() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO domain_names (domain_id, host, name) SELECT id, host, lower(display_name) FROM new_domains;
    ELSE
        UPDATE domain_names SET host = NEW.host, name = lower(NEW.display_name) WHERE domain_id = NEW.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER domains_name_insert AFTER INSERT ON domains REFERENCING NEW TABLE AS new_domains
    FOR EACH STATEMENT EXECUTE FUNCTION aasa_name_domains();
CREATE TRIGGER domains_name_update AFTER UPDATE OF host, display_name ON domains FOR EACH ROW
    WHEN (OLD.host IS DISTINCT FROM NEW.host OR OLD.display_name IS DISTINCT FROM NEW.display_name)
    EXECUTE FUNCTION aasa_name_domains();

-- pg_trgm ships in PostgreSQL's contrib (Debian's postgresql-15 and the postgres:16 image have it)
-- and is a trusted extension, so the database's owner may create it. Where it is missing or may not
-- be created, the search still works, reading this narrow table instead of the domain rows.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
        BEGIN
            CREATE EXTENSION IF NOT EXISTS pg_trgm;
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE NOTICE 'pg_trgm could not be created (%): the overview search reads domain_names in full', SQLERRM;
        END;
    END IF;
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        EXECUTE 'CREATE INDEX domain_names_host_trgm ON domain_names USING gin (host gin_trgm_ops)';
        EXECUTE 'CREATE INDEX domain_names_name_trgm ON domain_names USING gin (name gin_trgm_ops)';
    END IF;
END $$;

-- Served only prefix patterns, which the overview never asks (its search is a substring).
DROP INDEX domains_display_name;
