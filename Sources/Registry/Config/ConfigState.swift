import Store
import Vocabulary

/// What the database holds of what a config file declares, read inside the apply's transaction
/// (under its lock), so the plan is made against the state it changes.
struct ConfigState {
    var domains: [DomainRecord]
    var appIDs: [Int64: Set<AppIDExpectation>] = [:]
    var watched: [Int64: Set<WatchedURLExpectation>] = [:]
    /// The Android apps each domain itself must verify, in its order (apps keep theirs in app_links).
    var androidApps: [Int64: [AndroidAppExpectation]] = [:]
    var channels: [ChannelRecord]
    var byKey: [DomainKey: DomainRecord] = [:]
    /// What apps put on the domains: the apps' business, so neither compared with the file's
    /// domain entries nor exported as theirs, and kept when a domain's own expectations are rewritten.
    var appPlacedIDs: [Int64: Set<AppIDExpectation>] = [:]
    var appPlacedURLs: [Int64: Set<WatchedURLExpectation>] = [:]
    var apps: [AppRecord] = []
    var appLinks: [Int64: [AppLinkRecord]] = [:]
    var appWatched: [Int64: [AppWatchedURLRecord]] = [:]

    init(_ c: Connection) throws {
        domains = try c.allDomains()
        channels = try c.channels()
        for row in try c.expectations(domainIDs: domains.map(\.id)) {
            switch row.kind {
            case .appID(let e): appIDs[row.domainID, default: []].insert(e)
            case .watchedURL(let e): watched[row.domainID, default: []].insert(e)
            }
        }
        for d in domains { byKey[DomainKey(host: d.host, wildcard: d.wildcard)] = d }
        androidApps = try c.androidAppExpectationsByDomain()
        apps = try c.apps()
        for app in apps {
            appLinks[app.id] = try c.appLinks(appID: app.id)
            appWatched[app.id] = try c.appWatchedURLs(appID: app.id)
        }
        for row in try c.appPlacedExpectations() {
            switch row.kind {
            case .appID(let e): appPlacedIDs[row.domainID, default: []].insert(e)
            case .watchedURL(let e): appPlacedURLs[row.domainID, default: []].insert(e)
            }
        }
    }

    func key(ofDomain id: Int64) -> DomainKey? {
        domains.first { $0.id == id }.map { DomainKey(host: $0.host, wildcard: $0.wildcard) }
    }

    /// A domain's own app IDs: what is stored, less what apps put there.
    func ownAppIDs(_ domainID: Int64) -> Set<AppIDExpectation> {
        appIDs[domainID, default: []].subtracting(appPlacedIDs[domainID, default: []])
    }

    func ownWatchedURLs(_ domainID: Int64) -> Set<WatchedURLExpectation> {
        watched[domainID, default: []].subtracting(appPlacedURLs[domainID, default: []])
    }

    /// What to store for a domain whose own expectations become `draft`'s: those, plus what apps put
    /// there (a watched URL the file declares itself wins over an app's for the same URL).
    func withAppPlaced(_ draft: DomainDraft, domainID: Int64) -> DomainDraft {
        var d = draft
        d.appIDs = Array(Set(draft.appIDs).union(appPlacedIDs[domainID, default: []])).sorted { ($0.service, $0.appID) < ($1.service, $1.appID) }
        let declared = Set(draft.watchedURLs.map(\.url))
        d.watchedURLs += appPlacedURLs[domainID, default: []].filter { !declared.contains($0.url) }.sorted { $0.url < $1.url }
        return d
    }

    /// The name people read and files declare: Unicode, with `*.` for a wildcard registration.
    static func name(of domain: DomainRecord) -> String {
        (domain.wildcard ? "*." : "") + domain.displayName
    }
}
