-- The digest a link's judgement is stamped with (0058) as jsonb's own 64-bit hash of the domain's
-- expectation results, seeded with its verdict's, instead of md5 of their text: the app page compares
-- it for each of an app's links on every view, and md5 over jsonb's text output made that comparison
-- 7 of the standings query's 7.4 ms for 2,000 links at 1,000,000 domains (EXPLAIN ANALYZE; 2.8 ms with
-- the hash). Existing judgements are dropped: the next reader judges the links again.
ALTER TABLE app_links ALTER COLUMN judged_digest TYPE bigint USING NULL;
UPDATE app_links SET judged_state = NULL WHERE judged_state IS NOT NULL;

-- The domains being checked, found through their leases: every overview and API list page asks which
-- domains are being checked (they show as "checking" whatever their verdict). It found the leased
-- ones through the due index (a lease keeps its domain due), so it read every due domain: 144 ms with
-- 166,522 due at 1,000,000 domains (EXPLAIN ANALYZE), where workers that do not keep pace leave a
-- backlog. A finished check clears its lease, so this index holds the leases in flight (and those a
-- stopped worker left until they expire): a few entries, one insert per lease.
CREATE INDEX domains_leased ON domains (lease_until) WHERE lease_until IS NOT NULL;
