-- Expectations belong to a platform (issue #29): an app's watched URL states which platforms it must
-- open the app on. The paths of an AndroidManifest.xml are Android's (`android`): they put no Apple
-- expectation on the domain, so an app whose iOS and Android paths differ no longer turns its domains
-- red on Apple; URLs typed on the form, the API or a config file are watched on both. A platform a
-- URL is not watched on does not judge it ("not judged" on the app page and the API).
--
-- A row written before keeps its meaning: watched on both (the Apple expectation placed where the
-- app claims the domain for applinks, the Android one where it claims it for Android).
ALTER TABLE app_watched_urls
    ADD COLUMN platforms text NOT NULL DEFAULT 'both' CHECK (platforms IN ('both', 'apple', 'android'));
-- Every writer states it from now on.
ALTER TABLE app_watched_urls ALTER COLUMN platforms DROP DEFAULT;

-- An Apple link's judgement now counts the app's watched URLs on the domain, as the domain's own
-- state does (issue #29: the app page said Passing while the domain page said Failing). Judgements
-- kept by 0058 were made by the older rule: every link is judged again by its next reader.
UPDATE app_links SET judged_state = NULL, judged_check_id = NULL, judged_digest = NULL WHERE judged_state IS NOT NULL;
