import Vocabulary
import Yams

/// Reads a config file (YAML) into a `ConfigDocument`, resolving `${NAME}` references in channel
/// settings against `environment`. Never traps, whatever the bytes: a file that is not what it
/// should be comes back as a `ConfigRefusal` naming the line and the reason of every problem.
///
/// The schema is closed: an unknown or repeated key is refused rather than ignored, so a typo
/// (`watched_url:`) cannot silently drop an expectation from what is monitored.
public enum ConfigReader {
    /// A config for tens of thousands of domains fits; a larger input is refused before parsing.
    public static let maxBytes = 4 << 20
    /// Aliases let a small file stand for a huge tree (`*a` repeated inside `&b` …); reading stops
    /// after this many values instead of expanding them all.
    static let maxValues = 1_000_000
    /// Enough to say what is wrong; a file with more problems is mostly not a config file at all.
    static let maxProblems = 100

    public static func read(_ bytes: [UInt8], environment: [String: String]) -> Result<ConfigDocument, ConfigRefusal> {
        let reading = reading(bytes, environment: environment)
        guard let document = reading.document, reading.problems.isEmpty else { return .failure(ConfigRefusal(reading.problems)) }
        return .success(document)
    }

    /// What a file says, read as far as it goes, with every problem found on the way. `document`
    /// is nil when nothing could be read (too large, not UTF-8, not YAML); otherwise it holds every
    /// entry the reader could make out, so `apply` checks those by the registry's rules as well and
    /// one report lists every problem of the file, not the reader's alone.
    public struct Reading: Sendable {
        public var document: ConfigDocument?
        public var problems: [ConfigProblem]
    }

    public static func reading(_ bytes: [UInt8], environment: [String: String]) -> Reading {
        if bytes.count > maxBytes {
            return Reading(document: nil, problems: [ConfigProblem(line: 0, "the file has \(bytes.count) bytes; at most \(maxBytes) are read")])
        }
        if let problem = encodingProblem(bytes) { return Reading(document: nil, problems: [problem]) }
        if let problem = KeyScan.scan(bytes).problem { return Reading(document: nil, problems: [problem]) }
        let text = String(decoding: bytes, as: UTF8.self)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            return Reading(document: nil, problems: [problem(from: error)])
        } catch {
            return Reading(document: nil, problems: [ConfigProblem(line: 0, "not YAML: \(error)")])
        }
        var reader = Walker(environment: environment)
        let document = reader.document(root)
        return Reading(document: document, problems: reader.problems)
    }

    /// libyaml reads C strings: a NUL would end the file early, and invalid UTF-8 is not text.
    static func encodingProblem(_ bytes: [UInt8]) -> ConfigProblem? {
        var line = 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
                if scalar == "\0" { return ConfigProblem(line: line, "the file contains a NUL byte; a config file is text") }
            case .emptyInput:
                return nil
            case .error:
                return ConfigProblem(line: line, "the file is not UTF-8 text")
            }
        }
    }

    static func problem(from error: YamlError) -> ConfigProblem {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            // Yams' own problems carry a "Parser: " prefix and a multi-line context snippet: the
            // line number already says where, so keep the first line of the problem only.
            var what = problem.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? problem
            if what.hasPrefix("Parser: ") { what.removeFirst("Parser: ".count) }
            if let context, !what.contains("\n") { what += " (\(context.text))" }
            return ConfigProblem(line: mark.line, "not valid YAML: \(what)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            // The mapping's line; the keys are named, which is enough to find the repeat.
            let keys = duplicates.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            return ConfigProblem(line: context.mark.line, "\(keys) appears more than once in the same mapping")
        case .reader(let problem, _, _, _):
            return ConfigProblem(line: 0, "not valid YAML: \(problem)")
        default:
            return ConfigProblem(line: 0, "not valid YAML: \(error)")
        }
    }
}

/// One pass over the composed tree, collecting every problem instead of stopping at the first.
private struct Walker {
    let environment: [String: String]
    var problems: [ConfigProblem] = []
    var valuesRead = 0
    var exhausted = false

    init(environment: [String: String]) {
        self.environment = environment
    }

    mutating func fail(_ node: Node?, _ message: String) {
        fail(line: Self.line(node), message)
    }

    mutating func fail(line: Int, _ message: String) {
        guard problems.count < ConfigReader.maxProblems else { return }
        problems.append(ConfigProblem(line: line, message))
    }

    static func line(_ node: Node?) -> Int { node?.mark?.line ?? 0 }

