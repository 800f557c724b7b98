import Foundation
import Store
import Vocabulary

/// An app's whole linking health: its domains × services × platforms with state, since when and the
/// one-line reason, and its watched URLs with their outcome per platform. Built from what the
/// monitor stored (the domains' latest checks and their changed-check history); read by the app
/// page, the API and the CLI.
public struct AppMatrix: Sendable {
    /// Encodable: the API's app detail writes each cell as it is (snake_case through `PublicJSON`).
    public struct Cell: Sendable, Encodable {
        public var platform: Platform
        public var service: Service
        public var state: DomainState
        public var reason: String?
        /// When the cell's verdict began (the oldest check of its run); nil before the first check.
        public var since: Date?
        public var developerMode: Bool
        public var managedMode: Bool
        public var declaredAs: String
    }

    public struct Row: Sendable {
        public var domainID: Int64
        public var displayHost: String
        public var cells: [Cell]
    }

    public struct WatchedRow: Sendable {
        public var url: String
        public var domainID: Int64
        /// The platforms the URL is watched on; on another it is not judged (an AndroidManifest.xml's
        /// paths are Android's only).
        public var platforms: WatchedPlatforms
        /// What the domain's latest file does with the URL on Apple devices; nil when not measured
        /// (no usable file yet, or the app has no Apple link on the domain).
        public var apple: WatchedURLResult?
        /// What the domain's latest assetlinks.json does with the URL for the app's package (Android
        /// 15+, where dynamic rules decide); nil when not measured (no package, no Android link on
        /// the domain, or Android not fetched yet).
        public var android: WatchedURLResult?
        /// The matcher's one-line explanation, or why nothing opens.
        public var androidReason: String?
    }

    public var app: AppRecord
    /// The window's rows (every row when the matrix was loaded whole), in host order.
    public var rows: [Row]
    public var watched: [WatchedRow]
    /// Every link of the app by state, on every page, for the summary line ("11 of 12 links healthy").
    public var cellCounts: [DomainState: Int]
    /// The first failing link in host order, on whichever page it is, with its row: the summary names it.
    public var firstBroken: (row: Row, cell: Cell)?
    /// Every domain the app claims, on every page, in host order.
    public var domainIDs: [Int64]
    public var domainCount: Int { domainIDs.count }
    /// The page shown (1-based) and its size in domains; nil: every domain, or a keyset window.
    public var page: Int?
    /// A keyset window that is not the last: the `after` of the next one (its last domain's id).
    public var nextAfter: Int64?
    public static let domainsPerPage = 50

    /// Which of the app's domains the matrix holds rows for, in host order.
    public enum Window: Sendable, Equatable {
        /// Every domain.
        case all
        /// The page's `domainsPerPage` domains (1-based).
        case page(Int)
        /// `limit` domains after the domain with id `after` (from the first when nil): the API's
        /// pages, which a change between two requests neither repeats nor skips.
        case keyset(after: Int64?, limit: Int)
    }

    /// The `after` of a keyset window names no domain.
    public struct NoSuchDomain: Error, Sendable {}

    /// The platforms the matrix has columns for: the app's, in a fixed order.
    public var platforms: [Platform] {
        Platform.allCases.filter { p in rows.contains { $0.cells.contains { $0.platform == p } } }
    }

    public var pageCount: Int { page == nil ? 1 : max(1, (domainCount + Self.domainsPerPage - 1) / Self.domainsPerPage) }

