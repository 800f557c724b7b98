/// Finds rules that can never decide anything (aasa-spec.md §7, §12 step 9): a device walks an
/// app's rules in file order — entry by entry, rule by rule — and the first match decides. So a rule
/// is dead for an app once an earlier rule for that app matches every URL (a catch-all or an
/// exclude-all), or the same URLs (identical patterns), or a superset (an earlier wildcard pattern
/// covering a later literal one). A rule is reported when it is dead for every app of its entry.
struct RuleReachability {
    /// Earlier wildcard rules compared against each later literal rule, per app: bounds the work on
    /// files with thousands of rules (validation must stay within milliseconds).
    static let coverCandidates = 24

    private struct AppState {
        var decidedBy: (Rule, EffectiveRule)?
        var seen: [EffectiveRule: Rule] = [:]
        var wildcards: [(Rule, EffectiveRule)] = []
    }

    static func findings(_ appLinks: AppLinks) -> [Finding] {
        var findings: [Finding] = []
        var states: [String: AppState] = [:]
        for entry in appLinks.details where !entry.appIDs.isEmpty {
            let apps = Array(Set(entry.appIDs))
            for rule in entry.rules {
                let effective = EffectiveRule(rule, entry: entry.defaults, applinks: appLinks.defaults)
                let key = effective.matchKey
                var reasons: [String] = []
                for app in apps {
                    if let reason = shadowReason(states[app, default: AppState()], effective, key) { reasons.append(reason) }
                }
                if reasons.count == apps.count, let reason = reasons.first {
                    findings.append(FindingDefinition.unreachableRule.finding(at: rule.location,
                        "This rule can never decide: \(reason).",
                        hint: "Delete it, or move it above the rule that shadows it (the first matching rule wins)."))
                }
                if effective.isCatchAll {
                    if effective.exclude {
                        findings.append(FindingDefinition.excludeAll.finding(at: rule.location,
                            "This exclusion constrains nothing (no \"/\", \"?\" or \"#\", or only \"*\"), so it blocks every URL for \(describe(apps)).",
                            hint: "Add the \"/\", \"?\" or \"#\" pattern the exclusion is meant for, e.g. {\"/\": \"/account/*\", \"exclude\": true}."))
                    } else {
                        findings.append(FindingDefinition.catchAllRule.finding(at: rule.location,
                            "This rule constrains nothing, so every URL of the domain opens \(describe(apps)) (unless an earlier rule excludes it).",
                            hint: "Fine if the whole site is in the app; otherwise list the paths, e.g. {\"/\": \"/products/*\"}."))
                    }
                }
                for app in apps {
                    var state = states[app, default: AppState()]
                    if state.decidedBy == nil && effective.isCatchAll { state.decidedBy = (rule, effective) }
                    if state.seen[key] == nil { state.seen[key] = rule }
                    if !GlobCover.isLiteral(effective.path) && state.wildcards.count < coverCandidates {
                        state.wildcards.append((rule, effective))
                    }
                    states[app] = state
                }
            }
        }
        return findings
    }

    private static func shadowReason(_ state: AppState, _ rule: EffectiveRule, _ key: EffectiveRule) -> String? {
        if let (earlier, effective) = state.decidedBy {
            return "the earlier \(effective.exclude ? "exclude-all" : "catch-all") rule at \(earlier.location) already decides every URL for the same app"
        }
        if let earlier = state.seen[key] {
            return "it matches exactly the same URLs as the earlier rule at \(earlier.location), which decides first"
        }
        guard GlobCover.isLiteral(rule.path) else { return nil }
        for (earlier, effective) in state.wildcards
        where effective.caseSensitive == rule.caseSensitive && effective.percentEncoded == rule.percentEncoded {
            let sensitive = rule.caseSensitive
            if GlobCover.covers(GlobCover.normalisedPath(effective.path), GlobCover.normalisedPath(rule.path), caseSensitive: sensitive),
               GlobCover.covers(effective.fragment, rule.fragment, caseSensitive: sensitive),
               GlobCover.queryCovers(effective.query, rule.query, caseSensitive: sensitive) {
                return "the earlier rule at \(earlier.location) (\"\(effective.path)\") matches every URL this one matches and decides first"
            }
        }
        return nil
    }

    private static func describe(_ apps: [String]) -> String {
        apps.count == 1 ? apps[0] : "\(apps.count) apps (\(apps.sorted().joined(separator: ", ")))"
    }
}
