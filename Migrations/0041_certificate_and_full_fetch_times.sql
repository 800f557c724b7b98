-- When each domain's certificate was last read on a full TLS handshake, and when its own files were
-- last fetched unconditionally (without If-None-Match). Between those, a check may ride on a kept
-- connection or a resumed TLS session (no certificate sent) and ask conditionally (a 304 carries the
-- stored file); each has its own cadence (the pipeline's SecondaryCadence), and keeping the times on the
-- domain means a restarted worker does not redo every handshake at once. NULL: never (every domain
-- before this migration), so the first check does both. Nullable without a default: no row is rewritten.
ALTER TABLE domains
  ADD COLUMN certificate_read_at timestamptz,
  ADD COLUMN full_fetch_at timestamptz;
