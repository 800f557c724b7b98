-- A domain's reason carries its platform in a column (issue #29). DomainVerdict wrote Android's reason
-- as "Android: " and the line, and the domain page stripped that prefix back off to tell the platforms
-- apart; now the platform whose state the line explains is stored beside it (DomainReason.platform),
-- typed to the two platforms, and the "Android: " people read is built from it where the line is shown.
-- NULL with a line: an open alert's summary leads the reason (DomainVerdict.lead(with:)); it names its
-- own platform. A platform without a line is refused.
ALTER TABLE domains ADD COLUMN last_reason_platform text
        CONSTRAINT domains_last_reason_platform_check CHECK (last_reason_platform IN ('apple', 'android')),
    ADD CONSTRAINT domains_reason_platform_has_reason CHECK (last_reason_platform IS NULL OR last_reason IS NOT NULL);

-- Rows as DomainVerdict wrote them: Android's line with its prefix, Apple's without, and on a domain
-- that does not fail the summary of its most severe open alert (0068), which keeps no platform.
UPDATE domains d SET
    last_reason_platform = CASE WHEN d.last_reason LIKE 'Android: %' THEN 'android' ELSE 'apple' END,
    last_reason = CASE WHEN d.last_reason LIKE 'Android: %' THEN substr(d.last_reason, length('Android: ') + 1) ELSE d.last_reason END
WHERE d.last_reason IS NOT NULL
  AND NOT (d.last_verdict IS DISTINCT FROM 'fail' AND EXISTS (
      SELECT 1 FROM alerts a WHERE a.domain_id = d.id AND a.state = 'open' AND a.summary = d.last_reason));

-- An app's Android link is now judged by the domain's rule (AppLinkVerdict.evaluateAndroid through
-- DomainVerdict.androidState: the check's own findings in the check's words; Google saying the app is
-- not linked fails it, as it fails the domain and verify-app, where the link used to warn; a watched URL
-- that must open the app and stays in the browser fails it too): the judgements 0058 kept for Android
-- links were made by the older rule, so each is judged again by its next reader.
UPDATE app_links SET judged_state = NULL, judged_check_id = NULL, judged_digest = NULL
WHERE platform = 'android' AND judged_state IS NOT NULL;
