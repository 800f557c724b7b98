/// A domain leased to one worker for one check.
public struct LeasedDomain: Sendable, Hashable {
    public var id: Int64
    public var host: String
    public var intervalSeconds: Int?
    /// Generated at claim time: the check's id, and the proof that the lease is still this worker's
    /// when the result is written (a result with a stale id is dropped, never written twice).
    public var checkID: String
    /// How many checks the domain has had; seeds the scheduler's jitter.
    public var round: Int64
    /// The monitor's remembered state (JSON), nil before the first check.
    public var monitorState: String?
    public var alertOpenAfter: Int?
    public var alertResolveAfter: Int?
}

extension Queryable {
    /// Leases up to `limit` due domains to `worker` for `lease`, "check now" requests first. One short
    /// statement: rows another worker holds are skipped, not waited for, and a crashed worker's
    /// leases simply expire, which makes its domains due again.
    public func leaseDueDomains(limit: Int, lease: Duration, worker: String) throws -> [LeasedDomain] {
        try rows(Self.leaseDue, limit, Int(lease.components.seconds), worker).map { row in
            LeasedDomain(id: try row.decode("id"), host: try row.decode("host"),
                         intervalSeconds: try row.decode("interval_seconds"),
                         checkID: try row.decode("lease_check_id"), round: try row.decode("check_round"),
                         monitorState: try row.decode("monitor_state"),
                         alertOpenAfter: try row.decode("alert_open_after"),
                         alertResolveAfter: try row.decode("alert_resolve_after"))
        }
    }

    /// Asks for these hosts to be checked at once; returns the hosts that are registered. The
    /// caller NOTIFYs `check_now` so a sleeping scheduler wakes up.
    public func requestCheckNow(hosts: [String]) throws -> [String] {
        try rows(Self.requestNow, SQLArray(hosts)).map { try $0.decode("host") }
    }

    /// Gives a lease back without a result (shutdown): the domain is due again at once.
    public func releaseLease(domainID: Int64, checkID: String) throws {
        try execute("UPDATE domains SET lease_until = NULL, leased_by = NULL, lease_check_id = NULL WHERE id = $1 AND lease_check_id = $2::uuid",
                    domainID, checkID)
    }

    /// Two index walks (requested first, then by due time), each stopping at its LIMIT; the lease
    /// keeps `next_check_at` due, so a lease that expires makes the domain due again by itself.
    static var leaseDue: SQL {
        """
        WITH requested AS (
          SELECT id FROM domains
          WHERE check_requested_at IS NOT NULL AND NOT paused AND (lease_until IS NULL OR lease_until < now())
          ORDER BY check_requested_at LIMIT $1 FOR UPDATE SKIP LOCKED
        ), due AS (
          SELECT id FROM domains
          WHERE next_check_at <= now() AND NOT paused AND (lease_until IS NULL OR lease_until < now())
          ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED
        ), picked AS (
          (SELECT id FROM requested UNION SELECT id FROM due) LIMIT $1
        )
        UPDATE domains d
        SET lease_until = now() + make_interval(secs => $2), leased_by = $3, lease_check_id = gen_random_uuid(),
            next_check_at = LEAST(d.next_check_at, now()), check_requested_at = NULL
        FROM picked WHERE d.id = picked.id
        RETURNING d.id, d.host, d.interval_seconds, d.lease_check_id::text AS lease_check_id, d.check_round,
                  d.monitor_state::text AS monitor_state, d.alert_open_after, d.alert_resolve_after
        """
    }

    static var requestNow: SQL {
        """
        UPDATE domains SET check_requested_at = COALESCE(check_requested_at, now())
        WHERE host = ANY($1::text[])
        RETURNING host
        """
    }
}
