import Vocabulary

/// A domain leased to one worker for one check.
public struct LeasedDomain: Sendable, Hashable {
    public var id: Int64
    /// The name whose files are fetched (`domains.host`, the bare name of a `*.` registration), read
    /// back typed: a stored host that is not a host name fails the lease's decoding, never a check
    /// (`claimDueDomains` sets such a row apart).
    public var host: HostName
    public var displayName: String
    public var intervalSeconds: Int
    /// Generated at claim time: becomes the check's `attempt_key`, and proves when the result is
    /// written that the lease is still this worker's (a stale key writes nothing, so no check counts twice).
    public var attemptKey: String
    /// How many checks the domain has had; seeds the scheduler's jitter.
    public var round: Int64
    public var consecutiveFailures: Int
    public var alertOpenAfter: Int?
    public var alertResolveAfter: Int?
    /// Which platforms' files this check fetches (`domains.platforms`).
    public var platforms: WatchedPlatforms = .both
    /// When the domain's CDN, Google API and comparisons were last asked (their own cadences).
    public var lastAsked = LastAsked()
    /// Leased because a check was requested ("check now", a registration), not because it was due.
    public var requested = false
    /// Taken from the first-check queue (an import) before its place in the interval came round,
    /// with room the requested and due domains left.
    public var queued = false
    /// Every Apple link of an app that claims the domain names an alternate mode (`?mode=developer`,
    /// `managed`): devices read the file directly, as the check then does (it follows an https
    /// redirect). False without Apple links: Apple's ordinary route, through the CDN.
    public var directRoute = false
}

/// What one claim leased: the domains to check, and the rows that did not read back.
public struct LeaseClaim: Sendable {
    public var leased: [LeasedDomain] = []
    public var unreadable: [UnreadableLease] = []
}

/// A leased row that does not read back as a `LeasedDomain`, with the decoding error.
public struct UnreadableLease: Sendable, Hashable {
    public var id: Int64
    public var reason: String
}

extension DomainStore {
    /// Leases up to `limit` due domains to `worker` for `lease`, "check now" requests first, then the
    /// due ones, then, with the room left, imported domains waiting for their first check (oldest
    /// first). One short statement: rows another worker holds are skipped, not waited for, and a
    /// crashed worker's leases simply expire, which makes its domains due again.
    public func leaseDueDomains(limit: Int, lease: Duration, worker: String) throws -> [LeasedDomain] {
        try claimDueDomains(limit: limit, lease: lease, worker: worker).leased
    }

    /// The due domains leased, and apart those whose stored row does not read back (a host that is not a
    /// host name, written past the registration's rules): one such row must not fail the claim, or every
    /// claim would fail, and roll back, for as long as it is due. The caller defers and reports them
    /// (`deferUnreadable`).
    public func claimDueDomains(limit: Int, lease: Duration, worker: String) throws -> LeaseClaim {
        var claim = LeaseClaim()
        for row in try rows(Self.leaseDue, limit, Int(lease.components.seconds), worker) {
            do {
                claim.leased.append(try Self.leased(row))
            } catch {
                claim.unreadable.append(UnreadableLease(id: try row.decode("id"), reason: "\(error)"))
            }
        }
        return claim
    }

    /// Unreadable leased rows wait one interval, their lease released, instead of coming back with
    /// every lease that expires.
    public func deferUnreadable(_ ids: [Int64]) throws {
        try execute("""
            UPDATE domains SET lease_until = NULL, next_check_at = now() + make_interval(secs => interval_seconds),
                   check_requested_at = NULL, first_check_queued_at = NULL
            WHERE id = ANY($1::bigint[])
            """, SQLArray(ids))
    }

    private static func leased(_ row: Row) throws -> LeasedDomain {
        LeasedDomain(id: try row.decode("id"), host: try row.decodeHost("host", unicode: "display_name"),
                         displayName: try row.decode("display_name"),
                         intervalSeconds: try row.decode("interval_seconds"), attemptKey: try row.decode("lease_attempt_key"),
                         round: try row.decode("check_round"), consecutiveFailures: try row.decode("consecutive_failures"),
                         alertOpenAfter: try row.decode("alert_open_after"),
                         alertResolveAfter: try row.decode("alert_resolve_after"), platforms: try row.decode("platforms"),
                         lastAsked: LastAsked(appleCDN: try row.decode("cdn_asked_at"), googleAPI: try row.decode("google_asked_at"),
                                              comparisons: try row.decode("compared_at"),
                                              certificate: try row.decode("certificate_read_at"), fullFetch: try row.decode("full_fetch_at")),
                         requested: try row.decode("requested"), queued: try row.decode("queued"),
                         directRoute: try row.decode("direct_route"))
    }

