import Foundation
import Vocabulary

/// What one changed check of a domain says that an app link is judged by: Apple's findings and
/// expectation results, and Android's side.
public struct LinkEvidence: Sendable, RowDecodable {
    public var checkID: Int64
    public var startedAt: Date
    public var findings: [Finding]
    public var expectations: ExpectationResults
    /// nil when the check did not fetch Android.
    public var android: AndroidResult?
    /// The assetlinks.json the origin served at that check, for matching watched URLs; nil when none.
    public var androidVersionSHA256: String?

    enum CodingKeys: String, CodingKey {
        case checkID, startedAt, findings, expectations, android, androidVersionSHA256 = "android_sha"
    }

    static let columns: SQL = """
        c.id AS check_id, c.started_at, c.findings, c.expectations, c.android,
        (SELECT sha256 FROM association_versions WHERE id = c.android_version_id) AS android_sha
        """
}

/// Reads many rows of `LinkEvidence.columns`, decoding each distinct stored JSON text once: the
/// customer domains of a platform's app mostly serve the same file with the same findings, and
/// decoding the same documents once per link was most of the app page's and /metrics' time at a
/// thousand links (issue #17: /metrics 1.1-2.5 s at 1M domains, its SQL 52 ms). jsonb's text output is canonical, so equal values are equal texts.
struct LinkEvidenceReader {
    private var findings: [String: [Finding]] = [:]
    private var expectations: [String: ExpectationResults] = [:]
    private var android: [String: AndroidResult] = [:]

    mutating func read(_ row: Row) throws -> LinkEvidence {
        let androidText: String? = try row.decode("android")
        return LinkEvidence(checkID: try row.decode("check_id"), startedAt: try row.decode("started_at"),
                            findings: try Self.once(&findings, row, "findings"),
                            expectations: try Self.once(&expectations, row, "expectations"),
                            android: try androidText.map { _ in try Self.once(&android, row, "android") },
                            androidVersionSHA256: try row.decode("android_sha"))
    }

    /// The link's record, its domain's `last_expectations` decoded once per distinct text as well.
    mutating func link(_ row: Row) throws -> AppLinkRecord {
        let text: String? = try row.decode("last_expectations")
        var link = try AppLinkRecord(row: row.withNull("last_expectations"))
        link.lastExpectations = try text.map { _ in try Self.once(&expectations, row, "last_expectations") }
        return link
    }

    private static func once<T: Decodable>(_ decoded: inout [String: T], _ row: Row, _ column: String) throws -> T {
        let text: String = try row.decode(column)
        if let value = decoded[text] { return value }
        let value: T = try row.decodeJSON(column)   // a document that does not decode names its column
        decoded[text] = value
        return value
    }
}

/// The run of equal verdicts an app link is in, through the newest changed check folded in
/// (`app_link_runs`): its start is the link's "since when".
public struct AppLinkRun: Sendable, Hashable {
    public var domainID: Int64
    public var platform: Platform
    public var service: Service
    public var throughCheckID: Int64
    /// nil: that check did not measure the link's platform.
    public var verdict: Verdict?
    public var since: Date

    public init(domainID: Int64, platform: Platform, service: Service, throughCheckID: Int64, verdict: Verdict?, since: Date) {
        self.domainID = domainID
        self.platform = platform
        self.service = service
        self.throughCheckID = throughCheckID
        self.verdict = verdict
        self.since = since
    }
}

/// A link of some app with its domain's latest changed check, for the by-app counts.
public struct AppLinkLatest: Sendable {
    public var appID: Int64
    public var link: AppLinkRecord
    /// nil before the domain's first check.
    public var latest: LinkEvidence?
    /// What else the link's judgement depends on, as read with it (`appLinksWithLatestCheck(appID:domainIDs:)`).
    public var digest: Int64? = nil
}

extension AppStore {
    /// The runs stored for an app's links (a link without one has never been folded).
    /// With `domainIDs`, only those domains' runs.
    public func appLinkRuns(appID: Int64, domainIDs: [Int64]? = nil) throws -> [AppLinkRun] {
        try rows("""
            SELECT domain_id, platform, service, through_check_id, verdict, since FROM app_link_runs
            WHERE app_id = $1 AND ($2::bigint[] IS NULL OR domain_id = ANY($2::bigint[]))
            """, appID, domainIDs.map { SQLArray($0) }).map {
            AppLinkRun(domainID: try $0.decode("domain_id"), platform: try $0.decode("platform"), service: try $0.decode("service"),
                       throughCheckID: try $0.decode("through_check_id"), verdict: try $0.decode("verdict"), since: try $0.decode("since"))
        }
    }

