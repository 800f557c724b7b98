import ConfigFile
import Monitor
import Notify
import Store
import Vocabulary

/// Compares the checked file with the database's state and lists the steps (the plan), then makes
/// them on the apply's connection. Problems that need the state (a channel routed to a domain that
/// is nowhere, a channel whose kind would change) are found here, before anything is written.
struct ConfigPlanner {
    let state: ConfigState
    let document: ConfigDocument
    let prune: Bool
    /// The interval domains an app registers get (the instance default).
    let defaultIntervalSeconds: Int
    var plan = ConfigPlan()
    var problems: [ConfigProblem] = []
    /// Whether the apply registers a domain or switches one's platforms, which requests its check (the
    /// crawlers are woken after the commit).
    var registersDomains = false

    fileprivate enum Work {
        case removeChannel(Int64)
        case removeDomain(Int64)
        case addDomain(DomainKey, DomainDraft, paused: Bool)
        case changeDomain(Int64, DomainDraft)
        /// After the domain's change, if any: `DomainStore.setPaused` (a resume makes it due at once).
        case pauseDomain(Int64, Bool)
        case addChannel(DesiredChannel)
        case changeChannel(ChannelRecord, DesiredChannel)
        case removeApp(Int64)
        case addApp(DesiredApp)
        case changeApp(Int64, DesiredApp)
    }

    private var work: [Work] = []
    /// Domains that will exist after the apply: the file's, and those kept.
    private var reachable: Set<DomainKey> = []
    /// Domains the file's apps claim: declared by the file through them, so never pruned.
    private var claimedByApps: Set<DomainKey> = []
    /// Domains of apps the apply keeps without managing them: pruning them would break those apps.
    private var claimedByKeptApps: Set<DomainKey> = []
    /// The names of the apps that exist after the apply: the file's, and those kept.
    private var appsAfter: Set<String> = []

    init(state: ConfigState, document: ConfigDocument, prune: Bool, defaultIntervalSeconds: Int) {
        self.state = state
        self.document = document
        self.prune = prune
        self.defaultIntervalSeconds = defaultIntervalSeconds
    }

    // MARK: Apps (planned first: the domains they claim are declared by the file too)

    /// `fileDomains`: the domains the file declares itself; an app does not "register" those.
    mutating func planApps(_ desired: [DesiredApp], fileDomains: Set<DomainKey>) {
        let declared = Set(desired.map(\.entry.name))
        appsAfter = declared.union(state.apps.map(\.name).filter { !(document.sections.contains(.apps) && prune) || declared.contains($0) })
        for d in desired {
            let claimed = d.plan.draft.domains.map { DomainKey(host: $0.host, wildcard: $0.wildcard) }
            claimedByApps.formUnion(claimed)
            reachable.formUnion(claimed)
            guard let existing = state.apps.first(where: { $0.name == d.entry.name }) else {
                let details = Self.appDetails(d.plan.draft) + Self.registers(d, fileDomains: fileDomains)
                if d.plan.domains.contains(where: \.isNew) { registersDomains = true }
                plan.steps.append(.init(action: .add, subject: .app(d.entry.name), details: details))
                work.append(.addApp(d))
                continue
            }
            var details = appChanges(existing, d.plan.draft)
            if !details.isEmpty {
                details += Self.registers(d, fileDomains: fileDomains)
                if d.plan.domains.contains(where: \.isNew) { registersDomains = true }
                plan.steps.append(.init(action: .change, subject: .app(d.entry.name), details: details))
                work.append(.changeApp(existing.id, d))
            }
        }
        for existing in state.apps where !declared.contains(existing.name) {
            if document.sections.contains(.apps) && prune {
                plan.steps.append(.init(action: .remove, subject: .app(existing.name),
                                        details: ["and the expectations it put on its domains (the domains stay, unless the domains list leaves them out)"]))
                work.append(.removeApp(existing.id))
                continue
            }
            let claimed = state.appLinks[existing.id, default: []].map { DomainKey(host: $0.host, wildcard: $0.wildcard) }
            claimedByKeptApps.formUnion(claimed)
            if document.sections.contains(.apps) { plan.keptApps.append(existing.name) }
        }
    }

