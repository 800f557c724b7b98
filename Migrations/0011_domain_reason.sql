-- The domain's overall state and its one-line reason, as the overview, `status`, the API, /metrics
-- and the badge show them. `domains.last_verdict` becomes the worst of the latest check's file
-- verdict (`checks.verdict`, unchanged: the alert rules read it) and the domain's expectations, an
-- unmet expectation counting as 'fail'; `last_reason` says why in one line. The check pipeline
-- writes both with every check; editing a domain's expectations re-evaluates them.
ALTER TABLE domains ADD COLUMN last_reason text;

-- Existing domains: the worst finding of the latest stored check, as the overview showed it so far.
UPDATE domains d SET last_reason = (
    SELECT f->>'message' FROM jsonb_array_elements(c.findings) f
    ORDER BY CASE f->>'severity' WHEN 'error' THEN 0 WHEN 'warning' THEN 1 WHEN 'deprecation' THEN 2 ELSE 3 END
    LIMIT 1)
FROM checks c WHERE c.id = d.last_check_id;

-- ...and the expectations that check measured (`checks.expectations`, the monitor's
-- ExpectationResults): a missing app ID or a watched URL doing something else fails the domain.
-- The next check rewrites both with the monitor's own wording.
UPDATE domains d
SET last_verdict = 'fail',
    last_reason = CASE WHEN c.verdict = 'fail' AND d.last_reason IS NOT NULL THEN d.last_reason ELSE u.reason END
FROM checks c, LATERAL (SELECT coalesce(
    (SELECT 'App ID ' || a.app_id || ' is missing from ' || m.key || '.'
     FROM jsonb_each(CASE WHEN jsonb_typeof(c.expectations->'missingAppIDs') = 'object'
                          THEN c.expectations->'missingAppIDs' ELSE '{}' END) m,
          jsonb_array_elements_text(m.value) a(app_id)
     ORDER BY m.key, a.app_id LIMIT 1),
    (SELECT 'Watched URL ' || (w->>'url') || CASE
              WHEN w->'expected' ? 'opensApp' AND w->'actual' ? 'opensApp'
                THEN ' opens ' || (w->'actual'->'opensApp'->>'_0') || ' instead of ' || (w->'expected'->'opensApp'->>'_0') || '.'
              WHEN w->'expected' ? 'opensApp'
                THEN ' does not open ' || (w->'expected'->'opensApp'->>'_0') || ': it stays in the browser.'
              ELSE ' opens ' || coalesce(w->'actual'->'opensApp'->>'_0', 'an app') || ' instead of staying in the browser.' END
     FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c.expectations->'watchedURLs') = 'array'
                                    THEN c.expectations->'watchedURLs' ELSE '[]' END) w
     WHERE w->'expected' IS DISTINCT FROM w->'actual' LIMIT 1)) AS reason) u
WHERE c.id = d.last_check_id AND u.reason IS NOT NULL;
