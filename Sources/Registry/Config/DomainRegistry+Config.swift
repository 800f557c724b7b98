import ConfigFile
import Fetch
import Monitor
import Notify
import Store
import Vocabulary

/// Config as code: `aasa-monitor apply FILE`, `serve --config FILE` and `export --yaml`. A file is
/// checked whole by the same rules as the form (`validate`) and the channel setup, then every change
/// is made in one transaction; one bad entry refuses the file and changes nothing.
extension DomainRegistry {
    /// Makes the database say what `document` says: adds what is missing, changes what differs and,
    /// with `prune`, removes what the file's lists leave out (a list the file does not name is never
    /// pruned). With `dryRun`, plans and writes nothing. Applying the same file twice changes nothing
    /// the second time. Throws `ConfigRefusal` with every problem by line when any entry is invalid.
    /// `readerProblems`: what reading the file already found (`ConfigReader.reading`); they refuse the
    /// file too, reported together with what these checks find in the entries that were read.
    public func apply(_ document: ConfigDocument, prune: Bool = false, dryRun: Bool = false,
                      readerProblems: [ConfigProblem] = []) throws -> ConfigPlan {
        var problems = readerProblems
        let defaultMinutes = try defaultIntervalMinutes()
        let desiredDomains = checkDomains(document.domains, defaultMinutes: defaultMinutes, problems: &problems)
        let desiredApps = try checkApps(document.apps, problems: &problems)
        let desiredChannels = checkChannels(document.channels, problems: &problems)
        let (plan, addedDomains) = try store.withTransaction { c -> (ConfigPlan, Bool) in
            try c.lockConfigApply()
            var planner = ConfigPlanner(state: try ConfigState(c), document: document, prune: prune, defaultIntervalSeconds: defaultMinutes * 60)
            planner.planApps(desiredApps, fileDomains: Set(desiredDomains.map(\.key)))
            planner.planDomains(desiredDomains)
            planner.planChannels(desiredChannels)
            let tuning = try Self.planAlerts(document.alerts, current: c.alertTuning(), plan: &planner.plan, problems: &problems)
            planner.finish()
            problems += planner.problems
            guard problems.isEmpty else { throw ConfigRefusal(problems) }
            guard !dryRun else { return (planner.plan, false) }
            try planner.execute(on: c)
            if let tuning { try c.setAlertTuning(tuning) }
            planner.plan.applied = true
            return (planner.plan, planner.registersDomains)
        }
        if addedDomains { crawlers.notify() }
        return plan
    }

    /// The tuning `alerts:` asks for over the current one, with a plan step when it differs; nil when
    /// there is nothing to write. A value out of range is a problem on its line.
    static func planAlerts(_ entry: AlertsEntry?, current: AlertTuning, plan: inout ConfigPlan, problems: inout [ConfigProblem]) -> AlertTuning? {
        guard let entry else { return nil }
        var desired = current
        desired.failureThreshold = entry.failureThreshold ?? current.failureThreshold
        desired.successThreshold = entry.successThreshold ?? current.successThreshold
        desired.retryMinutes = entry.retryMinutes ?? current.retryMinutes
        let lines = ["failure_threshold": entry.lines.failureThreshold, "success_threshold": entry.lines.successThreshold,
                     "retry_minutes": entry.lines.retryMinutes]
        let found = desired.problems.sorted { $0.key < $1.key }
        for (field, message) in found { problems.append(ConfigProblem(line: lines[field] ?? entry.lines.entry, "alerts: \(message)")) }
        guard found.isEmpty, desired != current else { return nil }
        var details: [String] = []
        for (name, old, new) in [("failure_threshold", current.failureThreshold, desired.failureThreshold),
                                 ("success_threshold", current.successThreshold, desired.successThreshold),
                                 ("retry_minutes", current.retryMinutes, desired.retryMinutes)] where old != new {
            details.append("\(name): \(old) → \(new)")
        }
        plan.steps.append(.init(action: .change, subject: .settings("alerts"), details: details))
        return desired
    }

