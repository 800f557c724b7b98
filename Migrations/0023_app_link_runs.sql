-- How long each app link's verdict has held, so "since when" on the app page is exact however long
-- the run is, without reading a domain's whole history on every view. A row is the run of equal
-- verdicts of the link (the domain's file judged for this app: its IDs, its platform, developer
-- mode) that ends at the newest changed check folded in; the reader folds newer changed checks in
-- and moves the row forward. Editing an app rewrites its links, and the cascade drops their runs,
-- since the verdicts were judged for the old IDs.
CREATE TABLE app_link_runs (
    app_id bigint NOT NULL,
    domain_id bigint NOT NULL,
    platform text NOT NULL,
    service text NOT NULL,
    -- The newest changed check of the domain folded into the run (checks are not referenced: a
    -- deleted check leaves the run as it was).
    through_check_id bigint NOT NULL,
    -- The link's verdict against that check; NULL when that check did not measure the platform
    -- (Android not fetched yet).
    verdict text CHECK (verdict IN ('pass', 'warn', 'fail')),
    -- started_at of the oldest check of the run.
    since timestamptz NOT NULL,
    PRIMARY KEY (app_id, domain_id, platform, service),
    FOREIGN KEY (app_id, domain_id, platform, service) REFERENCES app_links (app_id, domain_id, platform, service) ON DELETE CASCADE
);