    /// Counts a value read; false once the budget is spent (reported once).
    mutating func spend(_ node: Node) -> Bool {
        valuesRead += 1
        if valuesRead > ConfigReader.maxValues {
            // Past the cap on problems too: this one explains why the reading stopped.
            if !exhausted {
                problems.append(ConfigProblem(line: Self.line(node), "the file expands to more than \(ConfigReader.maxValues) values (through aliases?); refused"))
            }
            exhausted = true
            return false
        }
        return !exhausted
    }

    // MARK: Shapes

    /// The pairs of a mapping with string keys, refusing unknown and repeated keys.
    mutating func mapping(_ node: Node, what: String, keys allowed: [String]?) -> [(key: String, keyNode: Node, value: Node)]? {
        guard spend(node) else { return nil }
        guard case .mapping(let mapping) = node else {
            fail(node, "\(what) must be a mapping (key: value lines)")
            return nil
        }
        var seen: [String: Int] = [:]
        var pairs: [(key: String, keyNode: Node, value: Node)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let key) = keyNode else {
                fail(keyNode, "a key of \(what) must be a plain word")
                continue
            }
            if let first = seen[key.string] {
                fail(keyNode, "\"\(key.string)\" appears twice in \(what) (first on line \(first))")
                continue
            }
            seen[key.string] = Self.line(keyNode)
            if let allowed, !allowed.contains(key.string) {
                fail(keyNode, "unknown key \"\(key.string)\" in \(what); expected \(allowed.joined(separator: ", "))")
                continue
            }
            pairs.append((key.string, keyNode, value))
        }
        return pairs
    }

    mutating func sequence(_ node: Node, what: String) -> [Node]? {
        guard spend(node) else { return nil }
        guard case .sequence(let sequence) = node else {
            fail(node, "\(what) must be a list (lines starting with \"- \")")
            return nil
        }
        return Array(sequence)
    }

    /// A scalar's text. A null (`~`, `null`, nothing) is not a value.
    mutating func string(_ node: Node, what: String) -> String? {
        guard spend(node) else { return nil }
        guard case .scalar(let scalar) = node else {
            fail(node, "\(what) must be a single value, not a list or mapping")
            return nil
        }
        if scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
            fail(node, "\(what) has no value")
            return nil
        }
        return scalar.string
    }

    /// A value an entry cannot do without (its host, name, kind …), with the line it is on; an entry
    /// missing one is incomplete (the problem is already reported).
    mutating func read(_ node: Node, what: String, into field: inout String, line: inout Int, complete: inout Bool) {
        line = Self.line(node)
        if let text = string(node, what: what) { field = text } else { complete = false }
    }

    mutating func integer(_ node: Node, what: String) -> Int? {
        guard let text = string(node, what: what) else { return nil }
        guard let value = Int(text), value >= 0 else {
            fail(node, "\(what) must be a whole number of minutes, not \"\(text)\"")
            return nil
        }
        return value
    }

    /// Only `true` and `false`: YAML 1.1's yes/no/on/off are refused rather than guessed at.
    mutating func boolean(_ node: Node, what: String) -> Bool? {
        guard let text = string(node, what: what) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default:
            fail(node, "\(what) must be true or false, not \"\(text)\"")
            return nil
        }
    }

    /// A list of strings; a single value stands for a list of one.
    mutating func strings(_ node: Node, what: String) -> [(String, Int)] {
        if case .scalar = node { return string(node, what: what).map { [($0, Self.line(node))] } ?? [] }
        guard let items = sequence(node, what: what) else { return [] }
        return items.compactMap { item in string(item, what: "an entry of \(what)").map { ($0, Self.line(item)) } }
    }

    // MARK: The document

    static let topKeys = ["version", "domains", "apps", "channels", "alerts"]
    static let alertKeys = ["failure_threshold", "success_threshold", "retry_minutes"]

    mutating func document(_ root: Node?) -> ConfigDocument {
        var document = ConfigDocument()
        guard let root else { return document }     // an empty file declares nothing
        guard let pairs = mapping(root, what: "the file", keys: Self.topKeys) else { return document }
        for (key, _, value) in pairs {
            switch key {
            case "version":
                if let v = string(value, what: "version"), v != "1" { fail(value, "version \(v) is not known; this program reads version 1") }
            case "domains":
                document.sections.insert(.domains)
                document.domains += entries(value, of: "domains", what: "a domain", keys: Self.domainKeys, DomainEntry(host: ""),
                                            needs: [("host", "a domain needs host:")]) { $0.domainField(&$1, $2, $3, &$4) }
            case "apps":
                document.sections.insert(.apps)
                document.apps += entries(value, of: "apps", what: "an app", keys: Self.appKeys, AppEntry(name: ""),
                                         needs: [("name", "an app needs name: (its identity across applies)")]) { $0.appField(&$1, $2, $3, &$4) }
            case "channels":
                document.sections.insert(.channels)
                document.channels += entries(value, of: "channels", what: "a channel", keys: nil, ChannelEntry(name: "", kind: ""),
                                             needs: [("name", "a channel needs name: (its identity across applies)"), ("kind", "a channel needs kind:")]) {
                    $0.channelField(&$1, $2, $3, &$4)
                }
            case "alerts":
                document.alerts = alerts(value)
            default:
                break
            }
        }
        refuseRepeats(document)
        return document
    }

    /// `alerts:`: whole numbers, each optional (the registry checks their ranges).
    mutating func alerts(_ node: Node) -> AlertsEntry? {
        guard let pairs = mapping(node, what: "alerts", keys: Self.alertKeys) else { return nil }
        var entry = AlertsEntry()
        entry.lines.entry = Self.line(node)
        for (key, _, value) in pairs {
            guard let text = string(value, what: key) else { continue }
            guard let number = Int(text) else {
                fail(value, "\(key) must be a whole number, not \"\(text)\"")
                continue
            }
            switch key {
            case "failure_threshold": (entry.failureThreshold, entry.lines.failureThreshold) = (number, Self.line(value))
            case "success_threshold": (entry.successThreshold, entry.lines.successThreshold) = (number, Self.line(value))
            default: (entry.retryMinutes, entry.lines.retryMinutes) = (number, Self.line(value))
            }
        }
        return entry
    }

    mutating func refuseRepeats(_ document: ConfigDocument) {
        refuseRepeats(document.domains.map { ($0.host.lowercased(), "\($0.host)", $0.lines.host) })
        refuseRepeats(document.apps.map { ($0.name, "an app named \"\($0.name)\"", $0.lines.name) })
        refuseRepeats(document.channels.map { ($0.name, "a channel named \"\($0.name)\"", $0.lines.name) })
    }

    /// Each identity once: the second and later are refused, naming the first's line.
    mutating func refuseRepeats(_ entries: [(key: String, label: String, line: Int)]) {
        var first: [String: Int] = [:]
        for e in entries {
            if let line = first[e.key] { fail(line: e.line, "\(e.label) is declared twice (first on line \(line))") } else { first[e.key] = e.line }
        }
    }

    static let domainKeys = ["host", "interval_minutes", "badge", "platforms", "paused", "app_ids", "watched_urls", "android_apps"]

    mutating func domainField(_ entry: inout DomainEntry, _ key: String, _ value: Node, _ complete: inout Bool) {
        switch key {
        case "host":
            read(value, what: "host", into: &entry.host, line: &entry.lines.host, complete: &complete)
        case "interval_minutes":
            entry.lines.interval = Self.line(value)
            entry.intervalMinutes = integer(value, what: "interval_minutes")
            if entry.intervalMinutes == nil { complete = false }
        case "badge":
            entry.lines.badge = Self.line(value)
            if let b = boolean(value, what: "badge") { entry.badge = b } else { complete = false }
        case "paused":
            entry.lines.paused = Self.line(value)
            if let b = boolean(value, what: "paused") { entry.paused = b } else { complete = false }
        case "platforms":
            entry.lines.platforms = Self.line(value)
            if let word = string(value, what: "platforms") { entry.platforms = word } else { complete = false }
        case "app_ids":
            appIDs(value, into: &entry, complete: &complete)
        case "watched_urls":
            for item in sequence(value, what: "watched_urls") ?? [] { watchedURL(item, into: &entry) }
        case "android_apps":
            for item in sequence(value, what: "android_apps") ?? [] { androidApp(item, into: &entry) }
        default:
            break
        }
    }

    /// `app_ids:` — service: [TEAMID.bundle.id, …]; the app IDs themselves are checked by the registry.
    mutating func appIDs(_ value: Node, into entry: inout DomainEntry, complete: inout Bool) {
        for (service, serviceNode, ids) in mapping(value, what: "app_ids", keys: nil) ?? [] {
            // Refused here, not only by the registry: the writer groups app IDs by known
            // service, so a misspelt one would not be written back in the file's order.
            // The values are read first either way, so they count against the read budget.
            let listed = strings(ids, what: "app_ids.\(service)")
            guard Service(rawValue: service) != nil else {
                fail(serviceNode, "unknown service \"\(service)\" in app_ids; expected \(Service.allCases.map(\.rawValue).joined(separator: ", "))")
                complete = false
                continue
            }
            for (id, line) in listed {
                entry.appIDs.append(AppIDEntry(service: service, appID: id))
                entry.lines.services.append(Self.line(serviceNode))
                entry.lines.appIDs.append(line)
            }
        }
    }

    /// An entry of `watched_urls:` — url, expect (an app ID or browser), and optionally android.
    mutating func watchedURL(_ item: Node, into entry: inout DomainEntry) {
        guard let fields = mapping(item, what: "a watched URL", keys: ["url", "expect", "android"]) else { return }
        var url: String?, expect: String?, android: String?
        var lines = (url: Self.line(item), expect: Self.line(item), android: Self.line(item))
        for (k, _, v) in fields {
            if k == "url" { url = string(v, what: "url"); lines.url = Self.line(v) }
            if k == "expect" { expect = string(v, what: "expect"); lines.expect = Self.line(v) }
            if k == "android" { android = string(v, what: "android"); lines.android = Self.line(v) }
        }
        guard let url, let expect else {
            if !fields.contains(where: { $0.key == "url" }) { fail(item, "a watched URL needs url:") }
            if !fields.contains(where: { $0.key == "expect" }) {
                fail(item, "a watched URL needs expect: an app ID that must open it, or browser")
            }
            return
        }
        entry.watchedURLs.append(WatchedURLEntry(url: url, expect: expect, android: android))
        entry.lines.watchedURLs.append(lines.url)
        entry.lines.expectations.append(lines.expect)
        entry.lines.androidExpectations.append(lines.android)
    }

    /// An entry of `android_apps:`
    ///
    ///     - package: com.example.app
    ///       fingerprints: [AB:CD:…]    (the package and fingerprints are checked by the registry)
    mutating func androidApp(_ item: Node, into entry: inout DomainEntry) {
        guard let fields = mapping(item, what: "an Android app", keys: ["package", "fingerprints", "upload_keys"]) else { return }
        var package: String?
        var fingerprints: [String] = [], uploadKeys: [String] = []
        var lines = (package: Self.line(item), fingerprints: Self.line(item))
        for (k, _, v) in fields {
            if k == "package" { package = string(v, what: "package"); lines.package = Self.line(v) }
            if k == "fingerprints" {
                lines.fingerprints = Self.line(v)
                fingerprints = strings(v, what: "fingerprints").map(\.0)
            }
            if k == "upload_keys" { uploadKeys = strings(v, what: "upload_keys").map(\.0) }
        }
        guard let package else {
            if !fields.contains(where: { $0.key == "package" }) { fail(item, "an Android app needs package: (its applicationId)") }
            return
        }
        entry.androidApps.append(AndroidAppEntry(package: package, fingerprints: fingerprints, uploadKeys: uploadKeys))
        entry.lines.androidPackages.append(lines.package)
        entry.lines.androidFingerprints.append(lines.fingerprints)
    }

    static let appKeys = ["name", "apple_app_ids", "apple_domains", "android_package", "fingerprints", "android_hosts", "watched_urls",
                          "android_watched_urls"]

    mutating func appField(_ entry: inout AppEntry, _ key: String, _ value: Node, _ complete: inout Bool) {
        switch key {
        case "name":
            read(value, what: "name", into: &entry.name, line: &entry.lines.name, complete: &complete)
        case "android_package":
            read(value, what: "android_package", into: &entry.androidPackage, line: &entry.lines.androidPackage, complete: &complete)
        case "apple_app_ids":
            for (id, line) in strings(value, what: "apple_app_ids") { entry.appleAppIDs.append(id); entry.lines.appleAppIDs.append(line) }
        case "apple_domains":
            for (d, line) in strings(value, what: "apple_domains") { entry.appleDomains.append(d); entry.lines.appleDomains.append(line) }
        case "android_hosts":
            for (h, line) in strings(value, what: "android_hosts") { entry.androidHosts.append(h); entry.lines.androidHosts.append(line) }
        case "watched_urls":
            for (u, line) in strings(value, what: "watched_urls") { entry.watchedURLs.append(u); entry.lines.watchedURLs.append(line) }
        case "android_watched_urls":
            for (u, line) in strings(value, what: "android_watched_urls") {
                entry.androidWatchedURLs.append(u)
                entry.lines.androidWatchedURLs.append(line)
            }
        case "fingerprints":
            // A fingerprint alone is the app-signing key; {fingerprint, role} names another role.
            for item in sequence(value, what: "fingerprints") ?? [] {
                if case .scalar = item {
                    if let f = string(item, what: "a fingerprint") { entry.fingerprints.append(.init(fingerprint: f)); entry.lines.fingerprints.append(Self.line(item)) }
                    continue
                }
                guard let fields = mapping(item, what: "a fingerprint", keys: ["fingerprint", "role"]) else { continue }
                var fingerprint: FingerprintEntry?
                var role = "app-signing"
                for (k, _, v) in fields {
                    if k == "fingerprint", let f = string(v, what: "fingerprint") { fingerprint = .init(fingerprint: f) }
                    if k == "role", let r = string(v, what: "role") { role = r }
                }
                guard var fingerprint else {
                    fail(item, "a fingerprint entry needs fingerprint:")
                    continue
                }
                fingerprint.role = role
                entry.fingerprints.append(fingerprint)
                entry.lines.fingerprints.append(Self.line(item))
            }
        default:
            break
        }
    }

    mutating func channelField(_ entry: inout ChannelEntry, _ key: String, _ value: Node, _ complete: inout Bool) {
        switch key {
        case "name":
            read(value, what: "name", into: &entry.name, line: &entry.lines.name, complete: &complete)
        case "kind":
            read(value, what: "kind", into: &entry.kind, line: &entry.lines.kind, complete: &complete)
        case "min_severity":
            entry.lines.minSeverity = Self.line(value)
            guard let text = string(value, what: "min_severity") else { complete = false; return }
            guard let severity = AlertSeverity(rawValue: text) else {
                fail(value, "min_severity must be critical, warning or info, not \"\(text)\"")
                complete = false
                return
            }
            entry.minSeverity = severity
        case "domains":
            for (host, line) in strings(value, what: "domains") {
                entry.domains.append(host)
                entry.lines.domains.append(line)
            }
        case "apps":
            for (app, line) in strings(value, what: "apps") {
                entry.apps.append(app)
                entry.lines.apps.append(line)
            }
        case "enabled":
            entry.lines.enabled = Self.line(value)
            if let b = boolean(value, what: "enabled") { entry.enabled = b } else { complete = false }
        default:
            // A kind's own setting (to, url, secret, routing_key, …): checked by the kind.
            guard let template = string(value, what: key) else { complete = false; return }
            do {
                let text = try ConfigText(resolving: template, environment: environment)
                entry.settings.append((key, text))
                entry.lines.settings[key] = Self.line(value)
            } catch {
                fail(value, "\(key): \(error)")
                complete = false
            }
        }
    }

    /// A section's entries (`domains:`, `apps:`, `channels:`), each read by `entry`; the key alone
    /// (empty, `~` or `null`) declares none.
    mutating func entries<Entry: ConfigEntry>(_ value: Node, of section: String, what: String, keys: [String]?, _ empty: Entry,
                                              needs: [(key: String, sentence: String)],
                                              field: (inout Self, inout Entry, String, Node, inout Bool) -> Void) -> [Entry] {
        if case .scalar(let s) = value, s.style == .plain, ["", "~", "null"].contains(s.string) { return [] }
        var read: [Entry] = []
        for item in sequence(value, what: section) ?? [] {
            if let e = entry(item, what: what, keys: keys, empty, needs: needs, field: field) { read.append(e) }
        }
        return read
    }

    /// What every entry (domain, app, channel) shares: a mapping of known keys, each read by `field`;
    /// the entry's line; a key it cannot do without refused with `needs`' sentence; nil when any value
    /// was refused, so a half-read entry never reaches the registry.
    mutating func entry<Entry: ConfigEntry>(_ node: Node, what: String, keys: [String]?, _ empty: Entry,
                                            needs: [(key: String, sentence: String)],
                                            field: (inout Self, inout Entry, String, Node, inout Bool) -> Void) -> Entry? {
        guard let pairs = mapping(node, what: what, keys: keys) else { return nil }
        var entry = empty
        entry.lines.entry = Self.line(node)
        var complete = true
        for (key, _, value) in pairs { field(&self, &entry, key, value, &complete) }
        for (key, sentence) in needs where !pairs.contains(where: { $0.key == key }) {
            fail(node, sentence)
            complete = false
        }
        return complete ? entry : nil
    }
}

/// An entry of the file that remembers the line it starts on (`lines.entry`).
protocol ConfigEntry {
    associatedtype Lines: EntryLines
    var lines: Lines { get set }
}

protocol EntryLines {
    var entry: Int { get set }
}

extension DomainEntry: ConfigEntry {}
extension DomainEntry.Lines: EntryLines {}
extension AppEntry: ConfigEntry {}
extension AppEntry.Lines: EntryLines {}
extension ChannelEntry: ConfigEntry {}
extension ChannelEntry.Lines: EntryLines {}
