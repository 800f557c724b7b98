import Foundation
import Vocabulary

/// How the overview is ordered; the raw values are the query string's `sort`.
public enum OverviewSort: String, Sendable, CaseIterable {
    case host, state, lastCheck = "last-check", lastChange = "last-change"
}

/// The overview's filter, sort and page: one type from the page's and the API's query string (read
/// in Web) to the SQL here.
public struct OverviewFilter: Sendable, Equatable {
    /// nil for all.
    public var state: DomainState?
    /// nil for all; `apple`: domains watched for Apple; `android`: domains Android counts for (watched
    /// for Android, and the site serves assetlinks.json or an Android app is expected of it).
    public var platform: Platform?
    public var search = ""
    public var sort = OverviewSort.state
    /// The order reversed, ties included (so the same index serves it, read backwards).
    public var descending = false
    /// 1-based; the page starts at `offset` unless a keyset applies.
    public var page = 1
    public var pageSize = 50
    /// Keyset navigation: the page right after the domain with this id (the last of the page before),
    /// or right before `before` (the first of the page after), in the page's order; `page` then only
    /// numbers the page. Honoured where the order is an index's (`allowsKeyset`), so a deep page reads
    /// only its own rows instead of skipping every row before it; elsewhere `offset` is.
    public var after: Int64?
    public var before: Int64?
    /// A search that matches fewer domains than this is ranked among its matches and counted; one that
    /// matches this many or more walks the order's index and is counted as far as its pages reach
    /// (`matchingCapped`): ranking a million matches took 3.7 s at 1,000,000 domains, 3.7 µs a match
    /// (issue #17), walking for a page costs what page 1 does while one domain in 200 matches.
    public var rankedSearchLimit = 5_000
}

extension OverviewFilter {
    /// Every domain, worst first, the first page of 50: the overview with no query string. (Swift's
    /// memberwise init is internal; other modules start from this and set what they read.)
    public static var unfiltered: OverviewFilter { OverviewFilter() }

    var limit: Int { pageSize }
    var offset: Int { (page - 1) * pageSize }

    /// The order is read from an index (no search), in the state or the host order, either way:
    /// pages can be addressed by keyset (`after`, `before`). The time orders are read from an index
    /// too, by offset: a domain's key there moves each time it is checked.
    public var allowsKeyset: Bool {
        search.isEmpty && (sort == .host || sort == .state)
    }
}

public struct OverviewItem: Sendable {
    public var id: Int64
    public var host: String
    public var displayName: String
    public var state: DomainState
    /// The domain's reason and its platform (`last_reason`, `last_reason_platform`).
    public var reason: DomainReason?
    public var lastCheckedAt: Date?
    public var lastChangedAt: Date?
    /// Latest first.
    public var latencies: [Int?]
    public var openAlerts: Int
    public var platforms: WatchedPlatforms = .both
    /// Each platform's state (`domains.last_apple_state` / `last_android_state`: its file's verdict
    /// made worse by its unmet expectations, `DomainVerdict`); nil when the platform is not watched,
    /// not counted (no file, no app expected) or not checked yet.
    public var appleVerdict: Verdict?
    public var androidVerdict: Verdict?
    /// Paused: not checked until resumed (`domains.paused`).
    public var paused: Bool = false
}

