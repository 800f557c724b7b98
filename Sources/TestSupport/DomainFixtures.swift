import Vocabulary
import Store

/// What happened to a domain registered by `importDomain`.
public enum DomainImportOutcome: Sendable, Equatable {
    case added(id: Int64)
    case alreadyRegistered
}

extension Database {
    /// Registers a domain for a test or a benchmark, the way a bulk import does (due at once, not
    /// requested, the column's default interval of an hour), through the one insert every
    /// registration uses (`createDomain`). Production code registers through `DomainRegistry`.
    /// `platforms`: which files its checks ask for (the form's "Watch for" setting).
    public func importDomain(host: String, displayName: String, wildcard: Bool,
                             appIDs: [(service: Service, appID: String)], platforms: WatchedPlatforms = .both) throws -> DomainImportOutcome {
        let draft = DomainDraft(host: host, displayName: displayName, wildcard: wildcard, intervalSeconds: 3600, badgeEnabled: false,
                                appIDs: appIDs.map { AppIDExpectation(service: $0.service, appID: $0.appID) }, watchedURLs: [],
                                platforms: platforms)
        switch try createDomain(draft, requestFirstCheck: false) {
        case .created(let id): return .added(id: id)
        case .alreadyRegistered: return .alreadyRegistered
        }
    }
}
