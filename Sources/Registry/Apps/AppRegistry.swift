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
        var problems: [AppProblem] = []
        var notes: [String] = [], ignored: [String] = []

        var appleIDs: [String] = []
        for (i, text) in r.appleAppIDs.enumerated() where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                let id = try AppID(typed: text).text
                if !appleIDs.contains(id) { appleIDs.append(id) }
            } catch { problems.append(AppProblem(.appleAppID(i), error.message)) }
        }

        // Apple: the typed entries and the file's, each by the entitlement rules.
        var associated: [AssociatedDomain] = []
        if r.appleDomains.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            do {
                let typed = try EntitlementsReader.read(entries: r.appleDomains)
                associated += typed.domains
                ignored += typed.ignored.map { "\($0.entitlement): \($0.reason)" }
            } catch {
                problems += error.problems.map { AppProblem(.appleDomains(line: $0.line), $0.reason) }
            }
        }
        if let entitlements {
            do {
                let file = try EntitlementsReader.read(entitlements)
                associated += file.domains
                ignored += file.ignored.map { "\($0.entitlement): \($0.reason)" }
                for id in file.appIDs where !appleIDs.contains(id.text) { appleIDs.append(id.text) }
            } catch {
                problems += error.problems.map { AppProblem(.entitlementsFile(line: $0.line), $0.reason) }
            }
        }

        // Android: the typed package and hosts, and the manifest's.
        var package: String?
        let typedPackage = r.androidPackage.trimmingCharacters(in: .whitespaces)
        if !typedPackage.isEmpty {
            do { package = try AndroidPackage(typed: typedPackage).text } catch { problems.append(AppProblem(.androidPackage, error.message)) }
        }
        var androidHosts: [(host: String, wildcard: Bool)] = []
        for (i, text) in r.androidHosts.enumerated() where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                let host = try HostName(text)
                androidHosts.append((host.unicode, host.isWildcard))
            } catch { problems.append(AppProblem(.androidHost(i), error.message)) }
        }
        var manifestURLs: [String] = []
        if let manifest {
            do {
                let read = try AndroidManifestReader.read(manifest)
                androidHosts += read.verifiedHosts.map { ($0.host, $0.isWildcard) }
                ignored += read.unverifiedHosts.map {
                    "\($0): its intent filter has no android:autoVerify=\"true\", so Android never checks assetlinks.json for it"
                }
                manifestURLs = read.watchedURLs
                switch (package, read.package) {
                case (nil, let fromFile?):
                    do { package = try AndroidPackage(typed: fromFile).text } catch {
                        problems.append(AppProblem(.manifestFile(line: nil), "The manifest's package: \(error.message)"))
                    }
                case (let typed?, let fromFile?) where typed != fromFile:
                    problems.append(AppProblem(.androidPackage,
                        "The manifest's package is \(fromFile), not \(typed); the merged manifest of a build has the applicationId."))
                default: break
                }
            } catch {
                problems += error.problems.map { AppProblem(.manifestFile(line: $0.line), $0.reason) }
            }
        }

        var fingerprints: [AppFingerprint] = []
        for (i, entry) in r.fingerprints.enumerated() where !entry.fingerprint.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let role = SigningKeyRole(rawValue: entry.role) else {
                problems.append(AppProblem(.fingerprint(i), "Unknown key \"\(entry.role)\"; use app-signing, upload or other."))
                continue
            }
            do {
                let text = try CertificateFingerprint(typed: entry.fingerprint).text
                if !fingerprints.contains(where: { $0.fingerprint == text }) { fingerprints.append(AppFingerprint(fingerprint: text, role: role)) }
            } catch { problems.append(AppProblem(.fingerprint(i), error.message)) }
        }

        // Links, each domain under its registered spelling.
        var links: [AppLinkDraft] = []
        for domain in associated {
            do {
                let host = try HostName(domain.displayHost)
                notes += domain.notes.filter { $0.severity != .error }.map { "\(domain.entitlement): \($0.message)" }
                links.append(AppLinkDraft(domain: AppDomainKey(host: host.ascii, displayName: host.unicode, wildcard: host.isWildcard),
                                          platform: .apple, service: domain.service, developerMode: domain.modes.contains(.developer),
                                          managedMode: domain.modes.contains(.managed), declaredAs: domain.entitlement))
            } catch {
                problems.append(AppProblem(.appleDomains(line: domain.line), "\(domain.entitlement): \(error.message)"))
            }
        }
        for (host, wildcard) in androidHosts {
            guard let name = try? HostName(wildcard ? "*.\(host)" : host) else { continue }
            let key = AppDomainKey(host: name.ascii, displayName: name.unicode, wildcard: name.isWildcard)
            if !links.contains(where: { $0.platform == .android && $0.domain == key }) {
                links.append(AppLinkDraft(domain: key, platform: .android, service: .applinks, declaredAs: name.description))
            }
        }

        if !appleIDs.isEmpty || links.contains(where: { $0.platform == .apple }) || package != nil || !fingerprints.isEmpty
            || links.contains(where: { $0.platform == .android }) || !problems.isEmpty {
            if appleIDs.isEmpty, links.contains(where: { $0.platform == .apple }), !problems.contains(where: { if case .appleAppID = $0.field { true } else { false } }) {
                problems.append(AppProblem(.appleAppID(0),
                    "The app claims Apple domains but names no app ID (an .entitlements file in a project has none until Xcode signs the app): write TEAMID.bundle.id."))
            }
            if package == nil, links.contains(where: { $0.platform == .android }) || !fingerprints.isEmpty,
               !problems.contains(where: { $0.field == .androidPackage }) {
                problems.append(AppProblem(.androidPackage, "The app claims Android hosts or signing keys but names no package: write its applicationId."))
            }
        } else {
            problems.append(AppProblem(.app, "Give an Apple app ID or an Android package, and the domains the app claims."))
        }
        if problems.isEmpty, links.isEmpty {
            problems.append(AppProblem(.app, "The app claims no domain: add Associated Domains entries, Android hosts, or import its files."))
        }

        // Watched URLs, each on a domain the app claims: typed ones on both platforms; the typed
        // Android-only ones and the manifest's paths on Android alone (a manifest says nothing of
        // what iOS opens). A URL given twice keeps its first platforms.
        var watched: [AppWatchedURLDraft] = []
        let given: [(text: String, platforms: WatchedPlatforms, field: AppField?)] =
            r.watchedURLs.enumerated().map { ($1, .both, .watchedURL($0)) }
            + r.androidWatchedURLs.enumerated().map { ($1, .android, .androidWatchedURL($0)) }
            + manifestURLs.map { ($0, .android, nil) }
        for entry in given {
            let url = entry.text.trimmingCharacters(in: .whitespaces)
            guard !url.isEmpty, !watched.contains(where: { $0.url == url }) else { continue }
            guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
                problems.append(AppProblem(entry.field ?? .manifestFile(line: nil), "Write the whole URL, starting with https://"))
                continue
            }
            let host = ReleaseGate.urlHost(url)
            let ascii = (try? HostName(host).ascii) ?? host
            let claimed = links.map(\.domain)
            if let exact = claimed.first(where: { !$0.wildcard && $0.host == ascii }) {
                watched.append(AppWatchedURLDraft(url: url, domain: exact, platforms: entry.platforms))
            } else if let parent = claimed.filter({ $0.wildcard && ascii.hasSuffix("." + $0.host) }).max(by: { $0.host.count < $1.host.count }) {
                watched.append(AppWatchedURLDraft(url: url, domain: parent, platforms: entry.platforms))
            } else if let field = entry.field {
                problems.append(AppProblem(field, "\(host) is not a domain this app claims, so no file of the app decides \(url)."))
            }
        }

        var name = r.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { name = appleIDs.first.flatMap { try? AppID($0) }.map { String($0.bundleID) } ?? package ?? "" }
        if name.count > 200 { problems.append(AppProblem(.name, "Keep the name under 200 characters.")) }
        if name.isEmpty, problems.isEmpty { problems.append(AppProblem(.name, "Name the app.")) }

        guard problems.isEmpty else { throw AppRegistrationError.invalid(problems) }

        let draft = AppDraft(name: name, appleAppIDs: appleIDs, androidPackage: package, fingerprints: fingerprints,
                             links: links, watchedURLs: watched)
        var planned: [AppPlan.PlannedDomain] = []
        var refused: [AppProblem] = []
        for key in draft.domains {
            let registered = try store.domainID(host: key.host, wildcard: key.wildcard) != nil
            if !registered, domains.policy.resolveOnRegister, let refusal = domains.policy.addressRefusal(key.host) {
                refused.append(AppProblem(.app, refusal))
            }
            planned.append(AppPlan.PlannedDomain(key: key, isNew: !registered, links: links.filter { $0.domain == key }))
        }
        if !refused.isEmpty { throw AppRegistrationError.invalid(refused) }
        if let existing = try store.app(name: name), existing.id != editing?.id {
            throw AppRegistrationError.nameTaken(id: existing.id, name: name)
        }
        return AppPlan(draft: draft, domains: planned, ignored: ignored, notes: notes)
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
