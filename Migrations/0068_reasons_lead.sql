-- Reasons that lead with the point (issue #32). A domain's reason (domains.last_reason, written by
-- DomainVerdict) is now the most severe open problem: an informational note ("applinks has no apps
-- key; iOS 12…") never stands as the reason of a domain that does not fail, and on such a domain the
-- most severe open alert that is not informational (a certificate expiring in 5 days) leads.
--
-- Stored reasons are rewritten here because nothing else would: an unchanged check is a repeat that
-- keeps the stored reason, so a steady domain would show its old note for good. The reworded findings
-- (the HTTP status and redirect messages now start with "HTTP 403 at …") need nothing here: their new
-- words make each such domain's next check a changed one, which writes its reason anew.
-- The same rule as DomainVerdict.leadingReason and DomainVerdict.lead(with:); ties among open alerts of
-- one severity go to the oldest, as the re-measure between checks orders them.

-- 1. A note that was a non-failing domain's reason: the domain had nothing worse to say (a warning or
--    an unmet expectation would have led), so it now says nothing. Apple's notes as they are, Android's
--    with the platform named, as DomainVerdict.androidState writes them.
UPDATE domains d SET last_reason = NULL
WHERE d.last_reason IS NOT NULL AND d.last_verdict IS DISTINCT FROM 'fail'
  AND EXISTS (
    SELECT 1 FROM checks c
    WHERE c.id = d.last_check_id AND (
      EXISTS (SELECT 1 FROM jsonb_array_elements(CASE jsonb_typeof(c.findings) WHEN 'array' THEN c.findings ELSE '[]' END) f
              WHERE f->>'severity' = 'info' AND f->>'message' = d.last_reason)
      OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE jsonb_typeof(c.android->'findings') WHEN 'array' THEN c.android->'findings' ELSE '[]' END) f
                 WHERE f->>'severity' = 'info' AND 'Android: ' || (f->>'message') = d.last_reason)));

-- 2. The most severe open alert leads a domain that does not fail.
UPDATE domains d SET last_reason = a.summary
FROM (SELECT DISTINCT ON (domain_id) domain_id, summary FROM alerts
      WHERE state = 'open' AND severity <> 'info'
      ORDER BY domain_id, CASE severity WHEN 'critical' THEN 0 ELSE 1 END, id) a
WHERE a.domain_id = d.id AND d.last_verdict IS NOT NULL AND d.last_verdict <> 'fail'
  AND d.last_reason IS DISTINCT FROM a.summary;
