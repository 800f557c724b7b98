import Vocabulary

/// Finds rules that can never decide anything (aasa-spec.md §7, §12 step 9): a device walks an
/// app's rules in file order — entry by entry, rule by rule — and the first match decides. So a rule
/// is dead for an app once an earlier rule for that app matches every URL (a catch-all or an
/// exclude-all), or the same URLs (identical patterns), or a superset (an earlier wildcard pattern
/// covering a later literal one). A rule is reported when it is dead for every app of its entry.
///
/// Everything per rule is computed once up front; per app only indices are kept, so a 128 KB file
/// with ~1,500 rules is analysed in well under a millisecond.
struct RuleReachability {
    /// Earlier wildcard rules compared against each later literal rule, per app: bounds the work on
    /// files with thousands of rules.
    static let coverCandidates = 24

    /// A class: the analysis keeps every rule and looks earlier ones up by index, and copying a struct
    /// of strings and arrays out of the array on each look-up was a fifth of the pass.
    private final class Analysed {
        /// Only the location is kept: findings name the rule by it, and copying whole rules showed up.
        let location: SourceLocation
        let effective: EffectiveRule
        let key: EffectiveRule
        /// `key`'s hash, computed once: per-app tables are keyed by it (then confirmed with ==).
        let keyHash: Int
        let isCatchAll: Bool
        let pathIsLiteral: Bool
        /// The normalised path (case-folded for case-insensitive rules) as bytes, for cover checks. Every
        /// normalised path starts with one slash, so prefixes compare as they would without it.
        let path: [UInt8]
        /// Bytes before the first wildcard: a covered literal path must start with them.
        let literalPrefix: Int

        init(_ rule: Rule, entry: RuleSettings?, applinks: RuleSettings?) {
            location = rule.location
            effective = EffectiveRule(rule, entry: entry, applinks: applinks)
            key = effective.matchKey
            keyHash = key.hashValue
            isCatchAll = effective.isCatchAll
            pathIsLiteral = GlobCover.isLiteral(effective.path)
            path = Array(key.path.utf8)
            literalPrefix = path.firstIndex { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "$") } ?? path.count
        }
    }

    /// Kept in one array and reached by index: mutating in place, with neither copies of the tables
    /// nor the run-time exclusivity checks that every access to a class's `var` pays.
    private struct AppState {
        var decidedBy: Int?
        var seen: [Int: Int] = [:]
        var wildcards: [Int] = []
    }

    static func findings(_ appLinks: AppLinks) -> [Finding] {
        var findings: [Finding] = []
        var analysed: [Analysed] = []
        var states: [AppState] = []
        var stateOfApp: [String: Int] = [:]
        for entry in appLinks.details where !entry.appIDs.isEmpty {
            var apps: [String] = []
            for app in entry.appIDs where !apps.contains(app) { apps.append(app) }
            let appStates = apps.map { app in
                if let state = stateOfApp[app] { return state }
                var state = AppState()
                // Most apps are listed by one entry: size the table for its rules up front.
                state.seen.reserveCapacity(entry.rules.count)
                states.append(state)
                stateOfApp[app] = states.count - 1
                return states.count - 1
            }
            for rule in entry.rules {
                let current = Analysed(rule, entry: entry.defaults, applinks: appLinks.defaults)
                let index = analysed.count
                analysed.append(current)
                var reason: String?
                for state in appStates {
                    guard let why = shadowReason(states[state], current, analysed) else {
                        reason = nil
                        break
                    }
                    if reason == nil { reason = why }
                }
                if let reason {
                    findings.append(FindingDefinition.unreachableRule.finding(at: rule.location,
                        "This rule can never decide: \(reason).",
                        hint: "Delete it, or move it above the rule that shadows it (the first matching rule wins)."))
                }
                if current.isCatchAll {
                    findings.append(catchAllFinding(current, apps))
                }
                for state in appStates {
                    if states[state].decidedBy == nil && current.isCatchAll { states[state].decidedBy = index }
                    if states[state].seen[current.keyHash] == nil { states[state].seen[current.keyHash] = index }
                    if !current.pathIsLiteral && states[state].wildcards.count < coverCandidates {
                        states[state].wildcards.append(index)
                    }
                }
            }
        }
        return findings
    }

    private static func catchAllFinding(_ current: Analysed, _ apps: [String]) -> Finding {
        if current.effective.exclude {
            return FindingDefinition.excludeAll.finding(at: current.location,
                "This exclusion constrains nothing (no \"/\", \"?\" or \"#\", or only \"*\"), so it blocks every URL for \(describe(apps)).",
                hint: "Add the \"/\", \"?\" or \"#\" pattern the exclusion is meant for, e.g. {\"/\": \"/account/*\", \"exclude\": true}.")
        }
        return FindingDefinition.catchAllRule.finding(at: current.location,
            "This rule constrains nothing, so every URL of the domain opens \(describe(apps)) (unless an earlier rule excludes it).",
            hint: "Fine if the whole site is in the app; otherwise list the paths, e.g. {\"/\": \"/products/*\"}.")
    }

    private static func shadowReason(_ state: AppState, _ rule: Analysed, _ analysed: [Analysed]) -> String? {
        if let index = state.decidedBy {
            let earlier = analysed[index]
            return "the earlier \(earlier.effective.exclude ? "exclude-all" : "catch-all") rule at \(earlier.location) already decides every URL for the same app"
        }
        if let index = state.seen[rule.keyHash], analysed[index].key == rule.key {
            return "it matches exactly the same URLs as the earlier rule at \(analysed[index].location), which decides first"
        }
        guard rule.pathIsLiteral else { return nil }
        for index in state.wildcards {
            let earlier = analysed[index]
            if covers(earlier, rule) {
                return "the earlier rule at \(earlier.location) (\"\(earlier.effective.path)\") matches every URL this one matches and decides first"
            }
        }
        return nil
    }

    private static func covers(_ earlier: Analysed, _ later: Analysed) -> Bool {
        let e = earlier.effective, l = later.effective
        guard e.caseSensitive == l.caseSensitive, e.percentEncoded == l.percentEncoded,
              earlier.literalPrefix <= later.path.count,
              earlier.path[..<earlier.literalPrefix].elementsEqual(later.path[..<earlier.literalPrefix]) else { return false }
        // Both paths are already normalised and case-folded; compared without their one leading slash.
        return GlobCover.covers(String(decoding: earlier.key.path.utf8.dropFirst(), as: UTF8.self),
                                String(decoding: later.key.path.utf8.dropFirst(), as: UTF8.self), caseSensitive: true)
            && GlobCover.covers(e.fragment, l.fragment, caseSensitive: l.caseSensitive)
            && GlobCover.queryCovers(e.query, l.query, caseSensitive: l.caseSensitive)
    }

    private static func describe(_ apps: [String]) -> String {
        apps.count == 1 ? apps[0] : "\(apps.count) apps (\(apps.sorted().joined(separator: ", ")))"
    }
}