extension DomainStore {
    /// One page of the overview, plus how many domains match and how many are in each state.
    /// State and reason are the domain's (`last_verdict`, `last_reason`: the file's verdict made worse
    /// by unmet expectations); sparkline latencies (`domain_stats.recent_latencies`, kept by every check) and alert counts are
    /// fetched for the page's rows only.
    ///
    /// Sized for a million domains (issue #17): the counts come from `domain_counts` (kept by
    /// migration 0039's triggers) and the few domains being checked; without a search, every order
    /// reads an index from one end (`indexedPage`) instead of ranking every domain; a search reads
    /// `domain_names`' trigram indexes (0040) and ranks the domains it matches.
    ///
    /// `matching` counts the domains that match; with `matchingCapped`, at least that many do: a search
    /// that matches `rankedSearchLimit` domains or more walks the order's index as no search does,
    /// testing each domain's names on the way, and is counted only as far as its pages have reached.
    public func overview(_ f: OverviewFilter) throws -> (items: [OverviewItem], matching: Int, matchingCapped: Bool,
                                                          counts: [DomainState: Int]) {
        let checking = try checkingDomains()
        let tally = try countedDomains()
        var counts: [DomainState: Int] = [:]
        for k in tally { counts[k.state, default: 0] += k.n }
        for c in checking {
            counts[c.counted.state, default: 0] -= 1
            counts[.checking, default: 0] += 1
        }
        counts = counts.filter { $0.value != 0 }
        let page: [Row]
        var matching = 0, capped = false
        if f.search.isEmpty {
            // Counted, not ranked: the counts by combination, less the domains being checked (shown
            // as checking, whatever their verdict) that the filter would otherwise count.
            matching = tally.filter { $0.matches(f.platform) && (f.state == nil || f.state == $0.state) }.reduce(0) { $0 + $1.n }
            for c in checking where c.counted.matches(f.platform) {
                if f.state == .checking { matching += 1 } else if f.state != nil && f.state == c.counted.state { matching -= 1 }
            }
            page = try indexedPage(f, checking: checking.map(\.id))
        } else if try value("SELECT count(*) FROM (SELECT 1 FROM domain_names n WHERE n.name LIKE $1 OR n.host LIKE $1 LIMIT $2) x",
                            Self.searchPattern(f.search), f.rankedSearchLimit, as: Int.self) >= f.rankedSearchLimit {
            // A broad search, walked. Counting its matches among the filter's domains would read every
            // domain; a page that is not full says how many there are, a full one that there are at
            // least as many as the pages so far hold (and, with no other filter, the search's own
            // `rankedSearchLimit`).
            page = try indexedPage(f, checking: checking.map(\.id))
            let unfiltered = f.state == nil && f.platform == nil ? f.rankedSearchLimit : 0
            if page.isEmpty && f.offset > 0 {
                (matching, capped) = (unfiltered, true)
            } else {
                capped = page.count == f.limit
                matching = capped ? max(f.offset + page.count, unfiltered) : f.offset + page.count
            }
        } else {
            page = try rankedPage(f)
            matching = try page.first?.decode("matching") ?? 0
            if page.isEmpty && f.offset > 0 {
                // Past the last page no row carries the count: page 1 of one row does, under every filter.
                var first = f
                (first.page, first.pageSize) = (1, 1)
                matching = try rankedPage(first).first?.decode("matching") ?? 0
            }
        }
        let items = try page.map { row -> OverviewItem in
            let latencies = try row.decode("latencies", as: SQLIntegerArray.self).elements
                .filter { $0 != -2 }                                   // -2: no check yet
                .map { (ms: Int?) -> Int? in ms.flatMap { $0 < 0 ? nil : $0 } }   // -1: a check that measured no time
            return OverviewItem(id: try row.decode("id"), host: try row.decode("host"), displayName: try row.decode("display_name"),
                                state: try row.decode("state"), reason: try row.decodeReason(text: "reason", platform: "reason_platform"),
                                lastCheckedAt: try row.decode("last_checked_at"), lastChangedAt: try row.decode("last_changed_at"),
                                latencies: latencies, openAlerts: try row.decode("open_alerts"), platforms: try row.decode("platforms"),
                                appleVerdict: try row.decode("apple_verdict"), androidVerdict: try row.decode("android_verdict"),
                                paused: try row.decode("paused"))
        }
        return (items, matching, capped, counts)
    }

