-- A domain watched for Android only counts Android's verdict whatever its site serves (issue #13: its
-- owner chose Android, so a missing assetlinks.json fails it). domains.last_android_verdict (0039) is
-- kept only where the check found that Android counts (a file served or an Android app expected), so
-- such a domain without a file was missing from the API list's android_state, the Android filter of
-- the overview and the API, and aasa_platform_domains. This trigger runs after 0039's (row triggers
-- of one kind fire in name order: "domains_latest_…" < "domains_platform_…"), and also when the
-- platform setting changes; it does not touch 0039's or 0049's function, so it holds in either order.
-- The expression is AndroidResult.sqlIsWatched's with the Android-only case (OverviewAtScaleTests).
CREATE FUNCTION aasa_domain_android_only_verdict() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT CASE WHEN c.android IS NOT NULL AND (NEW.platforms = 'android' OR (c.android->>'serves')::boolean
                                                OR jsonb_array_length(c.android->'identities') > 0)
                THEN c.android->>'verdict' END
      INTO NEW.last_android_verdict
      FROM checks c WHERE c.id = NEW.last_check_id;
    IF NOT FOUND THEN
        NEW.last_android_verdict := NULL;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER domains_platform_android_verdict_insert BEFORE INSERT ON domains FOR EACH ROW
    WHEN (NEW.last_check_id IS NOT NULL) EXECUTE FUNCTION aasa_domain_android_only_verdict();
CREATE TRIGGER domains_platform_android_verdict_update BEFORE UPDATE OF last_check_id, platforms ON domains FOR EACH ROW
    WHEN (OLD.last_check_id IS DISTINCT FROM NEW.last_check_id OR OLD.platforms IS DISTINCT FROM NEW.platforms)
    EXECUTE FUNCTION aasa_domain_android_only_verdict();

UPDATE domains d SET last_android_verdict = c.android->>'verdict'
FROM checks c
WHERE c.id = d.last_check_id AND d.platforms = 'android' AND c.android IS NOT NULL
  AND d.last_android_verdict IS DISTINCT FROM c.android->>'verdict';