    /// Asks for these hosts to be checked at once; returns the hosts that are registered, each with
    /// whether it is paused (and so not flagged: nothing checks it until it is resumed). The caller
    /// NOTIFYs the scheduler's channel so a sleeping scheduler wakes up.
    public func requestCheckNow(hosts: [String]) throws -> [(host: String, paused: Bool)] {
        try rows(Self.requestNow, SQLArray(hosts)).map { (try $0.decode("host"), try $0.decode("paused")) }
    }

    /// Three index walks (requested first, then by due time, then the first-check queue by age), each
    /// stopping at its LIMIT. The queue holds no domain the first two take (it would be taken twice
    /// over and leave the claim short), and only fills what they leave of the limit, so an
    /// import, however large, never takes a due domain's place (migration 0066). The lease leaves
    /// `next_check_at` due, so a lease that expires makes the domain due again by itself.
    static var leaseDue: SQL {
        """
        WITH requested AS (
          SELECT id, check_requested_at AS at FROM domains
          WHERE check_requested_at IS NOT NULL AND NOT paused AND (lease_until IS NULL OR lease_until < now())
          ORDER BY check_requested_at LIMIT $1 FOR UPDATE SKIP LOCKED
        ), due AS (
          SELECT id, next_check_at AS at FROM domains
          WHERE next_check_at <= now() AND NOT paused AND (lease_until IS NULL OR lease_until < now())
          ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED
        ), queued AS (
          SELECT id, first_check_queued_at AS at FROM domains
          WHERE first_check_queued_at IS NOT NULL AND NOT paused AND (lease_until IS NULL OR lease_until < now())
            AND check_requested_at IS NULL AND next_check_at > now()
          ORDER BY first_check_queued_at, id
          LIMIT greatest($1 - (SELECT count(*) FROM requested) - (SELECT count(*) FROM due), 0) FOR UPDATE SKIP LOCKED
        ), picked AS (
          SELECT id, min(queue) AS queue
          FROM (SELECT id, 0 AS queue, at FROM requested UNION ALL SELECT id, 1, at FROM due
                UNION ALL SELECT id, 2, at FROM queued) candidates
          GROUP BY id ORDER BY min(queue), min(at), id LIMIT $1
        )
        UPDATE domains d
        SET lease_until = now() + make_interval(secs => $2), leased_by = $3,
            lease_attempt_key = gen_random_uuid()::text,
            next_check_at = LEAST(d.next_check_at, now()), check_requested_at = NULL, first_check_queued_at = NULL
        FROM picked WHERE d.id = picked.id
        RETURNING d.id, d.host, d.display_name, d.interval_seconds, d.lease_attempt_key, d.check_round,
                  d.consecutive_failures, d.alert_open_after, d.alert_resolve_after, d.platforms, d.cdn_asked_at, d.google_asked_at,
                  d.compared_at, d.certificate_read_at, d.full_fetch_at, picked.queue = 0 AS requested, picked.queue = 2 AS queued,
                  EXISTS (SELECT 1 FROM app_links l WHERE l.domain_id = d.id AND l.platform = 'apple')
                    AND NOT EXISTS (SELECT 1 FROM app_links l WHERE l.domain_id = d.id AND l.platform = 'apple'
                                    AND NOT (l.developer_mode OR l.managed_mode)) AS direct_route
        """
    }

    static var requestNow: SQL {
        """
        UPDATE domains SET check_requested_at = CASE WHEN paused THEN NULL ELSE COALESCE(check_requested_at, now()) END
        WHERE host = ANY($1::text[])
        RETURNING host, paused
        """
    }
}

extension Database {
    /// The claim statement's plan with real timings (EXPLAIN ANALYZE), for the benchmark. It runs in
    /// a transaction that is rolled back, so no lease is taken.
    public func explainLeaseDue(limit: Int, lease: Duration, worker: String) throws -> [String] {
        struct RollBack: Error { var plan: [String] }
        do {
            try withTransaction { connection -> Void in
                let plan = try connection.rows("EXPLAIN (ANALYZE, BUFFERS) " + Self.leaseDue, limit,
                                               Int(lease.components.seconds), worker).map { try $0.decode(0, as: String.self) }
                throw RollBack(plan: plan)
            }
            return []
        } catch let rollBack as RollBack {
            return rollBack.plan
        }
    }
}
