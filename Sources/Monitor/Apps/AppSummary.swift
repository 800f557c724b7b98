import Foundation
import Store
import Vocabulary

/// A line of the by-app overview (the page, the API's list, /metrics, `app list`): the app and its
/// links counted by state, each link judged for this app against its domain's latest changed check
/// (`AppLinkVerdict`), so a developer-mode link ignores a failing CDN and an Android link counts
/// what assetlinks.json grants the app, whatever the domain's overall state says. The stored line
/// (`AppListing`: name, IDs, domain and alert counts) is read through as if its fields were this one's.
@dynamicMemberLookup
public struct AppSummary: Sendable, Equatable {
    /// A column of the app's matrix: a platform and a service.
    public struct LinkKind: Hashable, Sendable, Comparable {
        public var platform: Platform
        public var service: Service

        public static func < (a: LinkKind, b: LinkKind) -> Bool {
            (a.platform.rawValue, a.service.rawValue) < (b.platform.rawValue, b.service.rawValue)
        }
    }

    public var listing: AppListing
    /// Links per platform and service, by state.
    public var links: [LinkKind: [DomainState: Int]]

    /// Links by state, over every platform and service.
    public var states: [DomainState: Int] {
        links.values.reduce(into: [:]) { total, byState in total.merge(byState, uniquingKeysWith: +) }
    }

    public subscript<Value>(dynamicMember field: KeyPath<AppListing, Value>) -> Value { listing[keyPath: field] }

    public var linkCount: Int { links.values.reduce(0) { $0 + $1.values.reduce(0, +) } }

    /// The app's worst link state, for sorting and the row's badge.
    public var worstState: DomainState? {
        states.filter { $0.value > 0 }.keys.min { $0.worstFirstRank < $1.worstFirstRank }
    }

    /// Every app, its links counted by the state kept for each (`AppLinkStandings`): one query for
    /// the apps, a light row per link, and the latest check read only for links whose domain moved
    /// on since they were last judged.
    public static func load(from store: some AppStore) throws -> [AppSummary] {
        let apps = Dictionary(try store.apps().map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return try counted(try AppLinkStandings.load(appID: nil, apps: apps, from: store).compactMap { link in
            link.state.map { (appID: link.appID, kind: LinkKind(platform: link.platform, service: link.service), state: $0) }
        }, apps: apps, from: store)
    }

    /// The counts judged from scratch, every link against its domain's latest changed check: what the
    /// kept judgements must always equal (the tests hold them to it).
    static func loadFromScratch(from store: some AppStore) throws -> [AppSummary] {
        let apps = Dictionary(try store.apps().map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return try counted(try store.appLinksWithLatestCheck().compactMap { row in
            apps[row.appID].map { (appID: row.appID, kind: LinkKind(platform: row.link.platform, service: row.link.service),
                                   state: state(of: row.link, app: $0, latest: row.latest)) }
        }, apps: apps, from: store)
    }

    static func counted(_ states: [(appID: Int64, kind: LinkKind, state: DomainState)], apps: [Int64: AppRecord],
                        from store: some AppStore) throws -> [AppSummary] {
        var links: [Int64: [LinkKind: [DomainState: Int]]] = [:]
        for (appID, kind, state) in states where apps[appID] != nil {
            links[appID, default: [:]][kind, default: [:]][state, default: 0] += 1
        }
        return try store.appListings().map { AppSummary(listing: $0, links: links[$0.id] ?? [:]) }
    }

    /// The same judgement as the app page's cell (`AppMatrix.cell`), without its run.
    static func state(of link: AppLinkRecord, app: AppRecord, latest: LinkEvidence?) -> DomainState {
        AppMatrix.cell(link, app: app, latest: latest, run: nil).state
    }
}
