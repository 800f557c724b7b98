/// `domain_stats` (migration 0012): what every check adds to, kept off the domain row so that the
/// counting updates are HOT. The writers (`record`, `recordRepeats`, `insertCheck`) each join the
/// checks they write as `c (domain_id, verdict, latency_ms, newest)` and apply this one SET list.
enum DomainStats {
    /// Per-verdict counters, the latency histogram, and the sparkline's latest 20 (only for a
    /// check that is the domain's newest: a row written out of order counts but is not drawn last).
    /// Ends with a line break, so the writer's FROM can follow.
    static var countCheck: SQL {
        """
        UPDATE domain_stats s SET
          checks_passed = s.checks_passed + (c.verdict = 'pass')::int,
          checks_warned = s.checks_warned + (c.verdict = 'warn')::int,
          checks_failed = s.checks_failed + (c.verdict = 'fail')::int,
          latency_buckets[aasa_latency_bucket(c.latency_ms)] = s.latency_buckets[aasa_latency_bucket(c.latency_ms)] + 1,
          latency_sum_ms = s.latency_sum_ms + coalesce(c.latency_ms, 0),
          recent_latencies = CASE WHEN c.newest
            THEN (ARRAY[least(coalesce(c.latency_ms, -1), 32767)::smallint] || s.recent_latencies)[1:20]
            ELSE s.recent_latencies END

        """
    }
}
