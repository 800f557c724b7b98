-- What the crawler saw: every distinct file once, one row per check, roll-ups of old repeats.

-- Content-addressed AASA files: one row per distinct file ever seen, however many checks saw it.
CREATE TABLE aasa_versions (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    sha256 text NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    body bytea NOT NULL,
    size integer NOT NULL CHECK (size >= 0),
    first_seen_at timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE checks (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    -- Makes writing a result idempotent: a check written twice after a crash is stored once
    -- (e.g. the lease's worker id and lease time).
    attempt_key text NOT NULL,
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    verdict text CHECK (verdict IN ('pass', 'warn', 'fail')),
    -- The file each location served (NULL: none, e.g. unreachable or not JSON).
    origin_version_id bigint REFERENCES aasa_versions (id),
    root_version_id bigint REFERENCES aasa_versions (id),
    cdn_version_id bigint REFERENCES aasa_versions (id),
    -- Per location (wellKnown, root, cdn): status, headers, redirect, TLS facts, timings, error.
    transport jsonb NOT NULL DEFAULT '{}',
    findings jsonb NOT NULL DEFAULT '[]',
    -- Expectation results: app IDs present per service, each watched URL's outcome.
    expectations jsonb NOT NULL DEFAULT '{}',
    -- Anything differs from the previous check (version, verdict, findings, alert state): kept forever.
    changed boolean NOT NULL DEFAULT false,
    -- Total time of the origin fetch, for sparklines without unpacking transport.
    latency_ms integer,
    UNIQUE (domain_id, attempt_key)
);

CREATE INDEX checks_domain_time ON checks (domain_id, started_at DESC);
CREATE INDEX checks_domain_changes ON checks (domain_id, started_at DESC) WHERE changed;

-- Unchanged repeats rolled up after the retention age: counts, first/last time, latency summary.
CREATE TABLE check_rollups (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    first_check_at timestamptz NOT NULL,
    last_check_at timestamptz NOT NULL,
    check_count integer NOT NULL CHECK (check_count > 0),
    verdict text CHECK (verdict IN ('pass', 'warn', 'fail')),
    origin_version_id bigint REFERENCES aasa_versions (id),
    cdn_version_id bigint REFERENCES aasa_versions (id),
    latency_min_ms integer,
    latency_max_ms integer,
    latency_sum_ms bigint,
    latency_p95_ms integer
);

CREATE INDEX check_rollups_domain_time ON check_rollups (domain_id, first_check_at DESC);

-- The overview reads each domain's latest state without scanning checks.
ALTER TABLE domains
    ADD COLUMN last_check_id bigint REFERENCES checks (id) ON DELETE SET NULL,
    ADD COLUMN last_checked_at timestamptz,
    ADD COLUMN last_verdict text CHECK (last_verdict IN ('pass', 'warn', 'fail')),
    ADD COLUMN last_changed_at timestamptz;

CREATE INDEX domains_last_verdict ON domains (last_verdict);
