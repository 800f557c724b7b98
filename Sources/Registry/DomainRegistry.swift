import Fetch
import Foundation
import Monitor
import Store
import Vocabulary

/// Everything that changes what is monitored goes through here: the registration form, the JSON API
/// and the CLI (`import`, `check-now`) call the same methods, so a rule (an app ID's shape, a host's
/// spelling, the offered intervals) and a side effect (waking the crawlers, re-measuring the domain's
/// state) is written once.
///
/// Methods block on PostgreSQL (callers are HTTP worker threads and CLI commands). Validation
/// problems throw `RegistrationError`; database failures throw as they are.
public struct DomainRegistry: Sendable {
    /// The aggregates the registry changes: domains and their expectations, the default interval
    /// (settings), apps (a config file's), each change in one transaction. Not checks, alerts or accounts.
    let store: any RegistryStore
    let policy: RegistrationPolicy
    let crawlers: CrawlerWakeUp
    /// Where a failure that does not undo a saved change is told (standard error in `serve` and the CLI).
    let log: @Sendable (String) -> Void

    public init(store: some RegistryStore, policy: RegistrationPolicy = RegistrationPolicy(),
                log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(("registry: " + $0 + "\n").utf8)) }) {
        self.store = store
        self.policy = policy
        self.crawlers = CrawlerWakeUp(store: store)
        self.log = log
    }

    /// The setting that holds the interval new domains get when none is chosen.
    public static let defaultIntervalKey = "default_interval_minutes"

    /// The interval, in minutes, that new domains get when none is chosen.
    public func defaultIntervalMinutes() throws -> Int {
        try store.setting(Self.defaultIntervalKey).flatMap(Int.init) ?? 60
    }

    /// Sets the interval new domains get; throws `RegistrationError` for one that is not offered.
    public func setDefaultInterval(minutes: Int) throws {
        guard Registration.offeredIntervals.contains(where: { $0.minutes == minutes }) else {
            throw RegistrationError.invalid([.interval: "Choose one of the offered intervals."])
        }
        try store.setSetting(Self.defaultIntervalKey, String(minutes))
    }

    /// Registers a domain with its expectations; its first check is requested (ahead of routine
    /// checks) and the crawlers are woken. Returns the new domain's id.
    @discardableResult
    public func register(_ registration: Registration) throws -> Int64 {
        let draft = try validate(registration, editing: nil)
        switch try store.createDomain(draft, requestFirstCheck: true) {
        case .created(let id):
            crawlers.notify()
            return id
        case .alreadyRegistered(let id):
            throw RegistrationError.alreadyRegistered(id: id, displayName: draft.displayName)
        }
    }

    /// Changes a domain's interval, badge, platforms and expectations, then re-measures its state against the
    /// new expectations and its current file, so an app ID added that the file lacks shows as
    /// failing at once instead of after the next check. A change of platforms also requests a check
    /// (as "check now" does): a newly watched platform has no file stored to re-measure, and one no
    /// longer watched closes its open alerts only when a check runs.
    public func edit(domainID: Int64, _ registration: Registration) throws {
        guard let domain = try store.domain(id: domainID) else { throw RegistrationError.noSuchDomain }
        var draft = try validate(registration, editing: domain)
        draft.displayName = domain.displayName
        guard try store.updateDomain(id: domainID, draft) else { throw RegistrationError.noSuchDomain }
        let requested = try remeasure(domainID: domainID)
        if draft.platforms != domain.platforms, !requested { try requestCheck(domainID: domainID) }
    }

    /// Re-measures a domain whose expectations or platforms were just saved (`DomainVerdict.reevaluate`).
    /// The change is saved, so a failure here does not fail the caller: it is logged and a check is
    /// requested, which writes the state the pipeline's way. True when that check was requested.
    @discardableResult
    func remeasure(domainID: Int64) throws -> Bool {
        do {
            try DomainVerdict.reevaluate(domainID: domainID, in: store)
            return false
        } catch {
            log("domain \(domainID) was saved, but its state could not be re-measured (\(error)); a check is requested to set it")
            try requestCheck(domainID: domainID)
            return true
        }
    }

    /// Deletes a domain with its history. False when there was none.
    @discardableResult
    public func delete(domainID: Int64) throws -> Bool {
        try store.deleteDomain(id: domainID)
    }

    /// Pauses a domain (no checks, so no alert opens or resolves; an open alert stays open) or resumes
    /// it, due at once, waking the crawlers (`DomainStore.setPaused`). False when there is no such domain.
    @discardableResult
    public func setPaused(domainID: Int64, _ paused: Bool) throws -> Bool {
        guard try store.setPaused(domainID: domainID, paused) else { return false }
        if !paused { crawlers.notify() }
        return true
    }

    /// Pauses or resumes domains by host name (Unicode or Punycode, as typed; the CLI's `pause` and
    /// `resume`), each as `setPaused(domainID:)` does.
    public func setPaused(hosts: [String], _ paused: Bool) throws -> PauseChange {
        var change = PauseChange()
        for input in hosts {
            let ascii: String
            do { ascii = try HostName(input).ascii } catch { change.refused.append((input, error.description)); continue }
            if let domain = try store.domain(host: ascii), try setPaused(domainID: domain.id, paused) {
                change.changed.append(ascii)
            } else {
                change.notRegistered.append(ascii)
            }
        }
        return change
    }

    /// "Check now" for one domain: flags it and wakes the crawlers. False when there is no such domain.
    @discardableResult
    public func requestCheck(domainID: Int64) throws -> Bool {
        guard try store.requestCheck(domainID: domainID) else { return false }
        crawlers.notify()
        return true
    }

    /// "Check now" for every domain an app claims: one statement flags them all, then the crawlers are
    /// woken. Returns how many domains were flagged (0 for an app that claims none).
    @discardableResult
    public func requestCheck(appID: Int64) throws -> Int {
        let flagged = try store.requestCheck(appID: appID)
        if flagged > 0 { crawlers.notify() }
        return flagged
    }

    /// "Check now" by host name (Unicode or Punycode, as typed): the hosts that were registered
    /// and are now requested, and the inputs that are not registered or not host names.
    public func requestCheck(hosts: [String]) throws -> CheckRequest {
        var names: [String] = []
        var refused: [(input: String, reason: String)] = []
        for input in hosts {
            do { names.append(try HostName(input).ascii) } catch { refused.append((input, error.description)) }
        }
        let found = try store.requestCheckNow(hosts: names)
        let requested = found.filter { !$0.paused }.map(\.host)
        if !requested.isEmpty { crawlers.notify() }
        let missing = Set(names).subtracting(found.map(\.host)).sorted()
        return CheckRequest(requested: requested, paused: found.filter(\.paused).map(\.host), notRegistered: missing, refused: refused)
    }

    /// Registers every domain of an import file (see `DomainListParser`) that is not registered yet,
    /// each by the same rules as the form, at the instance's default interval. Imported domains are
    /// not "requested": a list of thousands must not push ahead of every check that a person asked
    /// for, nor of the checks that are due. They join the first-check queue instead: the workers take
    /// them in file order with the room the requested and due checks leave, so a list they can check
    /// within an interval is checked at once, at the rate they sustain; and each is due at its host's
    /// place in the interval at the latest (`SchedulePolicy.slot`), so only a backlog longer than one
    /// interval is spread over it. `platforms`: what every imported domain is watched for. `progress`
    /// is called after each entry.
    public func importList(_ text: String, platforms: WatchedPlatforms = .both,
                           progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) throws -> ImportReport {
        let parsed = DomainListParser.parse(text)
        var report = ImportReport(refused: parsed.refusals)
        let interval = try defaultIntervalMinutes()
        for (index, entry) in parsed.entries.enumerated() {
            defer { progress(index + 1, parsed.entries.count) }
            let draft: DomainDraft
            switch Self.importDraft(entry, intervalMinutes: interval, platforms: platforms) {
            case .failure(let refusal):
                report.refused.append(refusal)
                continue
            case .success(let d): draft = d
            }
            // Queued, not requested, and due at its host's slot in the interval at the latest: a list of
            // 1,000,000 that the workers cannot check within the hour is due spread over it, not all in one second.
            let firstCheck = SchedulePolicy().slot(for: draft.host, interval: .seconds(draft.intervalSeconds), notBefore: Date())
            switch try store.createDomain(draft, requestFirstCheck: false, queueFirstCheck: true, firstCheckAt: firstCheck) {
            case .created: report.added.append(draft.displayName)
            case .alreadyRegistered: report.skipped.append(draft.displayName)
            }
        }
        report.refused.sort { $0.line < $1.line }
        if !report.added.isEmpty { crawlers.notify() }
        return report
    }

    /// What `importList` would do with `text`, line by line, writing nothing: the browser import's
    /// preview. Read by the same parser and the same rules, and checked against the registered
    /// domains in one query; a name listed twice is new once, then listed already.
    public func previewImport(_ text: String, platforms: WatchedPlatforms = .both) throws -> ImportPreview {
        let parsed = DomainListParser.parse(text)
        let interval = try defaultIntervalMinutes()
        let drafts = parsed.entries.map { (line: $0.line, draft: Self.importDraft($0, intervalMinutes: interval, platforms: platforms)) }
        let registered = try store.registeredNames(hosts: drafts.compactMap { try? $0.draft.get().host })
        var preview = ImportPreview(lines: parsed.refusals.map { ImportPreview.Line(line: $0.line, text: $0.text, outcome: .refused($0.reason)) })
        var listed: [DomainName: Int] = [:]
        for (line, result) in drafts {
            switch result {
            case .failure(let refusal):
                preview.lines.append(ImportPreview.Line(line: line, text: refusal.text, outcome: .refused(refusal.reason)))
            case .success(let draft):
                let name = DomainName(host: draft.host, wildcard: draft.wildcard)
                let outcome: ImportPreview.Outcome = if registered.contains(name) { .registered }
                    else if let first = listed[name] { .listedAbove(line: first) } else { .new }
                if listed[name] == nil { listed[name] = line }
                preview.lines.append(ImportPreview.Line(line: line, text: draft.displayName, outcome: outcome))
            }
        }
        preview.lines.sort { $0.line < $1.line }
        return preview
    }

    /// An import entry as the form's rules make it a draft, at `intervalMinutes`, or the line's refusal.
    static func importDraft(_ entry: DomainListEntry, intervalMinutes: Int, platforms: WatchedPlatforms) -> Result<DomainDraft, DomainListRefusal> {
        let host: HostName
        do { host = try HostName(entry.host) } catch {
            return .failure(DomainListRefusal(line: entry.line, text: entry.host, reason: error.reason))
        }
        let apps = entry.appIDs.sorted { $0.key < $1.key }.flatMap { service, ids in
            ids.map { AppIDExpectation(service: service, appID: $0.text) }
        }
        // The form's rules for watched URLs; a refusal names the line and which url: column.
        var problems: [RegistrationField: String] = [:]
        let watched = Self.watchedURLs(entry.watchedURLs, host: host.ascii, display: host.unicode, problems: &problems)
        if let (index, problem) = entry.watchedURLs.indices.lazy.compactMap({ i in
            (problems[.watchedURL(i)] ?? problems[.expectation(i)] ?? problems[.androidExpectation(i)]).map { (i, $0) }
        }).first {
            return .failure(DomainListRefusal(line: entry.line, text: entry.host,
                                              reason: "watched URL \(index + 1) (\(entry.watchedURLs[index].url)): \(problem)"))
        }
        return .success(DomainDraft(host: host.ascii, displayName: host.unicode, wildcard: host.isWildcard,
                                    intervalSeconds: intervalMinutes * 60, badgeEnabled: false, appIDs: apps, watchedURLs: watched,
                                    platforms: platforms,
                                    androidApps: entry.androidApps.map {
                                        AndroidAppExpectation(packageName: $0.package.text, fingerprints: $0.fingerprints.map(\.text),
                                                                   uploadKeys: $0.uploadKeys.map(\.text))
                                    }))
    }

    /// Checks every field at once and returns what to store, or every problem by field.
    /// `editing`: the domain being edited, whose host stays as it is.
    public func validate(_ r: Registration, editing: DomainRecord?) throws(RegistrationError) -> DomainDraft {
        var problems: [RegistrationField: String] = [:]
        var ascii = "", display = "", wildcard = false
        if let editing {
            (ascii, display, wildcard) = (editing.host, editing.displayName, editing.wildcard)
        } else {
            do {
                let host = try HostName(r.host)
                (ascii, display, wildcard) = (host.ascii, host.unicode, host.isWildcard)
                if policy.resolveOnRegister, let refusal = policy.addressRefusal(host.ascii) { problems[.host] = refusal }
            } catch {
                problems[.host] = error.message
            }
        }
        var appIDs: [AppIDExpectation] = []
        for (i, entry) in r.appIDs.enumerated() {
            guard let service = Service(rawValue: entry.service) else {
                problems[.service(i)] = "Unknown service \"\(entry.service)\"; use applinks, webcredentials, appclips or activitycontinuation."
                continue
            }
            do {
                appIDs.append(AppIDExpectation(service: service, appID: try AppID(typed: entry.appID).text))
            } catch {
                problems[.appID(i)] = error.message
            }
        }
        let watched = Self.watchedURLs(r.watchedURLs, host: ascii, display: display, problems: &problems)
        var minutes = r.intervalMinutes ?? 0
        if r.intervalMinutes == nil {
            do { minutes = try defaultIntervalMinutes() } catch { problems[.interval] = "The default interval cannot be read: \(error)" }
        }
        if !Registration.offeredIntervals.contains(where: { $0.minutes == minutes }), problems[.interval] == nil {
            problems[.interval] = "Choose one of the offered intervals."
        }
        var androidApps: [AndroidAppExpectation]?
        if let entries = r.androidApps {
            var apps: [AndroidAppExpectation] = []
            var seen: Set<String> = []
            for (i, entry) in entries.enumerated() {
                var package = ""
                do { package = try AndroidPackage(typed: entry.package).text } catch { problems[.androidPackage(i)] = error.message }
                // One row per package (the table's key): a second entry would be a database error, not a refusal.
                if !package.isEmpty, !seen.insert(package).inserted {
                    problems[.androidPackage(i)] = "\(package) is listed twice; put all its fingerprints in one entry."
                }
                func read(_ list: [String]) -> (typed: Int, keys: [String]) {
                    let typed = list.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
                    var keys: [String] = []
                    for text in typed {
                        do { keys.append(try CertificateFingerprint(typed: text).text) } catch { problems[.androidFingerprints(i)] = error.message }
                    }
                    return (typed.count, keys)
                }
                let (typed, keys) = read(entry.fingerprints), (typedUpload, uploadKeys) = read(entry.uploadKeys)
                if typed + typedUpload == 0 { problems[.androidFingerprints(i)] = "Add the SHA-256 fingerprint of the app's signing key (Play Console › App integrity › App signing)." }
                // An upload key is one of the app's keys too: stored among the fingerprints, and marked.
                apps.append(AndroidAppExpectation(packageName: package, fingerprints: Set(keys + uploadKeys).sorted(),
                                                       uploadKeys: Set(uploadKeys).sorted()))
            }
            androidApps = apps
        }
        // Left out: a new domain is watched for both, an edited one keeps its setting.
        var platforms = editing?.platforms ?? .both
        if let typed = r.platforms {
            do { platforms = try WatchedPlatforms(typed: typed) } catch { problems[.platforms] = error.message }
        }
        guard problems.isEmpty else { throw .invalid(problems) }
        return DomainDraft(host: ascii, displayName: display, wildcard: wildcard, intervalSeconds: minutes * 60,
                           badgeEnabled: r.badge, appIDs: appIDs, watchedURLs: watched, platforms: platforms, androidApps: androidApps)
    }

    /// The watched URLs as the form, the API, the config file and the import list give them, checked by
    /// one set of rules; each problem is recorded under its entry's field.
    static func watchedURLs(_ entries: [WatchedURLEntry], host ascii: String, display: String,
                            problems: inout [RegistrationField: String]) -> [WatchedURLExpectation] {
        var watched: [WatchedURLExpectation] = []
        for (i, entry) in entries.enumerated() {
            let url = entry.url.trimmingCharacters(in: .whitespaces)
            if let problem = Self.watchedURLProblem(url, host: ascii, display: display) { problems[.watchedURL(i)] = problem }
            let expect = entry.expect.trimmingCharacters(in: .whitespaces)
            var expected: String?
            if !(expect.isEmpty || expect.lowercased() == "browser") {
                do {
                    expected = try AppID(expect).text
                } catch {
                    problems[.expectation(i)] = "Write an app ID or \"browser\". " + error.message
                }
            }
            var android: AndroidURLExpectation?
            if let typed = entry.android, !typed.trimmingCharacters(in: .whitespaces).isEmpty {
                do {
                    android = try AndroidURLExpectation(typed: typed)
                } catch {
                    problems[.androidExpectation(i)] = "Write the Android package the URL must open, or \"nothing\". " + error.message
                }
            }
            watched.append(WatchedURLExpectation(url: url, expectedAppID: expected, android: android))
        }
        return watched
    }

    /// A watched URL must be a whole http(s) URL on the domain (or under it, for a wildcard).
    static func watchedURLProblem(_ url: String, host: String, display: String) -> String? {
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            return "Write the whole URL, starting with https://"
        }
        let afterScheme = url.drop { $0 != "/" }.dropFirst(2)
        let urlHost = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
        guard !host.isEmpty else { return nil }
        let matches = urlHost == host || urlHost == display.lowercased() || urlHost.hasSuffix("." + host)
        return matches ? nil : "This URL is not on \(display.isEmpty ? host : display): a domain's file only decides its own URLs."
    }
}