    /// The domains an app registers: those it names that are neither registered nor declared by the file.
    private static func registers(_ d: DesiredApp, fileDomains: Set<DomainKey>) -> [String] {
        d.plan.domains.filter { $0.isNew && !fileDomains.contains(DomainKey(host: $0.key.host, wildcard: $0.key.wildcard)) }
            .map { "registers \($0.displayHost)" }
    }

    /// A new app, one line per field it sets.
    private static func appDetails(_ draft: AppDraft) -> [String] {
        var details: [String] = []
        if !draft.appleAppIDs.isEmpty { details.append("apple_app_ids: \(draft.appleAppIDs.joined(separator: ", "))") }
        if let package = draft.androidPackage { details.append("android_package: \(package)") }
        details += draft.fingerprints.map { "fingerprint: \($0.fingerprint) (\($0.role.rawValue))" }
        details += draft.links.map { "link: \(Self.describe($0))" }
        details += draft.watchedURLs.map { "watched_urls: \($0.url)" }
        return details
    }

    /// What applying the file's entry changes in a stored app, one line each.
    private func appChanges(_ existing: AppRecord, _ draft: AppDraft) -> [String] {
        var details: [String] = []
        if existing.appleAppIDs != draft.appleAppIDs {
            details.append("apple_app_ids: \(Self.list(existing.appleAppIDs)) → \(Self.list(draft.appleAppIDs))")
        }
        if existing.androidPackage != draft.androidPackage {
            details.append("android_package: \(existing.androidPackage ?? "(none)") → \(draft.androidPackage ?? "(none)")")
        }
        let fingerprints = Set(existing.fingerprints), wantedFingerprints = Set(draft.fingerprints)
        details += wantedFingerprints.subtracting(fingerprints).sorted { $0.fingerprint < $1.fingerprint }
            .map { "+ fingerprint: \($0.fingerprint) (\($0.role.rawValue))" }
        details += fingerprints.subtracting(wantedFingerprints).sorted { $0.fingerprint < $1.fingerprint }
            .map { "- fingerprint: \($0.fingerprint) (\($0.role.rawValue))" }
        // Links compare without the entry's spelling (declared_as): the same claim written
        // differently is not a change.
        let links = Set(state.appLinks[existing.id, default: []].map {
            LinkKey(domain: DomainKey(host: $0.host, wildcard: $0.wildcard), platform: $0.platform, service: $0.service,
                    developerMode: $0.developerMode, managedMode: $0.managedMode)
        })
        let wantedLinks = Set(draft.links.map {
            LinkKey(domain: DomainKey(host: $0.domain.host, wildcard: $0.domain.wildcard), platform: $0.platform, service: $0.service,
                    developerMode: $0.developerMode, managedMode: $0.managedMode)
        })
        details += wantedLinks.subtracting(links).map { "+ link: \($0)" }.sorted()
        details += links.subtracting(wantedLinks).map { "- link: \($0)" }.sorted()
        // A URL moving between watched_urls and android_watched_urls is a change too.
        func field(_ platforms: WatchedPlatforms) -> String { platforms == .android ? "android_watched_urls" : "watched_urls" }
        let watched = Set(state.appWatched[existing.id, default: []].compactMap { w in
            state.key(ofDomain: w.domainID).map { URLKey(url: w.url, domain: $0, field: field(w.platforms)) }
        })
        let wantedWatched = Set(draft.watchedURLs.map {
            URLKey(url: $0.url, domain: DomainKey(host: $0.domain.host, wildcard: $0.domain.wildcard), field: field($0.platforms))
        })
        details += wantedWatched.subtracting(watched).map { "+ \($0.field): \($0.url)" }.sorted()
        details += watched.subtracting(wantedWatched).map { "- \($0.field): \($0.url)" }.sorted()
        return details
    }

    /// The plan reads domains, then apps, then channels, whatever order they were planned in.
    mutating func finish() {
        func rank(_ s: ConfigPlan.Subject) -> Int {
            switch s {
            case .domain: 0
            case .app: 1
            case .channel: 2
            case .settings: 3
            }
        }
        plan.steps = plan.steps.enumerated().sorted { (rank($0.element.subject), $0.offset) < (rank($1.element.subject), $1.offset) }.map(\.element)
    }

