-- The overview's sparkline: the latest 20 response times of each domain on the page. Read from the
-- history tables, that cost one index probe per branch but every one of the domain's repeats in
-- check_repeats (its index is on domain_id alone, to keep a repeat small, so the newest 20 can only
-- be found by reading them all): 10,080 heap rows per domain checked every minute, 0.7 s for a page
-- of 50. Every check already updates its domain row, so it keeps the list there: newest first, in
-- milliseconds up to 32,767, -1 where a check measured no time, -2 for no check yet.
-- Fixed width from the start, 20 smallints: a list that grew with each check would widen the row
-- at every update for the first 20 checks (measured: 13 more bytes per check over 4 rounds).
ALTER TABLE domains ADD COLUMN recent_latencies smallint[] NOT NULL DEFAULT array_fill(-2::smallint, ARRAY[20]);

UPDATE domains d SET recent_latencies = (ARRAY(
    SELECT least(l, 32767)::smallint FROM (
      (SELECT c.started_at AS t, coalesce(c.latency_ms, -1) AS l FROM checks c WHERE c.domain_id = d.id
         ORDER BY c.started_at DESC LIMIT 20)
      UNION ALL
      (SELECT r.checked_at, r.latency_ms FROM check_repeats r WHERE r.domain_id = d.id ORDER BY r.checked_at DESC LIMIT 20)
      UNION ALL
      (SELECT u.last_check_at, coalesce(u.latency_sum_ms / u.check_count, -1)::int FROM check_rollups u WHERE u.domain_id = d.id
         ORDER BY u.day DESC LIMIT 20)
    ) latest ORDER BY t DESC LIMIT 20) || array_fill(-2::smallint, ARRAY[20]))[1:20];