/// What the application layer is given instead of the whole `Database`: the aggregates it changes,
/// and transactions for the changes that write several rows (the pooled `Database` is all of them).
public typealias RegistryStore = DomainStore & SettingsStore & AppStore & TransactionalStore

/// What `requestCheck(hosts:)` did.
public struct CheckRequest: Sendable {
    /// ASCII host names now flagged for a check.
    public var requested: [String]
    /// Registered but paused: not flagged, since nothing checks them until they are resumed.
    public var paused: [String]
    /// Valid host names that are not registered.
    public var notRegistered: [String]
    /// Inputs that are not host names, with why.
    public var refused: [(input: String, reason: String)]
}

/// What `setPaused(hosts:)` did.
public struct PauseChange: Sendable {
    /// ASCII host names now paused (or resumed).
    public var changed: [String] = []
    /// Valid host names that are not registered.
    public var notRegistered: [String] = []
    /// Inputs that are not host names, with why.
    public var refused: [(input: String, reason: String)] = []
}

/// What `importList` did.
public struct ImportReport: Sendable {
    public var added: [String] = []
    /// Already registered (display names).
    public var skipped: [String] = []
    /// Lines that could not become a registration, by line number.
    public var refused: [DomainListRefusal] = []
}

/// What `importList` would do with a list, line by line (`previewImport`); nothing is written.
public struct ImportPreview: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// Would be registered.
        case new
        /// Registered already: left as it is.
        case registered
        /// The same domain on an earlier line of this list.
        case listedAbove(line: Int)
        /// Not a registration, with why.
        case refused(String)
    }

    public struct Line: Sendable, Equatable {
        public var line: Int
        /// The domain's display name, or the line's text when it is refused.
        public var text: String
        public var outcome: Outcome
    }

    /// Every line that is a domain or a refusal, in the list's order.
    public var lines: [Line]

    public var new: Int { lines.count(where: { $0.outcome == .new }) }
    public var registered: Int { lines.count(where: { if case .registered = $0.outcome { true } else if case .listedAbove = $0.outcome { true } else { false } }) }
    public var refused: Int { lines.count(where: { if case .refused = $0.outcome { true } else { false } }) }
}

/// A refused line is the failure of `importDraft`'s `Result` (it is data shown to the user, never thrown).
extension DomainListRefusal: Error {}
