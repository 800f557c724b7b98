import Store
import Vocabulary

/// What the database holds of what a config file declares, read inside the apply's transaction
/// (under its lock), so the plan is made against the state it changes.
struct ConfigState {
    var domains: [DomainRecord]
    var appIDs: [Int64: Set<AppIDExpectation>] = [:]
    var watched: [Int64: Set<WatchedURLExpectation>] = [:]
    var channels: [ChannelRecord]
    var byKey: [DomainKey: DomainRecord] = [:]

    init(_ c: Connection) throws {
        domains = try c.allDomains()
        channels = try c.channels()
        for row in try c.expectations(domainIDs: domains.map(\.id)) {
            switch row.kind {
            case .appID(let service, let appID):
                appIDs[row.domainID, default: []].insert(AppIDExpectation(service: service, appID: appID))
            case .watchedURL(let url, let expected):
                watched[row.domainID, default: []].insert(WatchedURLExpectation(url: url, expectedAppID: expected))
            }
        }
        for d in domains { byKey[DomainKey(host: d.host, wildcard: d.wildcard)] = d }
    }

    /// The name people read and files declare: Unicode, with `*.` for a wildcard registration.
    static func name(of domain: DomainRecord) -> String {
        (domain.wildcard ? "*." : "") + domain.displayName
    }
}
