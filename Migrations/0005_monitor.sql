-- What the scheduler and the check pipeline need on top of the initial schema.

ALTER TABLE domains
    -- Generated when a worker leases the domain; the check's attempt_key. A result is written only
    -- while the domain still carries its key, so a late or repeated result never counts twice.
    ADD COLUMN lease_attempt_key text,
    -- How many checks the domain has had; seeds the scheduler's jitter.
    ADD COLUMN check_round bigint NOT NULL DEFAULT 0,
    -- Per-domain alert thresholds (NULL: the defaults, 2 failing checks to open, 1 passing to resolve).
    ADD COLUMN alert_open_after integer CHECK (alert_open_after >= 1),
    ADD COLUMN alert_resolve_after integer CHECK (alert_resolve_after >= 1);

-- Every check rewrites its domain's row; free room in each page keeps those updates HOT (no new
-- index entries), so an unchanged check costs no lasting space there.
ALTER TABLE domains SET (fillfactor = 70);

-- A changed check keeps the monitor's summary of it (the "previous check" of the next one) and
-- the comparison events that made it a change.
ALTER TABLE checks
    ADD COLUMN summary jsonb,
    ADD COLUMN events jsonb NOT NULL DEFAULT '[]';

-- An unchanged repeat keeps only what the latency charts need (~80 bytes with its index entry);
-- the retention job folds old ones into check_rollups.
CREATE TABLE check_repeats (
    domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    checked_at timestamptz NOT NULL,
    latency_ms integer NOT NULL
);
CREATE INDEX check_repeats_domain_time ON check_repeats (domain_id, checked_at);