    /// Everything apply manages, as a file would declare it. Channel secrets are written as the
    /// references the file gave (`${NAME}`), or as a placeholder to fill in; never as values.
    public func exportConfig() throws -> ConfigDocument {
        try store.withTransaction(isolation: .repeatableRead) { c in
            let state = try ConfigState(c)
            var document = ConfigDocument(sections: [.domains, .apps, .channels])
            for domain in state.domains {
                let apps = state.ownAppIDs(domain.id).sorted { ($0.service, $0.appID) < ($1.service, $1.appID) }
                let watched = state.ownWatchedURLs(domain.id).sorted { $0.url < $1.url }
                document.domains.append(DomainEntry(
                    host: ConfigState.name(of: domain), intervalMinutes: domain.intervalSeconds / 60, badge: domain.badgeEnabled,
                    // Left out when it is the default, so an export of a setup that never chose stays as it was.
                    platforms: domain.platforms == .both ? nil : domain.platforms.rawValue,
                    // Only a paused domain says so: applying an export elsewhere leaves a domain
                    // paused there as it is, as a file that never mentioned pausing does.
                    paused: domain.paused ? true : nil,
                    appIDs: apps.map(AppIDEntry.init), watchedURLs: watched.map(WatchedURLEntry.init),
                    // An upload key is written once, under upload_keys (apply stores it among the fingerprints too).
                    androidApps: state.androidApps[domain.id, default: []].map { app in
                        AndroidAppEntry(package: app.packageName, fingerprints: app.fingerprints.filter { !app.uploadKeys.contains($0) },
                                        uploadKeys: app.uploadKeys)
                    }))
            }
            for app in state.apps {
                let r = AppRegistration(app, links: state.appLinks[app.id, default: []], watchedURLs: state.appWatched[app.id, default: []])
                document.apps.append(AppEntry(name: r.name, appleAppIDs: r.appleAppIDs, appleDomains: r.appleDomains, androidPackage: r.androidPackage,
                                              fingerprints: r.fingerprints, androidHosts: r.androidHosts, watchedURLs: r.watchedURLs,
                                              androidWatchedURLs: r.androidWatchedURLs))
            }
            for channel in state.channels {
                let fields = ChannelFields.of(channel.kind)
                let name = channel.name.isEmpty ? "\(channel.kind.rawValue)-\(channel.id)" : channel.name
                var settings: [(key: String, text: ConfigText)] = []
                if let template = channel.targetTemplate {
                    settings.append((fields.targetKey, ConfigText(template: template)))
                } else if channel.target == fields.defaultTarget {
                    // The provider's own API: left out, as a file that never named it.
                } else if fields.targetIsSecret {
                    settings.append((fields.targetKey, ConfigText(template: ChannelFields.placeholder(channel: name, key: fields.targetKey))))
                } else {
                    settings.append((fields.targetKey, ConfigText(literal: channel.target)))
                }
                // A secret with no reference: a placeholder where the kind cannot do without it,
                // else left out (apply then keeps the stored one).
                if let key = fields.secretKey, channel.secret != nil {
                    if let template = channel.secretTemplate {
                        settings.append((key, ConfigText(template: template)))
                    } else if fields.secretRequired && !channel.kind.inputs.generatesSigningSecret {
                        settings.append((key, ConfigText(template: ChannelFields.placeholder(channel: name, key: key))))
                    }
                }
                if let key = fields.recipientKey, let recipient = channel.recipient { settings.append((key, ConfigText(literal: recipient))) }
                if let key = fields.templateKey, let body = channel.bodyTemplate { settings.append((key, ConfigText(literal: body))) }
                document.channels.append(ChannelEntry(
                    name: name, kind: channel.kind.rawValue, minSeverity: channel.minSeverity,
                    domains: channel.domainIDs.compactMap { id in state.domains.first { $0.id == id }.map(ConfigState.name(of:)) },
                    apps: channel.appIDs.compactMap { id in state.apps.first { $0.id == id }?.name },
                    enabled: channel.enabled, settings: settings))
            }
            // Written when it differs from the defaults, so an instance that never chose exports as before.
            let tuning = try c.alertTuning()
            if tuning != .defaults {
                document.alerts = AlertsEntry(failureThreshold: tuning.failureThreshold, successThreshold: tuning.successThreshold,
                                              retryMinutes: tuning.retryMinutes)
            }
            return document
        }
    }

    // MARK: Checking the file by the form's rules

    private func checkDomains(_ entries: [DomainEntry], defaultMinutes: Int, problems: inout [ConfigProblem]) -> [DesiredDomain] {
        var desired: [DesiredDomain] = []
        var seen: [DomainKey: Int] = [:]
        for entry in entries {
            // An interval the file leaves out is checked as the default, and kept as it is for a
            // domain that exists (see `ConfigPlanner`).
            let registration = Registration(
                host: entry.host, appIDs: entry.appIDs,
                watchedURLs: entry.watchedURLs,
                intervalMinutes: entry.intervalMinutes ?? defaultMinutes, badge: entry.badge ?? false, platforms: entry.platforms,
                androidApps: entry.androidApps)
            do {
                let draft = try validate(registration, editing: nil)
                let key = DomainKey(host: draft.host, wildcard: draft.wildcard)
                if let first = seen[key] {
                    problems.append(ConfigProblem(line: entry.lines.host, "\(entry.host) is the same domain as on line \(first)"))
                    continue
                }
                seen[key] = entry.lines.host
                desired.append(DesiredDomain(entry: entry, draft: draft, key: key))
            } catch {
                for (field, message) in error.fieldMessages {
                    problems.append(ConfigProblem(line: Self.line(of: field, in: entry), "\(entry.host): \(message)"))
                }
            }
        }
        return desired
    }

