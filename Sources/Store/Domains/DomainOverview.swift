import Foundation
import Vocabulary

/// The overview's filter, sort and page, as the Store understands them.
public struct OverviewFilter: Sendable, Equatable {
    /// nil for all.
    public var state: DomainState?
    public var search: String
    /// `host`, `state`, `last-check`, `last-change`
    public var sort: String
    public var descending: Bool
    public var limit: Int
    public var offset: Int
    /// nil for all; `apple`: domains watched for Apple; `android`: domains Android counts for (watched
    /// for Android, and the site serves assetlinks.json or an Android app is expected of it).
    public var platform: Platform?

    public init(state: DomainState?, search: String, sort: String, descending: Bool, limit: Int, offset: Int, platform: Platform? = nil) {
        self.state = state
        self.platform = platform
        self.search = search
        self.sort = sort
        self.descending = descending
        self.limit = limit
        self.offset = offset
    }
}

public struct OverviewItem: Sendable {
    public var id: Int64
    public var host: String
    public var displayName: String
    public var state: DomainState
    public var reason: String?
    public var lastCheckedAt: Date?
    public var lastChangedAt: Date?
    /// Latest first.
    public var latencies: [Int?]
    public var openAlerts: Int
    public var platforms: WatchedPlatforms = .both
    /// The latest check's verdict per platform: Apple's file verdict, Android's assetlinks.json verdict;
    /// nil when the platform is not watched, not counted (no file, no app expected) or not checked yet.
    public var appleVerdict: Verdict?
    public var androidVerdict: Verdict?
}

extension DomainStore {
    /// One page of the overview, plus how many domains match and how many are in each state.
    /// State and reason are the domain's (`last_verdict`, `last_reason`: the file's verdict made worse
    /// by unmet expectations); sparkline latencies (`domain_stats.recent_latencies`, kept by every check) and alert counts are
    /// fetched for the page's rows only.
    public func overview(_ f: OverviewFilter) throws -> (items: [OverviewItem], matching: Int, counts: [DomainState: Int]) {
        let pattern = "%" + Self.escapeLike(f.search.lowercased()) + "%"
        let state = f.state?.rawValue ?? ""
        let platform = f.platform?.rawValue ?? ""
        let order: SQL = switch (f.sort, f.descending) {
        case ("host", false): "lower(d.display_name), d.id"
        case ("host", true): "lower(d.display_name) DESC, d.id"
        case ("last-check", false): "d.last_checked_at DESC NULLS LAST, d.id"
        case ("last-check", true): "d.last_checked_at ASC NULLS FIRST, d.id"
        case ("last-change", false): "d.last_changed_at DESC NULLS LAST, d.id"
        case ("last-change", true): "d.last_changed_at ASC NULLS FIRST, d.id"
        case (_, false): "state_rank, lower(d.display_name), d.id"
        case (_, true): "state_rank DESC, lower(d.display_name), d.id"
        }
        let page = try rows("""
            WITH listed AS (
              SELECT d.id, d.host, d.display_name, d.last_check_id, d.last_checked_at, d.last_changed_at, d.last_reason AS reason,
                d.platforms,
            """ + DomainState.sqlOfDomainRow + """
                AS state
              FROM domains d
              WHERE ($1 = '%%' OR lower(d.display_name) LIKE $1 OR d.host LIKE $1)
                -- The latest check is read only when the filter asks about Android (CASE evaluates lazily).
                AND CASE $5 WHEN '' THEN true WHEN 'apple' THEN d.platforms <> 'android'
                  ELSE d.platforms <> 'apple' AND EXISTS (SELECT 1 FROM checks c WHERE c.id = d.last_check_id AND
            """ + AndroidResult.sqlIsWatched + """
                  ) END
            ), ranked AS (
              SELECT listed.*,
            """ + DomainState.sqlWorstFirstRank + """
                AS state_rank, count(*) OVER () AS matching
              FROM listed WHERE ($2 = '' OR state = $2)
            ), paged AS (
              SELECT * FROM ranked d ORDER BY
            """ + " " + order + " LIMIT $3 OFFSET $4) " + """
            SELECT d.*, (SELECT s.recent_latencies FROM domain_stats s WHERE s.domain_id = d.id) AS latencies,
              (SELECT count(*) FROM alerts a WHERE a.domain_id = d.id AND a.state = 'open') AS open_alerts,

            """ + AndroidResult.sqlAppleVerdict + " AS apple_verdict, " + AndroidResult.sqlAndroidVerdict + """
                AS android_verdict
            FROM paged d LEFT JOIN checks c ON c.id = d.last_check_id ORDER BY
            """ + " " + order, pattern, state, f.limit, f.offset, platform)
        var matching = 0
        let items = try page.map { row -> OverviewItem in
            matching = try row.decode("matching")
            let latencies = try row.decode("latencies", as: SQLIntegerArray.self).elements
                .filter { $0 != -2 }                                   // -2: no check yet
                .map { (ms: Int?) -> Int? in ms.flatMap { $0 < 0 ? nil : $0 } }   // -1: a check that measured no time
            return OverviewItem(id: try row.decode("id"), host: try row.decode("host"), displayName: try row.decode("display_name"),
                                state: try row.decode("state"), reason: try row.decode("reason"),
                                lastCheckedAt: try row.decode("last_checked_at"), lastChangedAt: try row.decode("last_changed_at"),
                                latencies: latencies, openAlerts: try row.decode("open_alerts"), platforms: try row.decode("platforms"),
                                appleVerdict: try row.decode("apple_verdict"), androidVerdict: try row.decode("android_verdict"))
        }
        if items.isEmpty && f.offset > 0 {
            matching = try value("""
                SELECT count(*) FROM domains d WHERE ($1 = '%%' OR lower(d.display_name) LIKE $1 OR d.host LIKE $1)
                """, pattern)
        }
        var counts: [DomainState: Int] = [:]
        for row in try rows("SELECT " + DomainState.sqlOfDomainRow + " AS state, count(*) AS n FROM domains d GROUP BY 1") {
            counts[try row.decode("state")] = try row.decode("n")
        }
        return (items, matching, counts)
    }

    /// Every domain for the CSV/JSON export, by host.
    public func exportDomains() throws -> [(record: DomainRecord, appIDs: Int, watched: Int)] {
        try rows("SELECT " + DomainRecord.columns + """
            , (SELECT count(*) FROM expected_app_ids e WHERE e.domain_id = domains.id) AS app_ids,
              (SELECT count(*) FROM watched_urls w WHERE w.domain_id = domains.id) AS watched
            FROM domains ORDER BY host, wildcard
            """).map { (try DomainRecord(row: $0), try $0.decode("app_ids"), try $0.decode("watched")) }
    }

    /// `%`, `_` and `\` match literally in a LIKE pattern once escaped.
    static func escapeLike(_ s: String) -> String {
        var out = ""
        for ch in s {
            if ch == "%" || ch == "_" || ch == "\\" { out.append("\\") }
            out.append(ch)
        }
        return out
    }
}
