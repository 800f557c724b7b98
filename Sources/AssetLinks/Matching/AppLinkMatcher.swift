import LocatedJSON
import TextEncoding

/// Which app a URL opens on Android, and by which rule (assetlinks-spec.md §5): the file compiled once,
/// then asked about many (URL, package) pairs.
public struct AppLinkMatcher: Sendable {
    public let file: AssetLinksFile
    /// Compiled rule lists by statement index.
    private let ruleSets: [Int: DynamicRuleSet]

    public init(_ file: AssetLinksFile) {
        self.file = file
        var sets: [Int: DynamicRuleSet] = [:]
        for statement in file.statements {
            if case .rules(let rules)? = statement.dynamicRules { sets[statement.index] = DynamicRuleSet(rules) }
        }
        ruleSets = sets
    }

    /// Android 15 is the first version that reads dynamic rules (with Google services).
    public static let firstDynamicRulesVersion = 15

    /// The outcome for `url` and the app `packageName` (optionally: signed with `fingerprint`) on
    /// `androidVersion`. The file is assumed to be the one served by the URL's host, and the URL inside
    /// the app's manifest scope.
    public func decide(_ url: AndroidURL, packageName: String, fingerprint: String? = nil,
                       androidVersion: Int = firstDynamicRulesVersion) -> AppLinkDecision {
        switch governing(url, packageName: packageName, fingerprint: fingerprint, androidVersion: androidVersion) {
        case .decided(let decision): decision
        case .rules(let statement, let set):
            switch set.decide(url) {
            case .match(let rule): .match(statement: statement, rule: rule)
            case .exclude(let rule): .exclude(statement: statement, rule: rule)
            case .noMatch: .noMatch(statement: statement)
            }
        }
    }

    /// `decide`, with the rules tried and why (the same walk: the two always agree).
    public func explain(_ url: AndroidURL, packageName: String, fingerprint: String? = nil,
                        androidVersion: Int = firstDynamicRulesVersion) -> AppLinkExplanation {
        switch governing(url, packageName: packageName, fingerprint: fingerprint, androidVersion: androidVersion) {
        case .decided(let decision):
            return AppLinkExplanation(decision: decision, rules: nil, summary: summary(decision, url: url, packageName: packageName))
        case .rules(let statement, let set):
            let rules = set.explain(url)
            let decision: AppLinkDecision = switch rules.outcome {
            case .match(let rule): .match(statement: statement, rule: rule)
            case .exclude(let rule): .exclude(statement: statement, rule: rule)
            case .noMatch: .noMatch(statement: statement)
            }
            return AppLinkExplanation(decision: decision, rules: rules, summary: summary(decision, url: url, packageName: packageName, rules: rules))
        }
    }

    private enum Governing {
        case decided(AppLinkDecision)
        case rules(statement: Int, DynamicRuleSet)
    }

    /// Steps 3–7 of spec §5: verification, the version gate, which component list, dropped lists.
    private func governing(_ url: AndroidURL, packageName: String, fingerprint: String?, androidVersion: Int) -> Governing {
        guard url.isWebURL else { return .decided(.notVerified) }
        let statements = file.statements(granting: Relation.handleAllURLs, to: packageName, fingerprint: fingerprint)
        guard let first = statements.first else { return .decided(.notVerified) }
        if androidVersion < Self.firstDynamicRulesVersion { return .decided(.verified(statement: first.index)) }
        // Several lists for one app: which applies is not guaranteed (A-CFG); AOSP takes the first [inferred].
        guard let withRules = statements.first(where: { $0.dynamicRules != nil }) else {
            return .decided(.rulesDropped(statement: nil, reason: nil))
        }
        guard let set = ruleSets[withRules.index] else {
            if case .dropped(let reason, _)? = withRules.dynamicRules {
                return .decided(.rulesDropped(statement: withRules.index, reason: reason))
            }
            return .decided(.rulesDropped(statement: withRules.index, reason: nil))
        }
        return .rules(statement: withRules.index, set)
    }

    private func summary(_ decision: AppLinkDecision, url: AndroidURL, packageName: String,
                         rules: DynamicRuleExplanation? = nil) -> String {
        switch decision {
        case .notVerified:
            return url.isWebURL
                ? "No valid statement grants delegate_permission/common.handle_all_urls to \(packageName), so Android does not verify the app for this host; the link opens in the browser."
                : "\(url.text) is not an http(s) URL with a host; App Links do not apply."
        case .verified:
            return "The app is verified for this host; before Android 15 (or without Google services) every path the manifest claims opens it."
        case .rulesDropped(_, let reason):
            if let reason { return "The dynamic rules are invalid (\(reason)), so Android discards them: the manifest alone decides, and a host-only manifest opens every path." }
            return "The app's statement has no dynamic rules: the manifest alone decides."
        case .match(_, let rule):
            return "Rule \(rule + 1) is the first that matches; it allows the URL, so it opens the app on Android 15+."
        case .exclude(_, let rule):
            return "Rule \(rule + 1) is the first that matches; it excludes the URL, so it opens in the browser on Android 15+."
        case .noMatch:
            var text = "No rule matches, so the URL opens in the browser on Android 15+ (unmatched URLs never open the app)."
            if let closest = rules?.closestRule, let check = rules?.failingCheck {
                let value = check.value.map { JSONStringLiteral.quoted($0) } ?? "absent"
                text += " Closest: rule \(closest + 1), whose \(check.component) pattern \(JSONStringLiteral.quoted(check.pattern)) does not match \(value)."
            }
            return text
        }
    }
}

/// The outcome for one (URL, app) pair.
public enum AppLinkDecision: Hashable, Sendable {
    /// An allow rule matched first (Android 15+).
    case match(statement: Int, rule: Int)
    /// An exclude rule matched first (Android 15+).
    case exclude(statement: Int, rule: Int)
    /// No rule matched: the URL does not open the app (Android 15+).
    case noMatch(statement: Int)
    /// The dynamic rules are malformed (or absent): the manifest alone decides (it opens the app when
    /// the manifest claims the URL).
    case rulesDropped(statement: Int?, reason: String?)
    /// Before Android 15: the app is verified for the host, so every path its manifest claims opens it.
    case verified(statement: Int)
    /// No valid handle_all_urls statement names the app (or the URL is not http(s)): not an App Link.
    case notVerified

    /// The stable name in JSON output.
    public var name: String {
        switch self {
        case .match: "match"
        case .exclude: "exclude"
        case .noMatch: "no_match"
        case .rulesDropped: "rules_dropped"
        case .verified: "verified"
        case .notVerified: "not_verified"
        }
    }

    /// Whether the URL opens the app (given that the manifest claims it).
    public var opensApp: Bool {
        switch self {
        case .match, .rulesDropped, .verified: true
        case .exclude, .noMatch, .notVerified: false
        }
    }

    public var statement: Int? {
        switch self {
        case .match(let s, _), .exclude(let s, _), .noMatch(let s), .verified(let s): s
        case .rulesDropped(let s, _): s
        case .notVerified: nil
        }
    }

    public var rule: Int? {
        switch self {
        case .match(_, let r), .exclude(_, let r): r
        default: nil
        }
    }
}

public struct AppLinkExplanation: Hashable, Sendable {
    public var decision: AppLinkDecision
    /// The rule walk, when dynamic rules decided.
    public var rules: DynamicRuleExplanation?
    /// One or two sentences for people.
    public var summary: String
}
