-- The digest a link's judgement is stamped with (0058) as jsonb's own 64-bit hash of the domain's
-- expectation results, seeded with its verdict's, instead of md5 of their text: the app page compares
-- it for each of an app's links on every view, and md5 over jsonb's text output made that comparison
-- 7 of the standings query's 7.4 ms for 2,000 links at 1,000,000 domains (EXPLAIN ANALYZE; 2.8 ms with
-- the hash). Existing judgements are dropped: the next reader judges the links again.
ALTER TABLE app_links ALTER COLUMN judged_digest TYPE bigint USING NULL;
UPDATE app_links SET judged_state = NULL WHERE judged_state IS NOT NULL;
