import Vocabulary
import Foundation

/// An unchanged check (same file, verdict, findings, expectations and alert state as the last
/// changed one): all it leaves behind is a `check_repeats` row and the domain's next time.
public struct RepeatRecord: Sendable, Hashable {
    public var domainID: Int64
    /// The lease's key: the repeat is written only while the domain still carries it.
    public var attemptKey: String
    public var finishedAt: Date
    /// The check's verdict, also written as the domain's state (`domains.last_verdict`): the
    /// pipeline batches only repeats whose domain verdict is the check's, where the two agree.
    public var verdict: Verdict
    /// Each platform's state after the check (`DomainVerdict.apple` / `.android`), written with it.
    public var states: PlatformStates
    public var latencyMilliseconds: Int
    public var consecutiveFailures: Int
    public var nextCheckAt: Date
    /// The files the check saw (each platform's origin file, Apple's CDN copy), already stored by an
    /// earlier check; their `last_seen_at` moves at most hourly.
    public var versions: [VersionKey]
    /// The secondary requests this check made (now) and did not (nil: the stored time stays).
    public var asked: LastAsked

    public init(domainID: Int64, attemptKey: String, finishedAt: Date, verdict: Verdict, states: PlatformStates, latencyMilliseconds: Int,
                consecutiveFailures: Int, nextCheckAt: Date, versions: [VersionKey], asked: LastAsked = LastAsked()) {
        self.domainID = domainID
        self.attemptKey = attemptKey
        self.finishedAt = finishedAt
        self.verdict = verdict
        self.states = states
        self.latencyMilliseconds = latencyMilliseconds
        self.consecutiveFailures = consecutiveFailures
        self.nextCheckAt = nextCheckAt
        self.versions = versions
        self.asked = asked
    }
}

extension CheckStore {
    /// Writes many unchanged checks in ONE statement (atomic on its own, no transaction needed):
    /// the domains' next times, their repeat rows, the versions' hourly `last_seen_at`. Returns the
    /// ids of the domains whose repeat was written; a record whose lease is no longer its own (taken
    /// over, or written already) writes nothing, so a repeat written twice counts once.
    ///
    /// One round trip for a whole batch instead of six per check: in steady state nearly every
    /// check is a repeat, and the per-check round trips were what the pipeline spent beyond the fetch.
    public func recordRepeats(_ records: [RepeatRecord]) throws -> Set<Int64> {
        guard !records.isEmpty else { return [] }
        // Rows locked in id order: two batches that share a domain (a stale result) cannot deadlock.
        let sorted = records.sorted { $0.domainID < $1.domainID }
        let seen = sorted.flatMap { record in record.versions.map { ($0, record.finishedAt) } }
        let appleStates = SQLArray(sorted.map(\.states.apple)), androidStates = SQLArray(sorted.map(\.states.android))
        let written = try rows(Self.recordRepeats,
                               SQLArray(sorted.map(\.domainID)), SQLArray(sorted.map(\.attemptKey)),
                               SQLArray(sorted.map(\.finishedAt)), SQLArray(sorted.map(\.verdict)),
                               SQLArray(sorted.map(\.latencyMilliseconds)), SQLArray(sorted.map(\.consecutiveFailures)),
                               SQLArray(sorted.map(\.nextCheckAt)), SQLArray(seen.map(\.0.platform)), SQLArray(seen.map(\.0.sha256)),
                               SQLArray(seen.map(\.1)), SQLArray(sorted.map(\.asked.appleCDN)),
                               SQLArray(sorted.map(\.asked.googleAPI)), SQLArray(sorted.map(\.asked.comparisons)),
                               SQLArray(sorted.map(\.asked.certificate)), SQLArray(sorted.map(\.asked.fullFetch)),
                               appleStates, androidStates)
        return Set(try written.map { try $0.decode(0, as: Int64.self) })
    }

    static var recordRepeats: SQL {
        """
        WITH input AS (
          SELECT * FROM unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::text[], $5::int[], $6::int[], $7::timestamptz[],
                               $11::timestamptz[], $12::timestamptz[], $13::timestamptz[], $14::timestamptz[], $15::timestamptz[],
                               $16::text[], $17::text[])
            AS t(domain_id, attempt_key, finished_at, verdict, latency_ms, failures, next_check_at, cdn_at, google_at, compared_at,
                 certificate_at, full_fetch_at, apple_state, android_state)
        ), done AS (
          UPDATE domains d SET lease_until = NULL, leased_by = NULL, lease_attempt_key = NULL,
            next_check_at = i.next_check_at, check_round = d.check_round + 1, last_checked_at = i.finished_at,
            last_verdict = i.verdict, consecutive_failures = i.failures,
            last_apple_state = i.apple_state, last_android_state = i.android_state,
            cdn_asked_at = COALESCE(i.cdn_at, d.cdn_asked_at), google_asked_at = COALESCE(i.google_at, d.google_asked_at),
            compared_at = COALESCE(i.compared_at, d.compared_at),
            certificate_read_at = COALESCE(i.certificate_at, d.certificate_read_at),
            full_fetch_at = COALESCE(i.full_fetch_at, d.full_fetch_at)
          FROM input i WHERE d.id = i.domain_id AND d.lease_attempt_key = i.attempt_key
          RETURNING d.id, i.finished_at, i.latency_ms, i.verdict
        ), counted AS (
        """ + DomainStats.countCheck + """
          FROM (SELECT id AS domain_id, verdict, latency_ms, true AS newest FROM done) c WHERE s.domain_id = c.domain_id
        ), repeats AS (
          INSERT INTO check_repeats (domain_id, checked_at, latency_ms) SELECT id, finished_at, latency_ms FROM done
        ), touched AS (
          UPDATE association_versions v SET last_seen_at = s.at
          FROM (SELECT platform, sha, max(at) AS at FROM unnest($8::text[], $9::text[], $10::timestamptz[]) AS u(platform, sha, at)
                GROUP BY platform, sha) s
          WHERE v.platform = s.platform AND v.sha256 = s.sha AND v.last_seen_at < s.at - interval '1 hour'
        )
        SELECT id FROM done
        """
    }
}
