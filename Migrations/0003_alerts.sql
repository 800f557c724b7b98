-- Alerts and their delivery: incidents, per-rule streaks, channels, and the outbox.

-- Consecutive failing/passing checks per domain, rule and subject (an app ID, a watched URL, a
-- certificate threshold), so an alert opens after N failures and resolves after M passes, and a
-- restart neither forgets nor repeats.
CREATE TABLE alert_streaks (
    domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    rule text NOT NULL,
    subject text NOT NULL DEFAULT '',
    failing integer NOT NULL DEFAULT 0 CHECK (failing >= 0),
    passing integer NOT NULL DEFAULT 0 CHECK (passing >= 0),
    last_check_id bigint REFERENCES checks (id) ON DELETE SET NULL,
    state jsonb NOT NULL DEFAULT '{}',
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (domain_id, rule, subject)
);

CREATE TABLE alerts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    rule text NOT NULL,
    subject text NOT NULL DEFAULT '',
    -- critical pages people; warning is the lower tier (CDN lag, certificate in 14 days); info is news.
    severity text NOT NULL CHECK (severity IN ('critical', 'warning', 'info')),
    state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'resolved')),
    summary text NOT NULL,
    details jsonb NOT NULL DEFAULT '{}',
    opened_by_check_id bigint REFERENCES checks (id) ON DELETE SET NULL,
    resolved_by_check_id bigint REFERENCES checks (id) ON DELETE SET NULL,
    opened_at timestamptz NOT NULL DEFAULT now(),
    resolved_at timestamptz,
    CHECK ((state = 'resolved') = (resolved_at IS NOT NULL))
);

-- At most one open alert per domain, rule and subject.
CREATE UNIQUE INDEX alerts_one_open ON alerts (domain_id, rule, subject) WHERE state = 'open';
CREATE INDEX alerts_open ON alerts (opened_at DESC) WHERE state = 'open';
CREATE INDEX alerts_domain_time ON alerts (domain_id, opened_at DESC);

CREATE TABLE channels (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('email', 'webhook', 'slack')),
    name text NOT NULL DEFAULT '',
    -- An email address or a URL.
    target text NOT NULL,
    -- Webhook signing secret (Standard Webhooks), shown once when created.
    secret text,
    enabled boolean NOT NULL DEFAULT true,
    -- Alerts below this severity are not sent through the channel.
    min_severity text NOT NULL DEFAULT 'info' CHECK (min_severity IN ('critical', 'warning', 'info')),
    -- Why the channel was switched off by the system (e.g. the receiver answered 410 Gone).
    disabled_reason text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- A channel with no rows here receives alerts of every domain.
CREATE TABLE channel_domains (
    channel_id bigint NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    domain_id bigint NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    PRIMARY KEY (channel_id, domain_id)
);
CREATE INDEX channel_domains_domain ON channel_domains (domain_id);

-- The outbox: one row per alert event and channel, written in the same transaction as the alert
-- change, delivered at least once by any worker.
CREATE TABLE deliveries (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- NULL for a test notification.
    alert_id bigint REFERENCES alerts (id) ON DELETE CASCADE,
    event text NOT NULL CHECK (event IN ('opened', 'resolved', 'reminder', 'published', 'test')),
    channel_id bigint NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
    -- The same on every retry (webhook-id, Message-ID) so receivers can drop repeats.
    idempotency_id text NOT NULL UNIQUE,
    payload jsonb NOT NULL,
    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    lease_until timestamptz,
    leased_by text,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    -- After this, a delivery still failing is given up ('failed').
    give_up_at timestamptz NOT NULL DEFAULT now() + interval '24 hours'
);

CREATE INDEX deliveries_pending ON deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX deliveries_channel_time ON deliveries (channel_id, created_at DESC);
CREATE INDEX deliveries_alert ON deliveries (alert_id);

CREATE TABLE delivery_attempts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id bigint NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    attempted_at timestamptz NOT NULL DEFAULT now(),
    succeeded boolean NOT NULL,
    -- HTTP status or SMTP reply code.
    response_code integer,
    response text,
    error text,
    duration_ms integer
);

CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, attempted_at);
