-- Each app link's state as last judged (AppLinkVerdict: the domain's file judged for this app's IDs,
-- package and keys), kept with what it was judged against, so the app page, the API and /metrics count
-- an app's links by state without reading and decoding every link's latest check (issue #17: an app
-- claiming 1,000 domains on both platforms made its page 323 / 453 ms p50 / p95 at 1,000,000 domains,
-- and the API's app detail 636 / 756 ms, most of it the 2,000 links' checks and their JSON).
--
-- A judgement holds while its domain's latest changed check and the digest of what else decides it
-- (the domain's verdict and current expectation results) are what it was judged against; readers
-- compare them on the domain row, judge the links whose domain moved on, and store those. No trigger
-- on domains: the worker's hot path is left alone, and a judgement written from a stale read carries
-- the stale stamp, so the next reader judges it again (no race to lose).
--
-- 'never': the link could not be judged (no check yet, or its platform not fetched yet); whether it is
-- "checking" or "never checked" is read from the domain row when counted, as the cell does.
ALTER TABLE app_links
    ADD COLUMN judged_state text CHECK (judged_state IN ('passing', 'warning', 'failing', 'never')),
    ADD COLUMN judged_check_id bigint,
    ADD COLUMN judged_digest text;