    /// The page's domains read from the start (or, descending, the end) of the order's index, with the
    /// page's columns: the state order (the domains being checked merged in at rank 2,
    /// `domains_state_order`), the host order (`domains_name_order`), the times of the last check and
    /// the last change (`domains_checked_order`, `domains_changed_order`, migration 0063). A descending
    /// order is the ascending one reversed, ties included, so it is the same index read backwards.
    ///
    /// With a keyset (`after`/`before`: a domain's id; the state and host orders), the walk starts at
    /// that domain's key — its rank as shown (checking, when it is being checked) and lowered name,
    /// then id — read first by its primary key; `before` walks the other way. A cursor that names no
    /// domain (deleted since) falls back to `offset`.
    private func indexedPage(_ f: OverviewFilter, checking: [Int64]) throws -> [Row] {
        let state = f.state?.rawValue ?? "", platform = f.platform?.rawValue ?? ""
        let cursor = try keysetCursor(f, checking: checking)
        // A broad search ($9) tests each walked domain's names (what `domain_names` holds, from the row).
        let w = IndexWalk(hasCursor: cursor != nil, backwards: f.descending != (cursor != nil && f.after == nil),
                          searched: f.search.isEmpty ? " AND $9::text IS NULL " : " AND " + Self.sqlNamesMatch("$9") + " ")
        let shown: SQL = f.descending ? " DESC" : ""
        let ordered: SQL, pageOrder: SQL
        switch f.sort {
        case .host:
            ordered = Self.hostWalk(w)
            pageOrder = "p.name" + shown + ", p.id" + shown
        case .state:
            ordered = Self.stateWalk(w)
            pageOrder = "p.state_rank" + shown + ", p.name" + shown + ", p.id" + shown
        case .lastCheck, .lastChange:
            ordered = Self.timeWalk(w, column: f.sort == .lastCheck ? "d.last_checked_at" : "d.last_changed_at")
            pageOrder = "p.at" + (f.descending ? " ASC NULLS FIRST, p.id DESC" : " DESC NULLS LAST, p.id")
        }
        return try rows("WITH page AS (" + ordered + ") " + """
            SELECT d.id, d.host, d.display_name, d.last_checked_at, d.last_changed_at, d.last_reason AS reason, d.last_reason_platform AS reason_platform, d.platforms, d.paused,
            """ + DomainState.sqlOfDomainRow + " AS state, " + Self.sqlPageColumns + """
            FROM page p JOIN domains d ON d.id = p.id
            ORDER BY
            """ + " " + pageOrder, SQLArray(checking.map { Int($0) }), state, f.limit, cursor == nil ? f.offset : 0, platform,
            cursor?.rank, cursor?.name, cursor?.id, f.search.isEmpty ? nil : Self.searchPattern(f.search))
    }

    /// The key of the keyset's domain (`after` or `before`) in the page's order, read by its primary
    /// key; nil when the order has no keyset or the domain is gone.
    private func keysetCursor(_ f: OverviewFilter, checking: [Int64]) throws -> (id: Int64, name: String, rank: Int)? {
        guard f.allowsKeyset, let id = f.after ?? f.before,
              let row = try firstRow("SELECT lower(d.display_name) AS name, " + DomainState.sqlVerdictRank + " AS rank FROM domains d WHERE d.id = $1", id)
        else { return nil }
        let rank = checking.contains(id) ? DomainState.checking.worstFirstRank : try row.decode("rank", as: Int.self)
        return (id, try row.decode("name"), f.sort == .host ? 0 : rank)
    }

    /// The host order's walk of `domains_name_order`.
    private static func hostWalk(_ w: IndexWalk) -> SQL {
        """
            SELECT d.id, 0 AS state_rank, lower(d.display_name) AS name, NULL::timestamptz AS at FROM domains d
            -- $1, the domains being checked, is not needed in this order (typed, as every parameter must be).
            WHERE $1::bigint[] IS NOT NULL
            """ + " AND " + Self.sqlPlatformFilter + " AND ($2 = '' OR " + DomainState.sqlOfDomainRow + """
             = $2)
            """ + w.searched + w.past(nil) + """
             ORDER BY lower(d.display_name)
            """ + w.walk + ", d.id" + w.walk + " LIMIT $3 OFFSET $4"
    }

    /// The state order's walk of `domains_state_order`, the domains being checked merged in.
    private static func stateWalk(_ w: IndexWalk) -> SQL {
        // A domain being checked is ranked as checking, whatever its verdict: left out of the
        // index's walk, added from the list. The rank a state filter asks for selects one run of
        // the index ('checking' selects none of it).
        """
            SELECT * FROM (
              (SELECT d.id,
            """ + DomainState.sqlVerdictRank + """
             AS state_rank, lower(d.display_name) AS name, NULL::timestamptz AS at FROM domains d
               WHERE d.id <> ALL($1::bigint[])
            """ + " AND " + Self.sqlPlatformFilter + " AND ($2 = '' OR " + DomainState.sqlVerdictRank + " = " + DomainState.sqlRank(ofStateIn: "$2") + """
               )
            """ + w.searched + w.past(DomainState.sqlVerdictRank) + " ORDER BY " + DomainState.sqlVerdictRank + w.walk
            + ", lower(d.display_name)" + w.walk + ", d.id" + w.walk + """
             LIMIT $3::bigint + $4::bigint)
              UNION ALL
              (SELECT d.id,
            """ + Self.sqlCheckingRank + """
             AS state_rank, lower(d.display_name) AS name, NULL::timestamptz AS at FROM domains d
               WHERE d.id = ANY($1::bigint[]) AND ($2 = '' OR $2 =
            """ + Self.sqlChecking + ") AND " + Self.sqlPlatformFilter + w.searched + w.past(Self.sqlCheckingRank) + """
            )) o ORDER BY state_rank
            """ + w.walk + ", name" + w.walk + ", id" + w.walk + " LIMIT $3 OFFSET $4"
    }

