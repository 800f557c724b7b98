-- A channel's name is its identity: `apply` and `export --yaml` find a channel by it, and a person
-- tells two channels apart by it. Until now two channels could share a name, so an alert went out
-- twice, the export wrote both, and applying that export was refused ("declared twice").
--
-- Rows that already share a name keep the oldest one (lowest id) as it is and rename the others, in
-- id order, to "name (2)", "name (3)", …, skipping a suffix another channel already carries, so the
-- outcome depends only on the rows. Nameless channels ('') stay nameless: export names them
-- kind-id and any number of them may exist. Then a unique index holds the rule against every writer
-- (ChannelSetup checks first, to say which name is taken).
DO $$
DECLARE
    duplicate record;
    suffix integer;
    candidate text;
BEGIN
    FOR duplicate IN
        SELECT id, name FROM (
            SELECT id, name, row_number() OVER (PARTITION BY name ORDER BY id) AS rank FROM channels WHERE name <> ''
        ) ranked
        WHERE rank > 1
        ORDER BY id
    LOOP
        suffix := 2;
        LOOP
            candidate := duplicate.name || ' (' || suffix || ')';
            EXIT WHEN NOT EXISTS (SELECT FROM channels WHERE name = candidate);
            suffix := suffix + 1;
        END LOOP;
        UPDATE channels SET name = candidate, updated_at = now() WHERE id = duplicate.id;
    END LOOP;
END
$$;

CREATE UNIQUE INDEX channels_name_key ON channels (name) WHERE name <> '';
