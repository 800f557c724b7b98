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
        /// The run reaches past the history read: the verdict has held at least since `since`.
        public var sinceAtLeast: Bool
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
        /// Android's outcome, once the monitor checks assetlinks.json; nil until then.
        public var android: URLOutcome?
    }

    public var app: AppRecord
    public var rows: [Row]
    public var watched: [WatchedRow]

    /// Cells by state, for the page's summary line ("11 of 12 links healthy").
    public var cellCounts: [DomainState: Int] {
        rows.flatMap(\.cells).reduce(into: [:]) { $0[$1.state, default: 0] += 1 }
    }

    /// The platforms the matrix has columns for: the app's, in a fixed order.
    public var platforms: [Platform] {
        Platform.allCases.filter { p in rows.contains { $0.cells.contains { $0.platform == p } } }
    }

    /// How many changed checks per domain are read to find when a cell's verdict began.
    public static let historyDepth = 30

    /// Reads the app's links, their domains' latest checks and recent history.
    public static func load(appID: Int64, from database: Database, now: Date = Date()) throws -> AppMatrix? {
        guard let app = try database.app(id: appID) else { return nil }
        let links = try database.appLinks(appID: appID)
        var rows: [Row] = []
        var histories: [Int64: [CheckRow]] = [:]
        for link in links {
            if histories[link.domainID] == nil {
                histories[link.domainID] = try database.checks(domainID: link.domainID, onlyChanges: true, limit: historyDepth)
            }
            let cell = cell(link, app: app, history: histories[link.domainID] ?? [])
            if let i = rows.firstIndex(where: { $0.domainID == link.domainID }) {
                rows[i].cells.append(cell)
            } else {
                rows.append(Row(domainID: link.domainID, displayHost: link.displayHost, cells: [cell]))
            }
        }
        let expectations = Dictionary(links.map { ($0.domainID, $0.lastExpectations) }, uniquingKeysWith: { a, _ in a })
        let watched = try database.appWatchedURLs(appID: appID).map { url in
            let appleLink = links.contains { $0.domainID == url.domainID && $0.platform == .apple && $0.service == .applinks }
            let measured = appleLink ? (expectations[url.domainID] ?? nil)?.watchedURLs.first { $0.url == url.url } : nil
            return WatchedRow(url: url.url, domainID: url.domainID, apple: measured, android: nil)
        }
        return AppMatrix(app: app, rows: rows, watched: watched)
    }

    static func cell(_ link: AppLinkRecord, app: AppRecord, history: [CheckRow]) -> Cell {
        var cell = Cell(platform: link.platform, service: link.service, state: .never, reason: nil, since: nil, sinceAtLeast: false,
                        developerMode: link.developerMode, managedMode: link.managedMode, declaredAs: link.declaredAs)
        guard link.platform == .apple else {
            // The crawler does not fetch assetlinks.json into the store yet: say so rather than guess.
            cell.reason = "Android links are not monitored yet; the Android check fills this cell."
            return cell
        }
        guard let latest = history.first, link.lastVerdict != nil else {
            cell.state = link.checking ? .checking : .never
            return cell
        }
        // The domain's stored expectation results are the current ones (re-measured when an app adds
        // its IDs); older checks carry the results measured at their time.
        let current = AppLinkStanding.evaluate(findings: latest.findings, expectations: link.lastExpectations ?? latest.expectations,
                                               service: link.service, appIDs: app.appleAppIDs, developerMode: link.developerMode)
        cell.state = DomainState(verdict: current.verdict, checking: false)
        cell.reason = current.reason
        let past = history.map { check in
            (time: check.startedAt.timeIntervalSince1970,
             verdict: AppLinkStanding.evaluate(findings: check.findings, expectations: check.id == latest.id ? (link.lastExpectations ?? check.expectations) : check.expectations,
                                               service: link.service, appIDs: app.appleAppIDs, developerMode: link.developerMode).verdict)
        }
        if let since = AppLinkStanding.since(current.verdict, history: past) {
            cell.since = Date(timeIntervalSince1970: since.time)
            cell.sinceAtLeast = since.atLeast && history.count >= historyDepth
        }
        return cell
    }
}