    /// The time orders' walk of `domains_checked_order` or `domains_changed_order` (`column`).
    private static func timeWalk(_ w: IndexWalk, column: SQL) -> SQL {
        // Newest first, never first last; a state filter tests the row's verdict as the state
        // order's walk does (the index carries it) and takes the domains being checked from the list.
        let newestFirst: SQL = w.backwards ? " ASC NULLS FIRST, d.id DESC" : " DESC NULLS LAST, d.id"
        return "SELECT d.id, 0 AS state_rank, '' AS name, " + column + """
             AS at FROM domains d
            WHERE
            """ + " " + Self.sqlPlatformFilter + " AND CASE WHEN $2 = '' THEN true WHEN $2 = " + Self.sqlChecking
            + " THEN d.id = ANY($1::bigint[]) ELSE d.id <> ALL($1::bigint[]) AND " + DomainState.sqlVerdictRank + " = "
            + DomainState.sqlRank(ofStateIn: "$2") + " END " + w.searched + w.past(nil) + " ORDER BY " + column + newestFirst
            + " LIMIT $3 OFFSET $4"
    }

    /// The page's domains ranked among every domain that matches (a search, the other orders),
    /// with `matching`, how many do.
    private func rankedPage(_ f: OverviewFilter) throws -> [Row] {
        let order: SQL = switch (f.sort, f.descending) {
        case (.host, false): "lower(d.display_name), d.id"
        case (.host, true): "lower(d.display_name) DESC, d.id DESC"
        case (.lastCheck, false): "d.last_checked_at DESC NULLS LAST, d.id"
        case (.lastCheck, true): "d.last_checked_at ASC NULLS FIRST, d.id DESC"
        case (.lastChange, false): "d.last_changed_at DESC NULLS LAST, d.id"
        case (.lastChange, true): "d.last_changed_at ASC NULLS FIRST, d.id DESC"
        case (.state, false): "state_rank, lower(d.display_name), d.id"
        case (.state, true): "state_rank DESC, lower(d.display_name) DESC, d.id DESC"
        }
        return try rows("""
            WITH listed AS (
              SELECT d.id, d.host, d.display_name, d.last_checked_at, d.last_changed_at, d.last_reason AS reason, d.last_reason_platform AS reason_platform,
                d.platforms, d.paused, d.last_apple_state, d.last_android_state,
            """ + DomainState.sqlOfDomainRow + """
                AS state
              FROM domains d
              WHERE
            """ + Self.sqlSearch(f.search) + " AND " + Self.sqlPlatformFilter + """
            ), ranked AS (
              SELECT listed.*,
            """ + DomainState.sqlWorstFirstRank + """
                AS state_rank, count(*) OVER () AS matching
              FROM listed WHERE ($2 = '' OR state = $2)
            ), paged AS (
              SELECT * FROM ranked d ORDER BY
            """ + " " + order + " LIMIT $3 OFFSET $4) " + """
            SELECT d.*,
            """ + Self.sqlPageColumns + """
            FROM paged d ORDER BY
            """ + " " + order, Self.searchPattern(f.search), f.state?.rawValue ?? "", f.limit, f.offset, f.platform?.rawValue ?? "")
    }

    /// The search pattern `parameter` on a domain row's host or lowered display name: what `sqlSearch`
    /// finds through `domain_names`, tested on the row.
    static func sqlNamesMatch(_ parameter: StaticString) -> SQL {
        SQL(vocabularyFragment: "(d.host LIKE \(parameter) OR lower(d.display_name) LIKE \(parameter))")
    }

