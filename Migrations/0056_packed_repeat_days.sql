-- A day's unchanged repeats of a domain in one row (issue #17: the database after 30 days of hourly
-- checks at 1,000,000 domains, goal 20 GB). Measured with `ScaleBench seed 10000 --history-domains
-- 10000` and `ScaleBench sizes` before this migration: 22.9 KB per domain-month, of which 8.4 KB
-- the retention week of repeats, 165 check_repeats rows of 51 bytes. A repeat's row holds 16 bytes
-- of data (time, domain, latency) behind a 24-byte tuple header and a 4-byte line pointer, so no
-- narrower row helps; one row per domain and UTC day carries the same values as two arrays for
-- about 16 bytes of row overhead per day instead of 28 per repeat (24 hourly repeats: about 390
-- bytes with the key's index entry, instead of 1,224).
--
-- The retention job packs every repeat before the current UTC day (`aasa_pack_repeats`), so the
-- pipeline keeps appending plain check_repeats rows for today, one cheap INSERT each, and each day
-- is packed once, by the first run after its midnight. Every reader of repeats (the domain page's
-- chart and timeline, the API's history, the roll-up) reads both forms the same.
CREATE TABLE check_repeat_days (
    domain_id integer NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    day date NOT NULL,
    -- The repeats' check_repeats.checked_at and .latency_ms, entry by entry, exactly as written
    -- (microseconds kept). In packing order, which is time order within one packing run; a late
    -- repeat of an already packed day is appended after the others. Readers aggregate, so the
    -- order carries no meaning.
    checked_at timestamptz[] NOT NULL,
    latency_ms integer[] NOT NULL,
    PRIMARY KEY (domain_id, day),
    CHECK (cardinality(checked_at) > 0 AND cardinality(checked_at) = cardinality(latency_ms))
);

-- Moves every check_repeats row before `cutoff` into its domain's day row (merged into a row an
-- earlier run wrote for the same day) and returns how many it moved. One definition for this
-- migration and the retention job (Store's `packRepeats`).
CREATE FUNCTION aasa_pack_repeats(cutoff timestamptz) RETURNS bigint LANGUAGE sql AS $$
  WITH gone AS (
    DELETE FROM check_repeats WHERE checked_at < cutoff RETURNING domain_id, checked_at, latency_ms
  ), days AS (
    SELECT domain_id, (checked_at AT TIME ZONE 'UTC')::date AS day,
           array_agg(checked_at ORDER BY checked_at) AS checked, array_agg(latency_ms ORDER BY checked_at) AS latencies
    FROM gone GROUP BY 1, 2
  ), packed AS (
    INSERT INTO check_repeat_days AS p (domain_id, day, checked_at, latency_ms)
    SELECT domain_id, day, checked, latencies FROM days
    ON CONFLICT (domain_id, day) DO UPDATE SET checked_at = p.checked_at || EXCLUDED.checked_at,
      latency_ms = p.latency_ms || EXCLUDED.latency_ms
  )
  -- A data-modifying WITH runs to completion whether or not it is read.
  SELECT coalesce(sum(cardinality(checked)), 0)::bigint FROM days
$$;

-- The repeats already stored: every day before today's (UTC), as the retention job would have.
SELECT aasa_pack_repeats(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC');