    /// Each app by the app form's rules (`AppRegistry.plan`, which writes nothing); an app the
    /// database has by that name is planned as its edit.
    private func checkApps(_ entries: [AppEntry], problems: inout [ConfigProblem]) throws -> [DesiredApp] {
        let apps = AppRegistry(store: store, policy: policy)
        var desired: [DesiredApp] = []
        for entry in entries {
            let registration = AppRegistration(
                name: entry.name, appleAppIDs: entry.appleAppIDs, androidPackage: entry.androidPackage,
                fingerprints: entry.fingerprints,
                appleDomains: entry.appleDomains, androidHosts: entry.androidHosts, watchedURLs: entry.watchedURLs,
                androidWatchedURLs: entry.androidWatchedURLs)
            do {
                let plan = try apps.plan(registration, editing: try store.app(name: entry.name))
                desired.append(DesiredApp(entry: entry, plan: plan))
            } catch let error as AppRegistrationError {
                for p in error.problems { problems.append(ConfigProblem(line: Self.line(of: p.field, in: entry), "\(entry.name): \(p.reason)")) }
            }
        }
        return desired
    }

    private static func line(of field: AppField, in entry: AppEntry) -> Int {
        let lines = entry.lines
        func at(_ list: [Int], _ i: Int) -> Int { list.indices.contains(i) ? list[i] : lines.entry }
        switch field {
        case .name: return lines.name == 0 ? lines.entry : lines.name
        case .appleAppID(let i): return at(lines.appleAppIDs, i)
        case .androidPackage: return lines.androidPackage == 0 ? lines.entry : lines.androidPackage
        case .fingerprint(let i): return at(lines.fingerprints, i)
        // The entitlement reader numbers typed entries from 1.
        case .appleDomains(let line?): return at(lines.appleDomains, line - 1)
        case .androidHost(let i): return at(lines.androidHosts, i)
        case .watchedURL(let i): return at(lines.watchedURLs, i)
        case .androidWatchedURL(let i): return at(lines.androidWatchedURLs, i)
        case .appleDomains(nil), .entitlementsFile, .manifestFile, .app: return lines.entry
        }
    }

    private static func line(of field: RegistrationField, in entry: DomainEntry) -> Int {
        let lines = entry.lines
        func at(_ list: [Int], _ i: Int) -> Int { list.indices.contains(i) ? list[i] : lines.entry }
        switch field {
        case .host: return lines.host
        case .interval: return lines.interval == 0 ? lines.entry : lines.interval
        case .platforms: return lines.platforms == 0 ? lines.entry : lines.platforms
        case .service(let i): return at(lines.services, i)
        case .appID(let i): return at(lines.appIDs, i)
        case .watchedURL(let i): return at(lines.watchedURLs, i)
        case .expectation(let i): return at(lines.expectations, i)
        case .androidExpectation(let i): return at(lines.androidExpectations, i)
        case .androidPackage(let i): return at(lines.androidPackages, i)
        case .androidFingerprints(let i): return at(lines.androidFingerprints, i)
        }
    }