    private static func describe(_ link: AppLinkDraft) -> String {
        LinkKey(domain: DomainKey(host: link.domain.host, wildcard: link.domain.wildcard), platform: link.platform, service: link.service,
                developerMode: link.developerMode, managedMode: link.managedMode).description
    }

    private static func list(_ items: [String]) -> String { items.isEmpty ? "(none)" : items.joined(separator: ", ") }

    // MARK: Domains

    mutating func planDomains(_ desired: [DesiredDomain]) {
        let declared = Set(desired.map(\.key))
        for d in desired {
            reachable.insert(d.key)
            let name = (d.draft.wildcard ? "*." : "") + d.draft.displayName
            guard let existing = state.byKey[d.key] else {
                plan.steps.append(.init(action: .add, subject: .domain(name), details: Self.domainDetails(d)))
                work.append(.addDomain(d.key, d.draft, paused: d.entry.paused == true))
                registersDomains = true
                continue
            }
            var draft = d.draft
            // What the file leaves out stays as it is.
            if d.entry.intervalMinutes == nil { draft.intervalSeconds = existing.intervalSeconds }
            if d.entry.badge == nil { draft.badgeEnabled = existing.badgeEnabled }
            if d.entry.platforms == nil { draft.platforms = existing.platforms }
            var details = domainChanges(existing, draft)
            if !details.isEmpty { work.append(.changeDomain(existing.id, state.withAppPlaced(draft, domainID: existing.id))) }
            if let paused = d.entry.paused, paused != existing.paused {
                details.append("paused: \(existing.paused) → \(paused)")
                work.append(.pauseDomain(existing.id, paused))
            }
            if !details.isEmpty { plan.steps.append(.init(action: .change, subject: .domain(name), details: details)) }
        }
        for existing in state.domains where !declared.contains(DomainKey(host: existing.host, wildcard: existing.wildcard))
            && !claimedByApps.contains(DomainKey(host: existing.host, wildcard: existing.wildcard)) {
            // A list the file does not name is not its business: neither pruned nor reported.
            guard document.sections.contains(.domains) else {
                reachable.insert(DomainKey(host: existing.host, wildcard: existing.wildcard))
                continue
            }
            if prune && !claimedByKeptApps.contains(DomainKey(host: existing.host, wildcard: existing.wildcard)) {
                plan.steps.append(.init(action: .remove, subject: .domain(ConfigState.name(of: existing)),
                                        details: ["with its history of checks and alerts"]))
                work.append(.removeDomain(existing.id))
            } else {
                reachable.insert(DomainKey(host: existing.host, wildcard: existing.wildcard))
                plan.keptDomains.append(ConfigState.name(of: existing))
            }
        }
    }

    /// A new domain, one line per field it sets.
    private static func domainDetails(_ d: DesiredDomain) -> [String] {
        var details = ["interval_minutes: \(d.draft.intervalSeconds / 60)"]
        if d.draft.badgeEnabled { details.append("badge: true") }
        if d.draft.platforms != .both { details.append("platforms: \(d.draft.platforms.rawValue)") }
        if d.entry.paused == true { details.append("paused: true") }
        details += d.draft.appIDs.map { "app_ids.\($0.service.rawValue): \($0.appID)" }
        details += d.draft.watchedURLs.map { "watched_urls: \($0.url) (expect \($0.expectedAppID ?? "browser")\($0.android.map { ", android \($0)" } ?? ""))" }
        details += (d.draft.androidApps ?? []).map { "android_apps: \(Self.describe($0))" }
        return details
    }