    /// The domain's changed checks from `fromCheckID` on (that check included), oldest first; every
    /// changed check when `fromCheckID` is nil or no longer exists. Unchanged repeats say what the
    /// changed check before them said, so they cannot start or end a run.
    public func linkEvidence(domainID: Int64, fromCheckID: Int64?) throws -> [LinkEvidence] {
        try rows("SELECT " + LinkEvidence.columns + """
             FROM checks c WHERE c.domain_id = $1 AND c.changed
              AND c.started_at >= coalesce((SELECT started_at FROM checks WHERE id = $2 AND domain_id = $1), '-infinity')
            ORDER BY c.started_at, c.id
            """, domainID, fromCheckID).map(LinkEvidence.init(row:))
    }

    /// `linkEvidence(domainID:fromCheckID:)` for several domains in one query, by domain: an app page
    /// of 50 domains was 50 round trips before (issue #17).
    public func linkEvidence(domains: [(domainID: Int64, fromCheckID: Int64?)]) throws -> [Int64: [LinkEvidence]] {
        guard !domains.isEmpty else { return [:] }
        var evidence: [Int64: [LinkEvidence]] = [:]
        var reader = LinkEvidenceReader()
        for row in try rows("SELECT i.domain_id AS evidence_domain_id, " + LinkEvidence.columns + """
             FROM unnest($1::bigint[], $2::bigint[]) AS i(domain_id, from_id)
            JOIN checks c ON c.domain_id = i.domain_id AND c.changed
              AND c.started_at >= coalesce((SELECT started_at FROM checks WHERE id = i.from_id AND domain_id = i.domain_id), '-infinity')
            ORDER BY i.domain_id, c.started_at, c.id
            """, SQLArray(domains.map { $0.domainID }), SQLArray(domains.map { $0.fromCheckID })) {
            evidence[try row.decode("evidence_domain_id"), default: []].append(try reader.read(row))
        }
        return evidence
    }

    /// Moves the runs forward. A run folded by a concurrent reader through a newer check is kept:
    /// both folded the same checks in the same order, so the newer one says more.
    public func saveAppLinkRuns(appID: Int64, _ runs: [AppLinkRun]) throws {
        for run in runs {
            try execute("""
                INSERT INTO app_link_runs (app_id, domain_id, platform, service, through_check_id, verdict, since)
                SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM app_links WHERE app_id = $1 AND domain_id = $2
                                                               AND platform = $3 AND service = $4)
                ON CONFLICT (app_id, domain_id, platform, service) DO UPDATE
                  SET through_check_id = EXCLUDED.through_check_id, verdict = EXCLUDED.verdict, since = EXCLUDED.since
                  WHERE coalesce((SELECT started_at FROM checks WHERE id = app_link_runs.through_check_id), '-infinity')
                        <= coalesce((SELECT started_at FROM checks WHERE id = EXCLUDED.through_check_id), 'infinity')
                """, appID, run.domainID, run.platform, run.service, run.throughCheckID, run.verdict, run.since)
        }
    }

    /// Every app's links (or one app's) with their domain's latest changed check (one row per link),
    /// for the by-app counts of the overview, the API and /metrics, and the app page's summary.
    public func appLinksWithLatestCheck(appID: Int64? = nil) throws -> [AppLinkLatest] {
        var reader = LinkEvidenceReader()
        return try rows(Self.selectLinks + ", l.app_id, " + LinkEvidence.columns + """
             FROM app_links l JOIN domains d ON d.id = l.domain_id LEFT JOIN checks c ON c.id = d.last_check_id
            WHERE $1::bigint IS NULL OR l.app_id = $1
            ORDER BY l.app_id, d.display_name, d.wildcard, l.platform, l.service
            """, appID).map { row in
            let hasCheck: Int64? = try row.decode("check_id")
            return AppLinkLatest(appID: try row.decode("app_id"), link: try reader.link(row),
                                 latest: hasCheck == nil ? nil : try reader.read(row))
        }
    }
}
