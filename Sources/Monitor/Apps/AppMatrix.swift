import Foundation
import Store
import Vocabulary

/// An app's whole linking health: its domains × services × platforms with state, since when and the
/// one-line reason, and its watched URLs with their outcome per platform. Built from what the
/// monitor stored (the domains' latest checks and their changed-check history); read by the app
/// page, the API and the CLI.
public struct AppMatrix: Sendable {
    public struct Cell: Sendable {
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
    /// The page's rows (every row when the matrix was loaded without a page), in host order.
    public var rows: [Row]
    public var watched: [WatchedRow]
    /// Every link of the app by state, on every page, for the summary line ("11 of 12 links healthy").
    public var cellCounts: [DomainState: Int]
    /// The first failing link in host order, on whichever page it is, with its row: the summary names it.
    public var firstBroken: (row: Row, cell: Cell)?
    /// Every domain the app claims, on every page, in host order.
    public var domainIDs: [Int64]
    public var domainCount: Int { domainIDs.count }
    /// The page shown (1-based) and its size in domains; nil: every domain.
    public var page: Int?
    public static let domainsPerPage = 50

    /// The platforms the matrix has columns for: the app's, in a fixed order.
    public var platforms: [Platform] {
        Platform.allCases.filter { p in rows.contains { $0.cells.contains { $0.platform == p } } }
    }

    public var pageCount: Int { page == nil ? 1 : max(1, (domainCount + Self.domainsPerPage - 1) / Self.domainsPerPage) }

    /// Reads the app's links and judges each against its domain's latest changed check. "Since when"
    /// is the start of the link's run of equal verdicts (`app_link_runs`): the changed checks after the
    /// run's end are folded in and the runs saved, so a view reads only what changed since the last
    /// one, and the first view of a link reads its domain's whole changed history once.
    ///
    /// With a `page`, only that page's domains (`domainsPerPage`, host order) and the first broken
    /// link's are folded; every link is still judged against its latest check for the counts, in one
    /// query. An app that claims a platform's thousand customer domains made a 755 KB page that took
    /// 0.9 s at a million domains (issue #17), one history query per domain.
    public static func load(appID: Int64, from store: some AppStore & CheckStore, now: Date = Date(), page: Int? = nil) throws -> AppMatrix? {
        guard let app = try store.app(id: appID) else { return nil }
        let linked = try store.appLinksWithLatestCheck(appID: appID)
        var latestByDomain: [Int64: LinkEvidence] = [:]
        var linksByDomain: [Int64: [AppLinkRecord]] = [:]
        var counts: [DomainState: Int] = [:]
        var brokenDomain: Int64?
        for l in linked {
            latestByDomain[l.link.domainID] = l.latest
            linksByDomain[l.link.domainID, default: []].append(l.link)
            // A cell's state does not depend on its run, only its "since" does.
            let state = cell(l.link, app: app, latest: l.latest, run: nil).state
            counts[state, default: 0] += 1
            if state == .failing, brokenDomain == nil { brokenDomain = l.link.domainID }
        }
        let domainIDs = linked.map(\.link.domainID).uniqued()
        let shown = page.map { Array(domainIDs.dropFirst(($0 - 1) * domainsPerPage).prefix(domainsPerPage)) } ?? domainIDs
        var folding = shown
        if let brokenDomain, !shown.contains(brokenDomain) { folding.append(brokenDomain) }

        let runs = Dictionary(try store.appLinkRuns(appID: appID).map { (RunKey($0.domainID, $0.platform, $0.service), $0) },
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
        let watched = try store.appWatchedURLs(appID: appID).map { url in
            watchedRow(url, app: app, links: linksByDomain[url.domainID] ?? [], latest: latestByDomain[url.domainID])
        }
        let broken = brokenDomain.flatMap { rowsByDomain[$0] }.flatMap { row in row.cells.first { $0.state == .failing }.map { (row, $0) } }
        return AppMatrix(app: app, rows: shown.compactMap { rowsByDomain[$0] }, watched: watched, cellCounts: counts,
                         firstBroken: broken, domainIDs: domainIDs, page: page)
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
        var row = WatchedRow(url: url.url, domainID: url.domainID, apple: nil, android: nil, androidReason: nil)
        if let link = mine.first(where: { $0.platform == .apple && $0.service == .applinks }) {
            row.apple = link.lastExpectations?.watchedURLs.first { $0.url == url.url }
        }
        guard app.androidPackage != nil, mine.contains(where: { $0.platform == .android }), let android = latest?.android,
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