    /// What the file's draft (its omissions filled from the stored domain) changes in a stored
    /// domain, one line each; pausing is the caller's, as it is a step of its own.
    private func domainChanges(_ existing: DomainRecord, _ draft: DomainDraft) -> [String] {
        var details: [String] = []
        if draft.intervalSeconds != existing.intervalSeconds {
            details.append("interval_minutes: \(existing.intervalSeconds / 60) → \(draft.intervalSeconds / 60)")
        }
        if draft.badgeEnabled != existing.badgeEnabled { details.append("badge: \(existing.badgeEnabled) → \(draft.badgeEnabled)") }
        if draft.platforms != existing.platforms {
            details.append("platforms: \(existing.platforms.rawValue) → \(draft.platforms.rawValue)")
        }
        // Added: what the file wants and the domain lacks (an app may have put it there already).
        // Removed: the domain's own that the file leaves out (what apps put stays theirs).
        let stored = state.appIDs[existing.id, default: []], own = state.ownAppIDs(existing.id), wanted = Set(draft.appIDs)
        details += wanted.subtracting(stored).sorted(by: Self.appOrder).map { "+ app_ids.\($0.service.rawValue): \($0.appID)" }
        details += own.subtracting(wanted).sorted(by: Self.appOrder).map { "- app_ids.\($0.service.rawValue): \($0.appID)" }
        let storedURLs = state.watched[existing.id, default: []], ownURLs = state.ownWatchedURLs(existing.id)
        let wantedURLs = Set(draft.watchedURLs)
        details += wantedURLs.subtracting(storedURLs).sorted { $0.url < $1.url }
            .map { "+ watched_urls: \($0.url) (expect \($0.expectedAppID ?? "browser")\($0.android.map { ", android \($0)" } ?? ""))" }
        details += ownURLs.subtracting(wantedURLs).sorted { $0.url < $1.url }
            .map { "- watched_urls: \($0.url) (expect \($0.expectedAppID ?? "browser")\($0.android.map { ", android \($0)" } ?? ""))" }
        // The domain's own Android apps, by package: the file's replace what is stored.
        let storedApps = state.androidApps[existing.id, default: []], wantedApps = draft.androidApps ?? []
        let storedByPackage = Dictionary(storedApps.map { ($0.packageName, $0) }, uniquingKeysWith: { first, _ in first })
        let wantedPackages = Set(wantedApps.map(\.packageName))
        for app in wantedApps where storedByPackage[app.packageName] != app {
            details.append(storedByPackage[app.packageName].map { "android_apps: \(Self.describe($0)) → \(Self.describe(app))" }
                           ?? "+ android_apps: \(Self.describe(app))")
        }
        details += storedApps.filter { !wantedPackages.contains($0.packageName) }.map { "- android_apps: \(Self.describe($0))" }
        return details
    }

    /// `com.example.app (AB:CD…, 2 keys)`: enough to tell two fingerprint sets apart in a plan.
    static func describe(_ app: AndroidAppExpectation) -> String {
        let first = app.fingerprints.first.map { String($0.prefix(11)) + "…" } ?? "no key"
        let upload = app.uploadKeys.isEmpty ? "" : ", \(app.uploadKeys.count) upload"
        return "\(app.packageName) (\(first)\(app.fingerprints.count > 1 ? ", \(app.fingerprints.count) keys" : "")\(upload))"
    }

    static func appOrder(_ a: AppIDExpectation, _ b: AppIDExpectation) -> Bool { (a.service, a.appID) < (b.service, b.appID) }

    // MARK: Channels

    mutating func planChannels(_ desired: [DesiredChannel]) {
        var matched: Set<Int64> = []
        for d in desired {
            checkRoutes(d)
            let named = state.channels.filter { $0.name == d.entry.name }
            if named.count > 1 {
                problems.append(ConfigProblem(line: d.entry.lines.name, "\(named.count) channels are named \"\(d.entry.name)\" in the database; "
                                              + "rename all but one in the settings page first"))
                continue
            }
            // A channel made by hand without a name is taken over by the file's entry of the same
            // kind and target, instead of being duplicated (export names such channels kind-id).
            let existing = named.first ?? state.channels.first {
                $0.name.isEmpty && $0.kind == d.kind && $0.target == d.target && !matched.contains($0.id)
            }
            guard let existing else {
                planNewChannel(d)
                continue
            }
            matched.insert(existing.id)
            guard existing.kind == d.kind else {
                problems.append(ConfigProblem(line: d.entry.lines.kind, "\(d.entry.name) is a \(existing.kind.rawValue) channel; a channel's "
                                              + "kind cannot change: give the \(d.kind.rawValue) channel another name"))
                continue
            }
            let details = channelChanges(existing, d)
            if !details.isEmpty {
                plan.steps.append(.init(action: .change, subject: .channel(d.entry.name), details: details))
                work.append(.changeChannel(existing, d))
            }
        }
        let declared = Set(desired.map(\.entry.name))
        for existing in state.channels where !matched.contains(existing.id) && !declared.contains(existing.name) {
            let name = existing.name.isEmpty ? "\(existing.kind.rawValue)-\(existing.id)" : existing.name
            guard document.sections.contains(.channels) else { continue }
            if prune {
                plan.steps.append(.init(action: .remove, subject: .channel(name), details: ["with its delivery log"]))
                work.append(.removeChannel(existing.id))
            } else {
                plan.keptChannels.append(name)
            }
        }
    }