    static var sqlChecking: SQL { SQL(vocabularyFragment: "'\(DomainState.checking.rawValue)'") }
    static var sqlCheckingRank: SQL { SQL(vocabularyFragment: "\(DomainState.checking.worstFirstRank)") }

    /// `%text%`, lowered, with LIKE's wildcards escaped.
    static func searchPattern(_ search: String) -> String {
        "%" + escapeLike(search.lowercased()) + "%"
    }

    /// The search `$1` (a LIKE pattern) on the host or the lowered display name, through
    /// `domain_names` and its trigram indexes (migration 0040). Two statements rather than
    /// `$1 = '%%' OR …`: an OR beside the subquery keeps it from becoming a join, and every domain
    /// was read to test it (94 ms at 100,000 domains).
    static func sqlSearch(_ search: String) -> SQL {
        search.isEmpty ? " $1::text IS NOT NULL"
            : " d.id IN (SELECT n.domain_id FROM domain_names n WHERE n.name LIKE $1 OR n.host LIKE $1)"
    }

    /// The platform filter `$5`: '' all; 'apple' the domains watched for Apple; 'android' those Android
    /// counts for: the ones with an Android state (`last_android_state`, migration 0061; carried by the
    /// overview's indexes, so the walk stays index-only). `CountedDomains.matches` is the same test.
    static var sqlPlatformFilter: SQL { sqlPlatformFilter("$5") }

    /// The platform filter held in the text parameter `parameter` (the bulk actions' selection has its own numbering).
    static func sqlPlatformFilter(_ parameter: StaticString) -> SQL {
        SQL(vocabularyFragment: "CASE \(parameter)::text WHEN '' THEN true WHEN 'apple' THEN d.platforms <> 'android' "
            + "ELSE d.last_android_state IS NOT NULL END")
    }

    /// Each platform's state of the domain `d`, as every surface shows and /metrics counts it: the
    /// columns `DomainVerdict` writes with the domain's state (0060), set wherever the platform counts
    /// once a check is stored (0061, 0062). Nothing is computed from the latest check here.
    static var sqlPlatformStates: SQL { "d.last_apple_state AS apple_verdict, d.last_android_state AS android_verdict" }

    /// The page's rows' sparkline, open alerts and each platform's state.
    static var sqlPageColumns: SQL {
        """
        (SELECT s.recent_latencies FROM domain_stats s WHERE s.domain_id = d.id) AS latencies,
          (SELECT count(*) FROM alerts a WHERE a.domain_id = d.id AND a.state = 'open') AS open_alerts,
        """ + sqlPlatformStates + " "
    }

    /// The domains being checked now (requested, or leased): few, found through the requested and
    /// leased indexes (migration 0059) rather than a look at every lease. Through the due index it read
    /// the whole due backlog: 144 ms with 166,522 domains due at 1M (issue #17).
    func checkingDomains() throws -> [(id: Int64, counted: CountedDomains)] {
        try rows(Self.sqlCheckingDomains).map { (try $0.decode("id"), try CountedDomains(row: $0)) }
    }

    static var sqlCheckingDomains: SQL {
        """
        SELECT d.id, d.last_verdict AS verdict, d.platforms, d.last_file_verdict AS file_verdict,
          d.last_android_verdict AS android_verdict, d.last_apple_state AS apple_state, d.last_android_state AS android_state, 1 AS n
        FROM domains d
        WHERE d.id IN (SELECT id FROM domains WHERE check_requested_at IS NOT NULL
                       UNION ALL SELECT id FROM domains WHERE lease_until > now())
        """ + " AND " + DomainState.sqlOfDomainRow + " = " + sqlChecking
    }

    /// `domain_counts`: how many domains have each verdict, platform setting, latest-check file verdicts
    /// and platform states.
    func countedDomains() throws -> [CountedDomains] {
        try rows(CountedDomains.sqlCounts).map(CountedDomains.init(row:))
    }

    /// How many domains are registered and how many of them wait for their first check (no verdict
    /// yet, "Never checked", whether or not a check of it is running): the overview's "checking 150
    /// of 200". From `domain_counts` (a few hundred rows at most), not from the domains.
    public func firstCheckProgress() throws -> FirstCheckProgress {
        let row = try firstRow("""
            SELECT coalesce(sum(n) FILTER (WHERE verdict = ''), 0)::bigint AS waiting, coalesce(sum(n), 0)::bigint AS total
            FROM domain_counts
            """)
        return FirstCheckProgress(waiting: try row?.decode("waiting") ?? 0, total: try row?.decode("total") ?? 0)
    }

