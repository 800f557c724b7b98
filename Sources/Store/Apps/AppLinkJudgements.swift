import Foundation
import Vocabulary

/// A link of an app as the counts read it: where its domain stands in host order, and the state it
/// was last judged in (`app_links.judged_state`, migration 0058) while that judgement is current.
public struct AppLinkStanding: Sendable, Equatable {
    public var appID: Int64
    public var domainID: Int64
    public var platform: Platform
    public var service: Service
    /// The kept judgement; nil when its domain moved on since (a newer changed check, other
    /// expectation results) or the link was never judged: judge it again. `.never` means it could not
    /// be judged (no check yet, its platform not fetched yet).
    public var judged: DomainState?
    /// A check of the domain is requested or running (the cell of a link that could not be judged
    /// reads "checking" then).
    public var checking: Bool

    /// The state the counts show: a link that could not be judged is "checking" while a check runs.
    public var state: DomainState? {
        judged == .never && checking ? .checking : judged
    }
}

/// A link's state as judged against its domain's latest changed check, with what it was judged
/// against (`AppLinkLatest.link.lastCheckID` and `.digest`).
public struct AppLinkJudgement: Sendable {
    public var appID: Int64
    public var domainID: Int64
    public var platform: Platform
    public var service: Service
    /// `.checking` is stored as `.never`: whether a check runs is read when counting.
    public var state: DomainState
    public var checkID: Int64?
    public var digest: Int64

    public init(appID: Int64, domainID: Int64, platform: Platform, service: Service, state: DomainState, checkID: Int64?, digest: Int64) {
        self.appID = appID
        self.domainID = domainID
        self.platform = platform
        self.service = service
        self.state = state
        self.checkID = checkID
        self.digest = digest
    }
}

extension AppStore {
    /// What besides the latest changed check decides a link's judgement: the domain's verdict (none:
    /// not judged) and its current expectation results, re-measured when an app or the form changes
    /// them without a new check. jsonb's own 64-bit hash (equal values hash equal), seeded with the
    /// verdict's: md5 of the text cost 7 ms for an app's 2,000 links at 1M domains (migration 0059).
    static var judgementDigest: SQL {
        "jsonb_hash_extended(coalesce(d.last_expectations, 'null'::jsonb), hashtext(coalesce(d.last_verdict, '')))"
    }

    /// Every link of an app (nil: of every app) in host order, with its kept judgement where it is
    /// current: a light row per link (the domain row's columns, no check), so counting an app's
    /// thousand links costs an index walk, not a thousand checks' JSON (issue #17).
    public func appLinkStandings(appID: Int64? = nil) throws -> [AppLinkStanding] {
        try rows("""
            SELECT l.app_id, l.domain_id, l.platform, l.service,
                   (d.check_requested_at IS NOT NULL OR coalesce(d.lease_until > now(), false)) AS checking,
                   CASE WHEN l.judged_check_id IS NOT DISTINCT FROM d.last_check_id AND l.judged_digest =
            """ + Self.judgementDigest + """
             THEN l.judged_state END AS judged
            FROM app_links l JOIN domains d ON d.id = l.domain_id
            WHERE $1::bigint IS NULL OR l.app_id = $1
            ORDER BY l.app_id, d.display_name, d.wildcard, l.domain_id, l.platform, l.service
            """, appID).map {
            AppLinkStanding(appID: try $0.decode("app_id"), domainID: try $0.decode("domain_id"), platform: try $0.decode("platform"),
                            service: try $0.decode("service"), judged: try $0.decode("judged"), checking: try $0.decode("checking"))
        }
    }

    /// The links of these domains (of one app, or of every app) with each domain's latest changed
    /// check and the digest to judge them against: what the page folds and shows, and what has to be
    /// judged again.
    public func appLinksWithLatestCheck(appID: Int64?, domainIDs: [Int64]) throws -> [AppLinkLatest] {
        guard !domainIDs.isEmpty else { return [] }
        var reader = LinkEvidenceReader()
        return try rows(Self.selectLinks + ", l.app_id, " + LinkEvidence.columns + ", " + Self.judgementDigest + """
             AS digest
             FROM app_links l JOIN domains d ON d.id = l.domain_id LEFT JOIN checks c ON c.id = d.last_check_id
            WHERE ($1::bigint IS NULL OR l.app_id = $1) AND l.domain_id = ANY($2::bigint[])
            ORDER BY l.app_id, d.display_name, d.wildcard, l.domain_id, l.platform, l.service
            """, appID, SQLArray(domainIDs)).map { row in
            let hasCheck: Int64? = try row.decode("check_id")
            return AppLinkLatest(appID: try row.decode("app_id"), link: try reader.link(row),
                                 latest: hasCheck == nil ? nil : try reader.read(row), digest: try row.decode("digest"))
        }
    }

    /// Stores judgements. One judged from a read the domain has since moved past carries that read's
    /// stamp, so it is not current and the next reader judges the link again.
    public func saveAppLinkJudgements(_ judgements: [AppLinkJudgement]) throws {
        guard !judgements.isEmpty else { return }
        try execute("""
            UPDATE app_links l SET judged_state = j.state, judged_check_id = j.check_id, judged_digest = j.digest
            FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[])
                 AS j(app_id, domain_id, platform, service, state, check_id, digest)
            WHERE l.app_id = j.app_id AND l.domain_id = j.domain_id AND l.platform = j.platform AND l.service = j.service
            """, SQLArray(judgements.map(\.appID)), SQLArray(judgements.map(\.domainID)), SQLArray(judgements.map(\.platform)),
            SQLArray(judgements.map(\.service)), SQLArray(judgements.map { $0.state == .checking ? DomainState.never : $0.state }),
            SQLArray(judgements.map(\.checkID)), SQLArray(judgements.map(\.digest)))
    }

    /// The first domain of the app after `domainID` in host order, for keyset paging when that domain
    /// no longer belongs to the app: `.none` when the id names no domain, `.some(nil)` when none follows.
    public func appDomain(appID: Int64, after domainID: Int64) throws -> Int64?? {
        guard try firstRow("SELECT 1 AS found FROM domains WHERE id = $1", domainID) != nil else { return .none }
        let next: Int64? = try firstRow("""
            SELECT l.domain_id FROM app_links l JOIN domains d ON d.id = l.domain_id, domains c
            WHERE c.id = $2 AND l.app_id = $1 AND (d.display_name, d.wildcard, d.id) > (c.display_name, c.wildcard, c.id)
            ORDER BY d.display_name, d.wildcard, d.id LIMIT 1
            """, appID, domainID)?.decode("domain_id")
        return .some(next)
    }
}