    /// A channel routes only to domains and apps that exist after the apply.
    private mutating func checkRoutes(_ d: DesiredChannel) {
        for (key, line) in d.hosts where !reachable.contains(key) {
            let host = (key.wildcard ? "*." : "") + key.host
            problems.append(ConfigProblem(line: line, "\(d.entry.name): \(host) is neither declared in this file nor registered"
                                          + (state.byKey[key] != nil ? " (--prune removes it)" : "")))
        }
        for (app, line) in d.apps where !appsAfter.contains(app) {
            problems.append(ConfigProblem(line: line, "\(d.entry.name): no app is named \"\(app)\" in this file or the database"
                                          + (state.apps.contains { $0.name == app } ? " (--prune removes it)" : "")))
        }
    }

    /// A channel the database lacks: added, unless its kind needs a secret the file does not give.
    private mutating func planNewChannel(_ d: DesiredChannel) {
        if let key = d.fields.secretKey, d.fields.secretRequired, d.secret == nil {
            let what = d.kind.inputs.generatesSigningSecret ? "a whsec_ signing secret" : "its \(d.kind.inputs.credential ?? key)"
            problems.append(ConfigProblem(line: d.entry.lines.entry, "\(d.entry.name): a new \(d.kind.rawValue) channel needs "
                                          + "\(key): ${NAME}, \(what) from the environment"))
            return
        }
        var details = ["kind: \(d.kind.rawValue)", shown(d)]
        if let key = d.fields.secretKey, let secret = d.secret {
            details.append("\(key): (from \(secret.references.map { "${\($0)}" }.joined(separator: ", ")))")
        }
        if let key = d.fields.recipientKey, let recipient = d.new.settings.recipient { details.append("\(key): \(recipient)") }
        if let key = d.fields.templateKey, let body = d.new.settings.bodyTemplate { details.append("\(key): (\(body.count) characters)") }
        details += routing(d)
        plan.steps.append(.init(action: .add, subject: .channel(d.entry.name), details: details))
        work.append(.addChannel(d))
    }

    /// What applying the file's entry changes in a channel of the same kind, one line each; secrets are not shown.
    private func channelChanges(_ existing: ChannelRecord, _ d: DesiredChannel) -> [String] {
        var details: [String] = []
        if existing.name != d.entry.name { details.append("name: (none) → \(d.entry.name)") }
        let key = d.fields.targetKey
        if existing.target != d.target {
            details.append(d.fields.targetIsSecret || d.targetText?.isReference == true
                           ? "\(key) changed (a secret: not shown)" : "\(key): \(existing.target) → \(d.target)")
        } else if existing.targetTemplate != d.targetText?.template {
            details.append(d.targetText.map { Self.source(key, $0) } ?? "\(key) is now the provider's default")
        }
        if let secret = d.secret, let secretKey = d.fields.secretKey {
            if existing.secret != secret.value {
                details.append("\(secretKey) changed (not shown)")
            } else if existing.secretTemplate != secret.template {
                details.append(Self.source(secretKey, secret))
            }
        }
        if existing.recipient != d.new.settings.recipient, let recipientKey = d.fields.recipientKey {
            details.append("\(recipientKey): \(existing.recipient ?? "(none)") → \(d.new.settings.recipient ?? "(none)")")
        }
        if existing.bodyTemplate != d.new.settings.bodyTemplate, let templateKey = d.fields.templateKey { details.append("\(templateKey) changed") }
        if existing.enabled != d.entry.enabled { details.append("enabled: \(existing.enabled) → \(d.entry.enabled)") }
        if existing.minSeverity != d.entry.minSeverity {
            details.append("min_severity: \(existing.minSeverity.rawValue) → \(d.entry.minSeverity.rawValue)")
        }
        let before = Set(existing.domainIDs.compactMap { id in state.domains.first { $0.id == id }.map { DomainKey(host: $0.host, wildcard: $0.wildcard) } })
        if before != Set(d.hosts.map(\.key)) {
            details.append("domains: \(Self.hostList(before)) → \(Self.hostList(Set(d.hosts.map(\.key))))")
        }
        let appsBefore = Set(existing.appIDs.compactMap { id in state.apps.first { $0.id == id }?.name })
        if appsBefore != Set(d.apps.map(\.name)) {
            details.append("apps: \(Self.nameList(appsBefore)) → \(Self.nameList(Set(d.apps.map(\.name))))")
        }
        return details
    }