    /// Every domain for the CSV/JSON export, by host.
    public func exportDomains() throws -> [ExportedDomain] {
        try withExpectations(try rows(Self.sqlExported + " ORDER BY host, wildcard").map(ExportedDomain.init(row:)))
    }

    /// The next `limit` domains of the export after `after` (nil: from the first), in the export's
    /// order: a keyset batch on the `(host, wildcard)` unique index, so a streamed export of a
    /// million domains reads them a batch at a time and holds no connection or cursor in between.
    /// Each batch is its own snapshot: a domain added or removed during the export may be in it or
    /// not, as it would for an export a moment earlier or later.
    public func exportDomains(after: ExportCursor?, limit: Int) throws -> [ExportedDomain] {
        guard let after else {
            return try withExpectations(try rows(Self.sqlExported + " ORDER BY host, wildcard LIMIT $1", limit).map(ExportedDomain.init(row:)))
        }
        return try withExpectations(try rows(Self.sqlExported + " WHERE (host, wildcard) > ($1, $2) ORDER BY host, wildcard LIMIT $3",
                                             after.host, after.wildcard, limit).map(ExportedDomain.init(row:)))
    }

    /// The batch with each domain's own expectations: three queries per batch, not three per domain.
    /// In each form's order, as `appIDExpectations`, `watchedURLs` and `androidAppExpectations` read them.
    private func withExpectations(_ batch: [ExportedDomain]) throws -> [ExportedDomain] {
        guard !batch.isEmpty else { return batch }
        let ids = SQLArray(batch.map(\.record.id))
        var apps: [Int64: [AppIDExpectation]] = [:], watched: [Int64: [WatchedURLExpectation]] = [:]
        var android: [Int64: [AndroidAppExpectation]] = [:]
        for row in try rows("SELECT domain_id, service, app_id FROM expected_app_ids WHERE domain_id = ANY($1::bigint[]) "
                            + "ORDER BY domain_id, created_at, service, app_id", ids) {
            apps[try row.decode("domain_id"), default: []].append(try AppIDExpectation(row: row))
        }
        for row in try rows("SELECT domain_id, url, expected_app_id, expected_android FROM watched_urls WHERE domain_id = ANY($1::bigint[]) "
                            + "ORDER BY domain_id, id", ids) {
            watched[try row.decode("domain_id"), default: []].append(try WatchedURLExpectation(row: row))
        }
        for row in try rows("SELECT domain_id, package, fingerprints::text, upload_keys::text FROM expected_android_apps "
                            + "WHERE domain_id = ANY($1::bigint[]) ORDER BY domain_id, position", ids) {
            android[try row.decode("domain_id"), default: []].append(try AndroidAppExpectation(row: row))
        }
        return batch.map { e in
            var e = e
            e.appIDList = apps[e.record.id] ?? []
            e.watchedURLs = watched[e.record.id] ?? []
            e.androidApps = android[e.record.id] ?? []
            return e
        }
    }

