import AppManifests
import Fetch
import Foundation
import Monitor
import Store
import Vocabulary

/// Every change to apps goes through here — the app form and its import preview, the JSON API and
/// the CLI (`app add`, `app import`) — so an app's rules (its IDs' shapes, the entitlement rules of
/// aasa-spec.md §13, watched URLs on claimed domains) and its side effects (registering its domains,
/// the expectations it puts on them, waking the crawlers) are written once.
///
/// An app is validated and planned in full before anything is written, then written in one
/// transaction: a refused or failing app leaves nothing behind.
public struct AppRegistry: Sendable {
    let store: any RegistryStore
    let domains: DomainRegistry

    public init(store: some RegistryStore, policy: RegistrationPolicy = RegistrationPolicy()) {
        self.store = store
        self.domains = DomainRegistry(store: store, policy: policy)
    }

    /// Reads the files, checks every field and returns what registering would do; writes nothing.
    /// `entitlements`: an `.entitlements` property list (XML or binary) or the associated-domains
    /// array; `manifest`: an `AndroidManifest.xml`. Their app IDs and package fill in what was not typed.
    public func plan(_ r: AppRegistration, entitlements: [UInt8]? = nil, manifest: [UInt8]? = nil,
                     editing: AppRecord? = nil) throws -> AppPlan {
        let reading = AppReading(r, entitlements: entitlements, manifest: manifest)
        guard reading.problems.isEmpty else { throw AppRegistrationError.invalid(reading.problems) }
        let draft = reading.draft
        let planned = try reconcile(draft)
        if let existing = try store.app(name: draft.name), existing.id != editing?.id {
            throw AppRegistrationError.nameTaken(id: existing.id, name: draft.name)
        }
        return AppPlan(draft: draft, domains: planned, ignored: reading.ignored, notes: reading.notes)
    }

    /// Each domain the draft names, as registered already or new; a new one whose address the policy
    /// refuses (checked only when registering resolves hosts) refuses the app.
    private func reconcile(_ draft: AppDraft) throws -> [AppPlan.PlannedDomain] {
        var planned: [AppPlan.PlannedDomain] = []
        var refused: [AppProblem] = []
        for key in draft.domains {
            let registered = try store.domainID(host: key.host, wildcard: key.wildcard) != nil
            if !registered, domains.policy.resolveOnRegister, let refusal = domains.policy.addressRefusal(key.host) {
                refused.append(AppProblem(.app, refusal))
            }
            planned.append(AppPlan.PlannedDomain(key: key, isNew: !registered, links: draft.links.filter { $0.domain == key }))
        }
        if !refused.isEmpty { throw AppRegistrationError.invalid(refused) }
        return planned
    }

    /// Writes a plan (from `plan`) in one transaction: the app, its new domains, links, watched URLs
    /// and the expectations they put on the domains. Wakes the crawlers for the new domains and
    /// re-measures the others against their new expectations. Returns the app's id.
    @discardableResult
    public func register(_ plan: AppPlan) throws -> Int64 {
        switch try store.createApp(plan.draft, intervalSeconds: try domains.defaultIntervalMinutes() * 60) {
        case .nameTaken(let id):
            throw AppRegistrationError.nameTaken(id: id, name: plan.draft.name)
        case .created(let id, let newDomains):
            try settle(plan, newDomains: newDomains)
            return id
        }
    }

    /// `plan` then `register`, for callers with no preview step (the API, `app add`).
    @discardableResult
    public func register(_ r: AppRegistration, entitlements: [UInt8]? = nil, manifest: [UInt8]? = nil) throws -> Int64 {
        try register(try plan(r, entitlements: entitlements, manifest: manifest))
    }

    /// The app as its form and the API's PATCH edit it: its stored parts written as typed entries
    /// (Apple links as the entitlement entries they came from, Android links as hosts), so planning
    /// them again gives the same app. nil when there is no such app.
    public func registration(appID: Int64) throws -> AppRegistration? {
        guard let app = try store.app(id: appID) else { return nil }
        return AppRegistration(app, links: try store.appLinks(appID: appID), watchedURLs: try store.appWatchedURLs(appID: appID))
    }

    /// What editing the app to `r` (and the files' entries) would do, without writing: the edit's
    /// preview. `dropped` names the domains the app would stop claiming.
    public func planEdit(appID: Int64, _ r: AppRegistration, entitlements: [UInt8]? = nil, manifest: [UInt8]? = nil) throws -> AppPlan {
        guard let app = try store.app(id: appID) else { throw AppRegistrationError.noSuchApp }
        var plan = try plan(r, entitlements: entitlements, manifest: manifest, editing: app)
        let kept = Set(plan.draft.domains)
        var dropped: [String] = []
        for link in try store.appLinks(appID: appID) {
            let key = AppDomainKey(host: link.host, displayName: link.displayName, wildcard: link.wildcard)
            if !kept.contains(key), !dropped.contains(link.displayHost) { dropped.append(link.displayHost) }
        }
        plan.dropped = dropped
        return plan
    }

    /// Writes an edit planned by `planEdit`: the app's IDs, links and watched URLs become the plan's;
    /// the expectations its old links put on domains are taken back. Domains it named before stay
    /// registered, and are re-measured against their expectations now.
    public func edit(appID: Int64, _ plan: AppPlan) throws {
        let before = Set(try store.appLinks(appID: appID).map(\.domainID))
        guard let newDomains = try store.updateApp(id: appID, plan.draft, intervalSeconds: try domains.defaultIntervalMinutes() * 60) else {
            throw AppRegistrationError.noSuchApp
        }
        try settle(plan, newDomains: newDomains, alsoReevaluate: before)
    }

    /// `planEdit` then `edit`, for callers with no preview step.
    public func edit(appID: Int64, _ r: AppRegistration, entitlements: [UInt8]? = nil, manifest: [UInt8]? = nil) throws {
        try edit(appID: appID, try planEdit(appID: appID, r, entitlements: entitlements, manifest: manifest))
    }

    /// An app named in a URL path by its id or its name (`/apps/12`, `/apps/Shop`,
    /// `/api/v1/apps/com.example.app`): digits are an id, anything else a name.
    public func app(addressed segment: String?) throws -> AppRecord? {
        guard let segment, !segment.isEmpty else { return nil }
        if segment.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let id = Int64(segment), id > 0 else { return nil }
            return try store.app(id: id)
        }
        return try store.app(name: segment)
    }

    /// Deletes an app and the expectations it put on its domains (the domains stay). False when there was none.
    @discardableResult
    public func delete(appID: Int64) throws -> Bool {
        let domainIDs = try store.appLinks(appID: appID).map(\.domainID)
        guard try store.deleteApp(id: appID) else { return false }
        for id in Set(domainIDs) { try domains.remeasure(domainID: id) }
        return true
    }

    /// After a write: new domains are due now (wake the crawlers); registered ones are re-measured
    /// against their changed expectations, so a domain whose file lacks the app shows failing at
    /// once rather than after its next check.
    private func settle(_ plan: AppPlan, newDomains: [Int64], alsoReevaluate: Set<Int64> = []) throws {
        if !newDomains.isEmpty { domains.crawlers.notify() }
        var existing = alsoReevaluate
        for key in plan.draft.domains {
            if let id = try store.domainID(host: key.host, wildcard: key.wildcard), !newDomains.contains(id) { existing.insert(id) }
        }
        for id in existing { try domains.remeasure(domainID: id) }
    }
}