    /// Each channel by the rules every form uses (`ChannelSetup.validated`, no I/O), plus the
    /// file's own: secrets only as `${NAME}`, a webhook's signing secret a whsec_ secret.
    private func checkChannels(_ entries: [ChannelEntry], problems: inout [ConfigProblem]) -> [DesiredChannel] {
        var desired: [DesiredChannel] = []
        for entry in entries {
            let count = problems.count
            guard let kind = ChannelKind(rawValue: entry.kind) else {
                problems.append(ConfigProblem(line: entry.lines.kind, "unknown channel kind \"\(entry.kind)\"; expected "
                                              + ChannelKind.allCases.map(\.rawValue).joined(separator: ", ")))
                continue
            }
            let fields = ChannelFields.of(kind)
            func line(_ key: String?) -> Int { key.flatMap { entry.lines.settings[$0] } ?? entry.lines.entry }
            for (key, _) in entry.settings where !fields.keys.contains(key) {
                let expected = ["name", "kind"] + fields.keys + ["min_severity", "domains", "apps", "enabled"]
                problems.append(ConfigProblem(line: line(key),
                                              "unknown key \"\(key)\" for a \(kind.rawValue) channel; expected \(expected.joined(separator: ", "))"))
            }
            let target = entry.setting(fields.targetKey)
            if target == nil && fields.targetRequired {
                problems.append(ConfigProblem(line: entry.lines.entry, "a \(kind.rawValue) channel needs \(fields.targetKey):"))
            }
            let secret = fields.secretKey.flatMap { entry.setting($0) }
            if let secret, let key = fields.secretKey {
                if !secret.isReference {
                    problems.append(ConfigProblem(line: line(key), "\(entry.name): write the \(key) as ${NAME} and set NAME in the environment, "
                                                  + "so it stays out of the file (and out of git)"))
                } else if kind.inputs.generatesSigningSecret, WebhookSecret(secret.value) == nil {
                    problems.append(ConfigProblem(line: line(key), "\(entry.name): the secret from \(secret.template) is not a whsec_ secret "
                                                  + "(whsec_ followed by the base64 of 24 to 64 random bytes)"))
                }
            }
            // An omitted credential keeps an existing channel's (the planner refuses a new channel
            // without one). A secret already refused above is not checked twice.
            let credential = problems.count == count ? secret?.value : nil
            let recipient = fields.recipientKey.flatMap { entry.setting($0) }
            let template = fields.templateKey.flatMap { entry.setting($0) }
            var new: NewChannel?
            do {
                new = try ChannelSetup.validated(ChannelSpec(kind: kind, name: entry.name, target: target?.value ?? "", credential: credential,
                                                             recipient: recipient?.value, template: template?.value,
                                                             minSeverity: entry.minSeverity, enabled: entry.enabled),
                                                 keepsStoredSecret: true)
            } catch {
                let key: String? = switch error.field {
                case "credential": fields.secretKey
                case "recipient": fields.recipientKey
                case "template": fields.templateKey
                default: fields.targetKey
                }
                // A reason may quote the value: a secret, or a value from the environment, is not repeated.
                let isSecret = key == fields.secretKey || (key == fields.targetKey && (fields.targetIsSecret || target?.isReference == true))
                let shown = isSecret ? "\(key ?? "a setting") is not accepted (the value is a secret and is not shown)" : error.message
                problems.append(ConfigProblem(line: line(key), "\(entry.name): \(shown)"))
            }
            var hosts: [(key: DomainKey, line: Int)] = []
            for (i, host) in entry.domains.enumerated() {
                let at = entry.lines.domains.indices.contains(i) ? entry.lines.domains[i] : entry.lines.entry
                do {
                    let name = try HostName(host)
                    hosts.append((DomainKey(host: name.ascii, wildcard: name.isWildcard), at))
                } catch {
                    problems.append(ConfigProblem(line: at, "\(entry.name): \(error.message)"))
                }
            }
            let apps = entry.apps.enumerated().map { i, name in
                (name: name, line: entry.lines.apps.indices.contains(i) ? entry.lines.apps[i] : entry.lines.entry)
            }
            if problems.count == count, let new {
                desired.append(DesiredChannel(entry: entry, kind: kind, fields: fields, new: new, targetText: target, secret: secret,
                                              hosts: hosts, apps: apps))
            }
        }
        return desired
    }
}

/// A domain's identity: the ASCII host and the wildcard flag (`*.example.com` and `example.com`
/// are two registrations).
struct DomainKey: Hashable, Sendable {
    var host: String
    var wildcard: Bool
}

struct DesiredDomain {
    var entry: DomainEntry
    var draft: DomainDraft
    var key: DomainKey
}

struct DesiredApp {
    var entry: AppEntry
    var plan: AppPlan
}

struct DesiredChannel {
    var entry: ChannelEntry
    var kind: ChannelKind
    var fields: ChannelFields
    /// What to store, checked: the target trimmed (or the provider's API), recipient, template; its
    /// secret is the file's, nil when the file leaves it out.
    var new: NewChannel
    /// The target as the file wrote it; nil when left out (a provider's API by default).
    var targetText: ConfigText?
    var secret: ConfigText?
    var hosts: [(key: DomainKey, line: Int)]
    /// The apps whose domains' events the channel also takes, by name, with their lines.
    var apps: [(name: String, line: Int)]

    var target: String { new.settings.target }
}

