-- Domains to watch and what their owners expect of them.

CREATE TABLE domains (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- ASCII (punycode), lower case, without a "*." prefix; the wildcard flag says whether it had one.
    host text NOT NULL CHECK (host = lower(host) AND host ~ '^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$'),
    -- The Unicode form people typed and read ("bücher.example").
    display_name text NOT NULL,
    wildcard boolean NOT NULL DEFAULT false,
    interval_seconds integer NOT NULL DEFAULT 3600 CHECK (interval_seconds >= 60),
    next_check_at timestamptz NOT NULL DEFAULT now(),
    -- Set by "check now"; the scheduler takes these first and clears it.
    check_requested_at timestamptz,
    -- A worker's claim on the domain; an expired lease makes the domain due again.
    lease_until timestamptz,
    leased_by text,
    paused boolean NOT NULL DEFAULT false,
    -- Backoff for unreachable domains: the next interval grows with the failures in a row.
    consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
    -- Public SVG badge at /badge/HOST.svg only when the owner opts in.
    badge_enabled boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (host, wildcard)
);

-- The scheduler's claim: due, not paused, ordered by due time.
CREATE INDEX domains_due ON domains (next_check_at) WHERE NOT paused;
-- "Check now" requests jump the queue.
CREATE INDEX domains_check_requested ON domains (check_requested_at) WHERE check_requested_at IS NOT NULL;
-- Overview search by display name.
CREATE INDEX domains_display_name ON domains (lower(display_name) text_pattern_ops);

-- App IDs (TEAMID.bundle.id) that must be present in a service of the domain's AASA file.
CREATE TABLE expected_app_ids (
    domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    service text NOT NULL CHECK (service IN ('applinks', 'webcredentials', 'appclips', 'activitycontinuation')),
    app_id text NOT NULL CHECK (app_id ~ '^[A-Za-z0-9]+\.[A-Za-z0-9.*-]+$'),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (domain_id, service, app_id)
);

-- URLs whose outcome is watched: they must open a given app, or must stay in the browser.
CREATE TABLE watched_urls (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    url text NOT NULL,
    expected_outcome text NOT NULL CHECK (expected_outcome IN ('opens-app', 'stays-in-browser')),
    expected_app_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (domain_id, url),
    CHECK ((expected_outcome = 'opens-app') = (expected_app_id IS NOT NULL))
);

-- Instance-wide settings (SMTP, base URL, defaults), one value per key.
CREATE TABLE settings (
    key text PRIMARY KEY,
    value text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
