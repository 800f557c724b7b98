-- When each domain's secondary requests were last made: Apple's CDN, Google's Digital Asset Links
-- API, and the comparisons (the file fetched with other user agents, Apple's root location). Each has
-- its own cadence (the pipeline's SecondaryCadence); keeping the times on the domain means a restarted
-- worker does not ask everything again at once. NULL: never asked (every domain before this migration),
-- so the first check asks. Nullable columns without a default: adding them rewrites no row.
ALTER TABLE domains
  ADD COLUMN cdn_asked_at timestamptz,
  ADD COLUMN google_asked_at timestamptz,
  ADD COLUMN compared_at timestamptz;