    private static var sqlExported: SQL {
        "SELECT " + DomainRecord.columns + """
            , (SELECT count(*) FROM expected_app_ids e WHERE e.domain_id = domains.id) AS app_ids,
              (SELECT count(*) FROM expected_android_apps a WHERE a.domain_id = domains.id) AS android_apps,
              (SELECT count(*) FROM watched_urls w WHERE w.domain_id = domains.id) AS watched
            FROM domains
            """
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

/// Registered domains and those still waiting for their first check (`DomainStore.firstCheckProgress`).
public struct FirstCheckProgress: Sendable, Equatable {
    public var waiting: Int
    public var total: Int
    public var checked: Int { total - waiting }

    public init(waiting: Int, total: Int) {
        self.waiting = waiting
        self.total = total
    }
}

/// A domain as the CSV/JSON export lists it: the domain and how many app IDs and watched URLs it has.
public struct ExportedDomain: Sendable {
    public var record: DomainRecord
    public var appIDs: Int
    public var watched: Int
    public var androidAppCount: Int
    /// The domain's own expectations, as the API's domain object carries them, so an export registers
    /// the same domains again (`POST /api/v1/domains` takes each item): app IDs, watched URLs with
    /// their Android outcome, and the domain's own Android apps.
    public var appIDList: [AppIDExpectation] = []
    public var watchedURLs: [WatchedURLExpectation] = []
    public var androidApps: [AndroidAppExpectation] = []

    init(row: Row) throws {
        record = try DomainRecord(row: row)
        appIDs = try row.decode("app_ids")
        watched = try row.decode("watched")
        androidAppCount = try row.decode("android_apps")
    }

    /// Where the export goes on after this domain.
    public var cursor: ExportCursor { ExportCursor(host: record.host, wildcard: record.wildcard) }
}

/// A position in the export's order (`host`, then `wildcard`: the domains' unique key).
public struct ExportCursor: Sendable, Equatable {
    public var host: String
    public var wildcard: Bool
}

/// A row of `domain_counts` (migrations 0039, 0061), or one domain seen the same way.
struct CountedDomains {
    var verdict: Verdict?
    var platforms: WatchedPlatforms
    /// The latest check's file verdicts (Apple's, Android's where it counts): only the unmet-expectations
    /// gauge reads them.
    var fileVerdict: Verdict?
    var androidVerdict: Verdict?
    /// Each platform's state, as the overview's columns show it (`DomainStore.sqlPlatformStates`).
    var appleState: Verdict?
    var androidState: Verdict?
    var n: Int

    init(row: Row) throws {
        verdict = try row.decode("verdict")
        platforms = try row.decode("platforms")
        fileVerdict = try row.decode("file_verdict")
        androidVerdict = try row.decode("android_verdict")
        appleState = try row.decode("apple_state")
        androidState = try row.decode("android_state")
        n = try row.decode("n")
    }

    /// Every combination counted ('' stands for NULL in the table's key).
    static var sqlCounts: SQL {
        """
        SELECT nullif(verdict, '') AS verdict, platforms, nullif(file_verdict, '') AS file_verdict,
          nullif(android_verdict, '') AS android_verdict, nullif(apple_state, '') AS apple_state,
          nullif(android_state, '') AS android_state, n
        FROM domain_counts WHERE n <> 0
        """
    }

    /// A platform's state fails while its file does not: an expectation of that platform is unmet
    /// (`aasa_domains_unmet_expectations`).
    var missesAnExpectation: Bool {
        func unmet(_ state: Verdict?, _ file: Verdict?) -> Bool {
            guard let state, let file else { return false }
            return state == .fail && file != .fail
        }
        return unmet(appleState, fileVerdict) || unmet(androidState, androidVerdict)
    }

    /// The state these domains show when none is being checked.
    var state: DomainState { DomainState(verdict: verdict) }

    /// Whether the overview's platform filter keeps them (`DomainStore.sqlPlatformFilter`).
    func matches(_ platform: Platform?) -> Bool {
        switch platform {
        case nil: true
        case .apple: platforms != .android
        case .android: androidState != nil
        }
    }
}

/// How an overview page walks its order's index: from which end, past which key, testing which search.
private struct IndexWalk {
    /// A keyset (`after`/`before`) names where the walk starts; its key is $6 rank, $7 name, $8 id.
    let hasCursor: Bool
    /// Against the index's own order: a descending page, or the page before a cursor (both: with it).
    let backwards: Bool
    /// The broad search's test of each walked domain's names, or the clause that types $9 when there is none.
    let searched: SQL

    var walk: SQL { backwards ? " DESC" : "" }

    /// Keyset: rows past the cursor's key ($6 rank, $7 name, $8 id) in the walk's direction; all
    /// rows when there is no cursor (the three parameters NULL, typed as every parameter must be).
    /// The host order compares the name and id only: a row comparison that starts with a constant
    /// could not be read from `domains_name_order`.
    func past(_ rank: SQL?) -> SQL {
        guard hasCursor else { return " AND ($6::int IS NULL AND $7::text IS NULL AND $8::bigint IS NULL) " }
        let op: SQL = backwards ? " < " : " > "
        guard let rank else { return " AND $6::int IS NOT NULL AND (lower(d.display_name), d.id)" + op + "($7::text, $8::bigint) " }
        return " AND (" + rank + ", lower(d.display_name), d.id)" + op + "($6::int, $7::text, $8::bigint) "
    }
}