    /// Counts every link of the app by its kept judgement (`AppLinkStandings`), then reads only the
    /// window's domains (and the first broken link's, and the watched URLs') with their latest
    /// checks and judges each cell. "Since when" is the start of the link's run of equal verdicts
    /// (`app_link_runs`): the changed checks after the run's end are folded in and the runs saved,
    /// so a view reads only what changed since the last one, and the first view of a link reads its
    /// domain's whole changed history once.
    ///
    /// An app that claims a platform's thousand customer domains made a 755 KB page that took 0.9 s
    /// at a million domains, one history query per domain; paged, it still judged every link against
    /// its latest check for the counts (323 / 453 ms p50 / p95), which the kept judgements replace
    /// (issue #17).
    public static func load(appID: Int64, from store: some AppStore & CheckStore, now: Date = Date(), window: Window = .all) throws -> AppMatrix? {
        guard let app = try store.app(id: appID) else { return nil }
        let standings = try AppLinkStandings.load(appID: appID, apps: [appID: app], from: store)
        var counts: [DomainState: Int] = [:]
        for s in standings { if let state = s.state { counts[state, default: 0] += 1 } }
        let brokenDomain = standings.first { $0.state == .failing }?.domainID
        let domainIDs = standings.map(\.domainID).uniqued()
        let shown: [Int64]
        var page: Int?, nextAfter: Int64?
        switch window {
        case .all:
            shown = domainIDs
        case .page(let n):
            page = n
            shown = Array(domainIDs.dropFirst((n - 1) * domainsPerPage).prefix(domainsPerPage))
        case .keyset(let after, let limit):
            var start = 0
            if let after {
                if let i = domainIDs.firstIndex(of: after) {
                    start = i + 1
                } else {
                    // The domain left the app between two pages: continue after its place in host order.
                    guard let next = try store.appDomain(appID: appID, after: after) else { throw NoSuchDomain() }
                    start = next.flatMap { domainIDs.firstIndex(of: $0) } ?? domainIDs.count
                }
            }
            shown = Array(domainIDs.dropFirst(start).prefix(limit))
            if start + shown.count < domainIDs.count { nextAfter = shown.last }
        }
        var folding = shown
        if let brokenDomain, !shown.contains(brokenDomain) { folding.append(brokenDomain) }
        let watchedURLs = try store.appWatchedURLs(appID: appID)

        var latestByDomain: [Int64: LinkEvidence] = [:]
        var linksByDomain: [Int64: [AppLinkRecord]] = [:]
        for l in try store.appLinksWithLatestCheck(appID: appID, domainIDs: (folding + watchedURLs.map(\.domainID)).uniqued()) {
            latestByDomain[l.link.domainID] = l.latest
            linksByDomain[l.link.domainID, default: []].append(l.link)
        }
        let runs = Dictionary(try store.appLinkRuns(appID: appID, domainIDs: folding).map { (RunKey($0.domainID, $0.platform, $0.service), $0) },
                              uniquingKeysWith: { a, _ in a })
        // A link never folded needs the whole history; otherwise the oldest end any link reached.
        let from: [(domainID: Int64, fromCheckID: Int64?)] = folding.map { domainID in
            let folded = (linksByDomain[domainID] ?? []).map { runs[RunKey(domainID, $0.platform, $0.service)] }
            return (domainID, folded.contains { $0 == nil } ? nil : folded.compactMap { $0?.throughCheckID }.min())
        }
        let evidenceByDomain = try store.linkEvidence(domains: from)
        var rowsByDomain: [Int64: Row] = [:]
        var moved: [AppLinkRun] = []
        for domainID in folding {
            let mine = linksByDomain[domainID] ?? []
            let evidence = evidenceByDomain[domainID] ?? []
            var cells: [Cell] = []
            for link in mine {
                let run = runs[RunKey(domainID, link.platform, link.service)]
                let history = evidence.map { check in
                    (checkID: check.checkID, time: check.startedAt, verdict: AppLinkVerdict.evaluate(link, app: app, against: check)?.verdict)
                }
                let next = AppLinkVerdict.fold(run, domainID: domainID, platform: link.platform, service: link.service, checks: history)
                if let next, next != run { moved.append(next) }
                cells.append(cell(link, app: app, latest: evidence.last, run: next))
            }
            if let first = mine.first { rowsByDomain[domainID] = Row(domainID: domainID, displayHost: first.displayHost, cells: cells) }
        }
        if !moved.isEmpty { try store.saveAppLinkRuns(appID: appID, moved) }
        let watched = watchedURLs.map { url in
            watchedRow(url, app: app, links: linksByDomain[url.domainID] ?? [], latest: latestByDomain[url.domainID])
        }
        let broken = brokenDomain.flatMap { rowsByDomain[$0] }.flatMap { row in row.cells.first { $0.state == .failing }.map { (row, $0) } }
        return AppMatrix(app: app, rows: shown.compactMap { rowsByDomain[$0] }, watched: watched, cellCounts: counts,
                         firstBroken: broken, domainIDs: domainIDs, page: page, nextAfter: nextAfter)
    }

    struct RunKey: Hashable {
        let domainID: Int64, platform: Platform, service: Service
        init(_ domainID: Int64, _ platform: Platform, _ service: Service) {
            self.domainID = domainID
            self.platform = platform
            self.service = service
        }
    }

    /// A cell from the link's latest check and its run. The current state uses the domain's current
    /// expectation results (re-measured when an app or the form changed them since the check), the
    /// run each check's own; when the two disagree the new state began with that latest check.
    static func cell(_ link: AppLinkRecord, app: AppRecord, latest: LinkEvidence?, run: AppLinkRun?) -> Cell {
        var cell = Cell(platform: link.platform, service: link.service, state: .never, reason: nil, since: nil,
                        developerMode: link.developerMode, managedMode: link.managedMode, declaredAs: link.declaredAs)
        guard let latest, link.lastVerdict != nil,
              let current = AppLinkVerdict.evaluate(link, app: app, against: latest, expectations: link.platform == .apple ? link.lastExpectations : nil) else {
            cell.state = link.checking ? .checking : .never
            if link.platform == .android, latest != nil, !link.checking {
                cell.reason = "Android's file has not been fetched for this domain yet; its next check fetches it."
            }
            return cell
        }
        cell.state = DomainState(verdict: current.verdict, checking: false)
        cell.reason = current.reason
        cell.since = run.flatMap { $0.verdict == current.verdict ? $0.since : nil } ?? latest.startedAt
        return cell
    }

    /// A watched URL's outcome per platform, both as the pipeline judged them, so the page and the
    /// alerts never disagree: Apple's from the domain's expectation results (when the app claims the
    /// domain for applinks), Android's from the Android result of the domain's latest check
    /// (`AndroidResult.watchedURLs`, when the app has a package and claims the domain on Android;
    /// re-measured when an app or the form changes what is watched).
    static func watchedRow(_ url: AppWatchedURLRecord, app: AppRecord, links mine: [AppLinkRecord], latest: LinkEvidence?) -> WatchedRow {
        var row = WatchedRow(url: url.url, domainID: url.domainID, platforms: url.platforms, apple: nil, android: nil, androidReason: nil)
        if url.platforms.watches(.apple), let link = mine.first(where: { $0.platform == .apple && $0.service == .applinks }) {
            row.apple = link.lastExpectations?.watchedURLs.first { $0.url == url.url }
        }
        guard url.platforms.watches(.android), app.androidPackage != nil, mine.contains(where: { $0.platform == .android }), let android = latest?.android,
              let judged = android.watchedURLs.first(where: { $0.url == url.url }) else {
            return row
        }
        row.android = WatchedURLResult(url: url.url, expected: judged.expected, actual: judged.actual)
        row.androidReason = judged.reason
        return row
    }
}

extension Sequence where Element: Hashable {
    /// The elements in their first order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
