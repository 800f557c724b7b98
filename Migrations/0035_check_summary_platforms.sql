-- CheckSummary (checks.summary, the "previous check" the monitor reads back with its synthesized Decodable)
-- holds one result per platform, so a domain watched for Android only has no Apple side (issue #13).
-- Summaries stored before kept Apple's fields at the top level: they move into "apple". What belongs to
-- the host stays on top: the certificate, the expectations' digest (0041's conditional fetches), and
-- "reachable" (Apple's originReachable: Apple was always checked then). New summaries have "reachable" and no "originReachable", so each row moves once.
UPDATE checks SET summary = jsonb_build_object(
        'checkedAt', summary->'checkedAt',
        'reachable', summary->'originReachable',
        'apple', summary - 'checkedAt' - 'certificate' - 'android' - 'expectationsKey')
    || CASE WHEN summary ? 'certificate' THEN jsonb_build_object('certificate', summary->'certificate') ELSE '{}'::jsonb END
    || CASE WHEN summary ? 'android' THEN jsonb_build_object('android', summary->'android') ELSE '{}'::jsonb END
    || CASE WHEN summary ? 'expectationsKey' THEN jsonb_build_object('expectationsKey', summary->'expectationsKey') ELSE '{}'::jsonb END
 WHERE summary IS NOT NULL AND jsonb_typeof(summary) = 'object' AND summary ? 'originReachable';
