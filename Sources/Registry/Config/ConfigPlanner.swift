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
    var plan = ConfigPlan()
    var problems: [ConfigProblem] = []

    fileprivate enum Work {
        case removeChannel(Int64)
        case removeDomain(Int64)
        case addDomain(DomainKey, DomainDraft)
        case changeDomain(Int64, DomainDraft)
        case addChannel(DesiredChannel)
        case changeChannel(ChannelRecord, DesiredChannel)
    }

    private var work: [Work] = []
    /// Domains that will exist after the apply: the file's, and those kept.
    private var reachable: Set<DomainKey> = []

    init(state: ConfigState, document: ConfigDocument, prune: Bool) {
        self.state = state
        self.document = document
        self.prune = prune
    }

    // MARK: Domains

    mutating func planDomains(_ desired: [DesiredDomain]) {
        let declared = Set(desired.map(\.key))
        for d in desired {
            reachable.insert(d.key)
            let name = (d.draft.wildcard ? "*." : "") + d.draft.displayName
            guard let existing = state.byKey[d.key] else {
                var details = ["interval_minutes: \(d.draft.intervalSeconds / 60)"]
                if d.draft.badgeEnabled { details.append("badge: true") }
                details += d.draft.appIDs.map { "app_ids.\($0.service.rawValue): \($0.appID)" }
                details += d.draft.watchedURLs.map { "watched_urls: \($0.url) (expect \($0.expectedAppID ?? "browser"))" }
                plan.steps.append(.init(action: .add, subject: .domain(name), details: details))
                work.append(.addDomain(d.key, d.draft))
                continue
            }
            var draft = d.draft
            // What the file leaves out stays as it is.
            if d.entry.intervalMinutes == nil { draft.intervalSeconds = existing.intervalSeconds }
            if d.entry.badge == nil { draft.badgeEnabled = existing.badgeEnabled }
            var details: [String] = []
            if draft.intervalSeconds != existing.intervalSeconds {
                details.append("interval_minutes: \(existing.intervalSeconds / 60) → \(draft.intervalSeconds / 60)")
            }
            if draft.badgeEnabled != existing.badgeEnabled { details.append("badge: \(existing.badgeEnabled) → \(draft.badgeEnabled)") }
            let apps = state.ownAppIDs(existing.id), wanted = Set(draft.appIDs)
            details += wanted.subtracting(apps).sorted(by: Self.appOrder).map { "+ app_ids.\($0.service.rawValue): \($0.appID)" }
            details += apps.subtracting(wanted).sorted(by: Self.appOrder).map { "- app_ids.\($0.service.rawValue): \($0.appID)" }
            let urls = state.ownWatchedURLs(existing.id), wantedURLs = Set(draft.watchedURLs)
            details += wantedURLs.subtracting(urls).sorted { $0.url < $1.url }.map { "+ watched_urls: \($0.url) (expect \($0.expectedAppID ?? "browser"))" }
            details += urls.subtracting(wantedURLs).sorted { $0.url < $1.url }.map { "- watched_urls: \($0.url) (expect \($0.expectedAppID ?? "browser"))" }
            if !details.isEmpty {
                plan.steps.append(.init(action: .change, subject: .domain(name), details: details))
                work.append(.changeDomain(existing.id, state.withAppPlaced(draft, domainID: existing.id)))
            }
        }
        for existing in state.domains where !declared.contains(DomainKey(host: existing.host, wildcard: existing.wildcard)) {
            // A list the file does not name is not its business: neither pruned nor reported.
            guard document.sections.contains(.domains) else {
                reachable.insert(DomainKey(host: existing.host, wildcard: existing.wildcard))
                continue
            }
            if prune {
                plan.steps.append(.init(action: .remove, subject: .domain(ConfigState.name(of: existing)),
                                        details: ["with its history of checks and alerts"]))
                work.append(.removeDomain(existing.id))
            } else {
                reachable.insert(DomainKey(host: existing.host, wildcard: existing.wildcard))
                plan.keptDomains.append(ConfigState.name(of: existing))
            }
        }
    }

    static func appOrder(_ a: AppIDExpectation, _ b: AppIDExpectation) -> Bool { (a.service, a.appID) < (b.service, b.appID) }

    // MARK: Channels

    mutating func planChannels(_ desired: [DesiredChannel]) {
        var matched: Set<Int64> = []
        for d in desired {
            for (key, line) in d.hosts where !reachable.contains(key) {
                let host = (key.wildcard ? "*." : "") + key.host
                problems.append(ConfigProblem(line: line, "\(d.entry.name): \(host) is neither declared in this file nor registered"
                                              + (state.byKey[key] != nil ? " (--prune removes it)" : "")))
            }
            let named = state.channels.filter { $0.name == d.entry.name }
            if named.count > 1 {
                problems.append(ConfigProblem(line: d.entry.lines.name, "\(named.count) channels are named \"\(d.entry.name)\" in the database; "
                                              + "rename all but one in the settings page first"))
                continue
            }
            // A channel made by hand without a name is taken over by the file's entry of the same
            // kind and target, instead of being duplicated (export names such channels kind-id).
            let existing = named.first ?? state.channels.first {
                $0.name.isEmpty && $0.kind == d.kind && $0.target == d.target.value && !matched.contains($0.id)
            }
            guard let existing else {
                if d.fields.takesSigningSecret && d.secret == nil {
                    problems.append(ConfigProblem(line: d.entry.lines.entry, "\(d.entry.name): a new \(d.kind.rawValue) channel needs "
                                                  + "secret: ${NAME}, a whsec_ signing secret from the environment"))
                    continue
                }
                var details = ["kind: \(d.kind.rawValue)", shown(d, d.target.value)]
                if d.secret != nil { details.append("secret: (from \(d.secret?.references.map { "${\($0)}" }.joined(separator: ", ") ?? ""))") }
                details += routing(d)
                plan.steps.append(.init(action: .add, subject: .channel(d.entry.name), details: details))
                work.append(.addChannel(d))
                continue
            }
            matched.insert(existing.id)
            guard existing.kind == d.kind else {
                problems.append(ConfigProblem(line: d.entry.lines.kind, "\(d.entry.name) is a \(existing.kind.rawValue) channel; a channel's "
                                              + "kind cannot change: give the \(d.kind.rawValue) channel another name"))
                continue
            }
            var details: [String] = []
            if existing.name != d.entry.name { details.append("name: (none) → \(d.entry.name)") }
            let key = d.fields.targetKey
            if existing.target != d.target.value {
                details.append(d.fields.targetIsSecret || d.target.isReference
                               ? "\(key) changed (a secret: not shown)" : "\(key): \(existing.target) → \(d.target.value)")
            } else if existing.targetTemplate != d.target.template {
                details.append(Self.source(key, d.target))
            }
            if let secret = d.secret {
                if existing.secret != secret.value {
                    details.append("secret changed (not shown)")
                } else if existing.secretTemplate != secret.template {
                    details.append(Self.source("secret", secret))
                }
            }
            if existing.enabled != d.entry.enabled { details.append("enabled: \(existing.enabled) → \(d.entry.enabled)") }
            if existing.minSeverity != d.entry.minSeverity {
                details.append("min_severity: \(existing.minSeverity.rawValue) → \(d.entry.minSeverity.rawValue)")
            }
            let before = Set(existing.domainIDs.compactMap { id in state.domains.first { $0.id == id }.map { DomainKey(host: $0.host, wildcard: $0.wildcard) } })
            if before != Set(d.hosts.map(\.key)) {
                details.append("domains: \(Self.hostList(before)) → \(Self.hostList(Set(d.hosts.map(\.key))))")
            }
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

    private func shown(_ d: DesiredChannel, _ value: String) -> String {
        let key = d.fields.targetKey
        if d.target.isReference { return "\(key): (from \(d.target.references.map { "${\($0)}" }.joined(separator: ", ")))" }
        return d.fields.targetIsSecret ? "\(key): (a secret: not shown)" : "\(key): \(value)"
    }

    private func routing(_ d: DesiredChannel) -> [String] {
        var lines = ["min_severity: \(d.entry.minSeverity.rawValue)", "domains: \(Self.hostList(Set(d.hosts.map(\.key))))"]
        if !d.entry.enabled { lines.append("enabled: false") }
        return lines
    }

    private static func source(_ key: String, _ text: ConfigText) -> String {
        text.isReference ? "\(key) is now read from \(text.references.map { "${\($0)}" }.joined(separator: ", "))" : "\(key) is now written in the file"
    }

    private static func hostList(_ keys: Set<DomainKey>) -> String {
        keys.isEmpty ? "all" : keys.map { ($0.wildcard ? "*." : "") + $0.host }.sorted().joined(separator: ", ")
    }

    // MARK: Making the changes

    /// Runs the plan in the caller's transaction: removals first (a pruned domain's channel routes
    /// go with it), then domains, then channels (which may route to a domain added just now).
    mutating func execute(on c: Connection) throws {
        var ids: [DomainKey: Int64] = [:]
        for d in state.domains { ids[DomainKey(host: d.host, wildcard: d.wildcard)] = d.id }
        var remeasure: [Int64] = []
        let ordered = work.filter(\.isRemoval) + work.filter { !$0.isRemoval }
        for step in ordered {
            switch step {
            case .removeChannel(let id):
                try c.deleteChannel(id: id)
            case .removeDomain(let id):
                try c.deleteDomain(id: id)
            case .addDomain(let key, let draft):
                switch try c.insertDomain(draft, requestFirstCheck: true) {
                case .created(let id), .alreadyRegistered(let id): ids[key] = id
                }
            case .changeDomain(let id, let draft):
                _ = try c.changeDomain(id: id, draft)
                remeasure.append(id)
            case .addChannel(let d):
                // Slack channels get a signing secret too, as from the settings page; it is not used for Slack.
                let secret = d.secret?.value ?? (d.kind == .email ? nil : WebhookSecret.generate().text)
                let created = try c.createChannel(NewChannel(kind: d.kind, name: d.entry.name, target: d.target.value, secret: secret,
                                                             minSeverity: d.entry.minSeverity, domainIDs: d.hosts.compactMap { ids[$0.key] }))
                if !d.entry.enabled {
                    try c.updateChannel(id: created.id, ChannelChanges(name: d.entry.name, target: d.target.value, enabled: false,
                                                                       minSeverity: d.entry.minSeverity, domainIDs: created.domainIDs))
                }
                try c.setChannelConfig(id: created.id, secret: nil, targetTemplate: d.target.template, secretTemplate: d.secret?.template)
            case .changeChannel(let existing, let d):
                try c.updateChannel(id: existing.id, ChannelChanges(name: d.entry.name, target: d.target.value, enabled: d.entry.enabled,
                                                                    minSeverity: d.entry.minSeverity, domainIDs: d.hosts.compactMap { ids[$0.key] }))
                try c.setChannelConfig(id: existing.id, secret: d.secret?.value, targetTemplate: d.target.template,
                                       secretTemplate: d.secret?.template ?? existing.secretTemplate)
            }
        }
        for id in remeasure { try DomainVerdict.reevaluate(domainID: id, on: c) }
    }
}

extension ConfigPlanner.Work {
    var isRemoval: Bool {
        switch self {
        case .removeChannel, .removeDomain: true
        default: false
        }
    }
}