    private func shown(_ d: DesiredChannel) -> String {
        let key = d.fields.targetKey
        guard let text = d.targetText else { return "\(key): \(d.target) (the provider's)" }
        if text.isReference { return "\(key): (from \(text.references.map { "${\($0)}" }.joined(separator: ", ")))" }
        return d.fields.targetIsSecret ? "\(key): (a secret: not shown)" : "\(key): \(d.target)"
    }

    private func routing(_ d: DesiredChannel) -> [String] {
        var lines = ["min_severity: \(d.entry.minSeverity.rawValue)", "domains: \(Self.hostList(Set(d.hosts.map(\.key))))"]
        if !d.apps.isEmpty { lines.append("apps: \(Self.nameList(Set(d.apps.map(\.name))))") }
        if !d.entry.enabled { lines.append("enabled: false") }
        return lines
    }

    private static func source(_ key: String, _ text: ConfigText) -> String {
        text.isReference ? "\(key) is now read from \(text.references.map { "${\($0)}" }.joined(separator: ", "))" : "\(key) is now written in the file"
    }

    private static func nameList(_ names: Set<String>) -> String {
        names.isEmpty ? "(none)" : names.sorted().joined(separator: ", ")
    }

    private static func hostList(_ keys: Set<DomainKey>) -> String {
        keys.isEmpty ? "all" : keys.map { ($0.wildcard ? "*." : "") + $0.host }.sorted().joined(separator: ", ")
    }

    // MARK: Making the changes

    /// Runs the plan in the caller's transaction: removals first (a pruned domain's channel routes
    /// go with it), then domains, then channels (which may route to a domain added just now).
    mutating func execute(on c: Connection) throws {
        var ids = KnownIDs(state: state, connection: c)
        var remeasure: [Int64] = []
        // Removals first; then domains, apps (which may claim a domain added just now), channels
        // (which may route to either).
        let ordered = work.filter(\.isRemoval) + work.filter(\.isDomainStep) + work.filter(\.isAppStep) + work.filter(\.isChannelStep)
        for step in ordered { try perform(step, ids: &ids, remeasure: &remeasure, on: c) }
        for id in remeasure { try DomainVerdict.reevaluate(domainID: id, on: c) }
    }

