-- What the scheduler, the check pipeline and the alert state machine need on top of the initial schema.

-- Scheduling and the remembered state of each domain (Monitor.MonitorState as JSON: the previous
-- check's summary and the alert streaks), written in the same transaction as each check.
ALTER TABLE domains
  ADD COLUMN IF NOT EXISTS check_requested_at timestamptz,
  ADD COLUMN IF NOT EXISTS lease_check_id uuid,
  ADD COLUMN IF NOT EXISTS check_round bigint NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS monitor_state jsonb,
  ADD COLUMN IF NOT EXISTS last_check_at timestamptz,
  ADD COLUMN IF NOT EXISTS last_verdict text,
  ADD COLUMN IF NOT EXISTS last_version_sha256 text,
  ADD COLUMN IF NOT EXISTS last_changed_at timestamptz,
  ADD COLUMN IF NOT EXISTS alert_open_after integer,
  ADD COLUMN IF NOT EXISTS alert_resolve_after integer;

-- Each check rewrites its domain's row; room in the page keeps those updates HOT (no index churn).
ALTER TABLE domains SET (fillfactor = 70);

-- The claim statement walks these in order and stops at its LIMIT.
CREATE INDEX IF NOT EXISTS domains_due ON domains (next_check_at) WHERE NOT paused;
CREATE INDEX IF NOT EXISTS domains_check_requested ON domains (check_requested_at)
  WHERE check_requested_at IS NOT NULL AND NOT paused;

-- Checks that changed something keep a full row in `checks`; unchanged repeats keep only what the
-- latency charts need, so storage grows with changes rather than with time.
ALTER TABLE checks
  ADD COLUMN IF NOT EXISTS latency_ms integer,
  ADD COLUMN IF NOT EXISTS summary jsonb,
  ADD COLUMN IF NOT EXISTS events jsonb NOT NULL DEFAULT '[]';
CREATE INDEX IF NOT EXISTS checks_domain_time ON checks (domain_id, started_at);

CREATE TABLE IF NOT EXISTS check_repeats (
  domain_id bigint NOT NULL REFERENCES domains ON DELETE CASCADE,
  checked_at timestamptz NOT NULL,
  latency_ms integer NOT NULL
);
CREATE INDEX IF NOT EXISTS check_repeats_domain_time ON check_repeats (domain_id, checked_at);

-- Repeats older than the retention age, folded into one row per domain and day.
CREATE TABLE IF NOT EXISTS check_rollups (
  domain_id bigint NOT NULL REFERENCES domains ON DELETE CASCADE,
  day date NOT NULL,
  repeat_count integer NOT NULL,
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  latency_min_ms integer NOT NULL,
  latency_avg_ms integer NOT NULL,
  latency_max_ms integer NOT NULL,
  PRIMARY KEY (domain_id, day)
);

-- Alerts: one row per incident; the open one per (domain, rule, subject) is unique.
ALTER TABLE alerts
  ADD COLUMN IF NOT EXISTS subject text NOT NULL DEFAULT '',
  ADD COLUMN IF NOT EXISTS severity text NOT NULL DEFAULT 'critical',
  ADD COLUMN IF NOT EXISTS summary text NOT NULL DEFAULT '';
CREATE UNIQUE INDEX IF NOT EXISTS alerts_one_open ON alerts (domain_id, rule, subject) WHERE state = 'open';