    /// One step of the plan; `remeasure` collects the domains whose expectations it changed.
    private mutating func perform(_ step: Work, ids: inout KnownIDs, remeasure: inout [Int64], on c: Connection) throws {
        switch step {
        case .removeApp(let id):
            remeasure += state.appLinks[id, default: []].map(\.domainID)
            _ = try c.removeApp(id: id)
        case .addApp(let a):
            if case .nameTaken = try c.insertApp(a.plan.draft, intervalSeconds: defaultIntervalSeconds) {
                throw ConfigRefusal([ConfigProblem(line: a.entry.lines.name, "an app named \"\(a.entry.name)\" was registered meanwhile; apply again")])
            }
            for key in a.plan.draft.domains { if let id = try ids.domain(DomainKey(host: key.host, wildcard: key.wildcard)) { remeasure.append(id) } }
        case .changeApp(let id, let a):
            remeasure += state.appLinks[id, default: []].map(\.domainID)
            _ = try c.replaceApp(id: id, a.plan.draft, intervalSeconds: defaultIntervalSeconds)
            for key in a.plan.draft.domains { if let id = try ids.domain(DomainKey(host: key.host, wildcard: key.wildcard)) { remeasure.append(id) } }
        case .removeChannel(let id):
            try c.deleteChannel(id: id)
        case .removeDomain(let id):
            try c.deleteDomain(id: id)
        case .addDomain(let key, let draft, let paused):
            switch try c.insertDomain(draft, requestFirstCheck: true) {
            case .created(let id), .alreadyRegistered(let id):
                ids.known[key] = id
                if paused { _ = try c.setPaused(domainID: id, true) }
            }
        case .pauseDomain(let id, let paused):
            _ = try c.setPaused(domainID: id, paused)
            if !paused { registersDomains = true }
        case .changeDomain(let id, let draft):
            _ = try c.changeDomain(id: id, draft)
            remeasure.append(id)
            // As DomainRegistry.edit: a newly watched platform has no file stored to re-measure, and one
            // no longer watched closes its open alerts only when a check runs, so a switch asks for one.
            if state.domains.first(where: { $0.id == id })?.platforms != draft.platforms {
                _ = try c.requestCheck(domainID: id)
                registersDomains = true
            }
        case .addChannel(let d):
            var new = d.new
            // A signed webhook without a secret in the file is refused by the planner.
            if new.secret == nil && d.kind.inputs.generatesSigningSecret { new.secret = WebhookSecret.generate().text }
            new.settings.domainIDs = try d.hosts.compactMap { try ids.domain($0.key) }
            new.settings.appIDs = try d.apps.compactMap { try ids.app($0.name) }
            let created = try c.createChannel(new)
            try c.setChannelConfig(id: created.id, secret: nil, targetTemplate: d.targetText?.template, secretTemplate: d.secret?.template)
        case .changeChannel(let existing, let d):
            var settings = d.new.settings
            settings.domainIDs = try d.hosts.compactMap { try ids.domain($0.key) }
            settings.appIDs = try d.apps.compactMap { try ids.app($0.name) }
            try c.updateChannel(id: existing.id, settings)
            try c.setChannelConfig(id: existing.id, secret: d.secret?.value, targetTemplate: d.targetText?.template,
                                   secretTemplate: d.secret?.template ?? existing.secretTemplate)
        }
    }

    /// The ids of domains and apps as the apply makes them: those stored before it, then those it
    /// (or an app it registers) inserted, read back once.
    private struct KnownIDs {
        let state: ConfigState
        let connection: Connection
        var known: [DomainKey: Int64] = [:]

        init(state: ConfigState, connection: Connection) {
            self.state = state
            self.connection = connection
            for d in state.domains { known[DomainKey(host: d.host, wildcard: d.wildcard)] = d.id }
        }

        mutating func domain(_ key: DomainKey) throws -> Int64? {
            if let id = known[key] { return id }
            let id = try connection.domainID(host: key.host, wildcard: key.wildcard)   // registered by an app just now
            known[key] = id
            return id
        }

        // An app the file adds has its id once it is inserted, before the channels are made.
        func app(_ name: String) throws -> Int64? {
            try state.apps.first { $0.name == name }?.id ?? connection.app(name: name)?.id
        }
    }
}

extension ConfigPlanner.Work {
    var isRemoval: Bool {
        switch self {
        case .removeChannel, .removeDomain, .removeApp: true
        default: false
        }
    }

    var isDomainStep: Bool {
        switch self {
        case .addDomain, .changeDomain, .pauseDomain: true
        default: false
        }
    }

    var isAppStep: Bool {
        switch self {
        case .addApp, .changeApp: true
        default: false
        }
    }

    var isChannelStep: Bool {
        switch self {
        case .addChannel, .changeChannel: true
        default: false
        }
    }
}

/// An app's claim, compared without how the entry was spelled.
struct LinkKey: Hashable, CustomStringConvertible {
    var domain: DomainKey
    var platform: Platform
    var service: Service
    var developerMode: Bool
    var managedMode: Bool

    var description: String {
        let host = (domain.wildcard ? "*." : "") + domain.host
        return "\(platform.rawValue) \(service.rawValue) \(host)" + (developerMode ? " (developer mode)" : "") + (managedMode ? " (managed)" : "")
    }
}

struct URLKey: Hashable {
    var url: String
    var domain: DomainKey
    /// The config file's key it is written under: watched_urls, or android_watched_urls.
    var field: String
}
