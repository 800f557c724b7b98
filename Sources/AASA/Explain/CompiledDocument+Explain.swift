import Vocabulary

extension CompiledDocument {
    /// Explains `decide(url:appID:)`: the same walk over the app's rules, keeping every component's
    /// result. When `domain` is given and the URL's host is neither it nor a subdomain, the file
    /// would not be consulted and the decision is `.noMatch`.
    public func explain(url: String, appID: String, domain: String? = nil) -> MatchExplanation {
        let parts = URLParts(parsing: url)
        var explanation = MatchExplanation(url: url, appID: appID, parts: parts, decision: .noMatch, decidingRule: nil,
                                           closestRule: nil, trace: [], summary: "")
        if !parts.canBeUniversalLink {
            explanation.summary = "Only http and https URLs can be universal links; this URL's scheme is \"\(parts.scheme ?? "")\", so it never opens an app."
            return explanation
        }
        if let domain, !parts.isCovered(byFileOf: domain) {
            explanation.summary = "The URL's host \"\(parts.host ?? "")\" is neither \(domain) nor one of its subdomains, so a device never consults this file for it."
            return explanation
        }
        guard let indices = rulesByApp[appID], !indices.isEmpty else {
            let listed = appIDs.isEmpty ? "The file lists no apps under applinks.details."
                : "Apps listed: " + appIDs.joined(separator: ", ") + "."
            let known = rulesByApp[appID] != nil
            explanation.summary = known
                ? "\(appID) is listed in applinks.details, but its entries have no rules (\"components\" or \"paths\"), so it gets no URL."
                : "\(appID) is not listed in applinks.details, so this file opens no URL in it. \(listed) App IDs are compared exactly, team prefix included."
            return explanation
        }
        let prepared = PreparedURL(parts, decoding: true, splittingQuery: true)
        var nearness: [Int] = []
        for index in indices {
            let (trace, near) = self.trace(rules[index], prepared)
            explanation.trace.append(trace)
            nearness.append(near)
            if trace.matched {
                explanation.decidingRule = trace
                explanation.decision = trace.exclude ? .exclude(entry: trace.entry, rule: trace.rule)
                    : .match(entry: trace.entry, rule: trace.rule)
                break
            }
        }
        if explanation.decidingRule == nil {
            explanation.closestRule = zip(explanation.trace, nearness).filter { !$0.0.checks.isEmpty }
                .max { lhs, rhs in lhs.1 < rhs.1 }?.0
        }
        explanation.summary = summary(explanation)
        return explanation
    }

    /// The rule's trace, and how near it came to matching, for picking the closest rule of a miss.
    private func trace(_ rule: CompiledRule, _ url: PreparedURL) -> (RuleTrace, Int) {
        var checks = rule.checks(url)
        let matched = checks.allSatisfy(\.matched)
        var nearness = 0
        if !matched {
            let hinted: Int
            (checks, hinted) = withHints(checks, rule: rule, url: url)
            nearness = Self.nearness(checks, hinted: hinted, exclude: rule.exclude)
        }
        let source = document.applinks?.details[rule.entryIndex].rules[rule.ruleIndex]
        return (RuleTrace(entry: rule.entryIndex, rule: rule.ruleIndex,
                          location: source?.location ?? SourceLocation(pointer: "/applinks/details/\(rule.entryIndex)"),
                          text: rule.text, legacyPath: source?.legacyPath, comment: source?.comment,
                          settings: rule.settingExplanations, checks: checks, matched: matched, exclude: rule.exclude),
                nearness)
    }

    /// "Nearest" as a person reads it: more components matching first; then failures that one setting
    /// would fix; then a rule that would open the app rather than an exclusion; then how much of the
    /// failing pattern's leading text the URL agrees with; the earliest rule on a tie.
    private static func nearness(_ checks: [ComponentCheck], hinted: Int, exclude: Bool) -> Int {
        let passed = checks.filter(\.matched).count
        let failing = checks.filter { !$0.matched }
        let agreement = failing.map { commonLiteralPrefix($0.pattern, $0.value) }.reduce(0, +)
        return passed * 1_000_000 + hinted * 100_000 + (exclude ? 0 : 50_000) + min(agreement, 999) * 10 - failing.count
    }

    private static func commonLiteralPrefix(_ pattern: String, _ value: String) -> Int {
        var count = 0
        var values = value.lowercased().unicodeScalars.makeIterator()
        for scalar in pattern.lowercased().unicodeScalars {
            guard scalar != "*", scalar != "?", scalar != "$", let next = values.next(), next == scalar else { break }
            count += 1
        }
        return count
    }

    /// Adds to each failing check what would have made it pass, when one setting would.
    /// Also returns how many failing checks a single setting change would fix.
    private func withHints(_ checks: [ComponentCheck], rule: CompiledRule, url: PreparedURL) -> ([ComponentCheck], Int) {
        let tokenizer = PatternTokenizer(variables: variables)
        func flipped(_ change: (inout EffectiveSettings) -> Void) -> [ComponentCheck] {
            var settings = rule.settings
            change(&settings)
            return CompiledRule(entryIndex: rule.entryIndex, ruleIndex: rule.ruleIndex, settings: settings,
                                tokenizer: tokenizer).checks(url)
        }
        let caseFlip = rule.settings.caseSensitive.value ? flipped { $0.caseSensitive.value = false } : []
        let encodingFlip = flipped { $0.percentEncoded.value.toggle() }
        var fixable = 0
        let hinted = checks.enumerated().map { index, check in
            guard !check.matched else { return check }
            var check = check
            var hints: [String] = []
            if let name = undefinedVariable(in: check.pattern) {
                hints.append("$(\(name)) is not defined in substitutionVariables (names are case-sensitive), so this pattern never matches.")
            }
            if (index < caseFlip.count && caseFlip[index].matched) || encodingFlip[index].matched { fixable += 1 }
            if index < caseFlip.count, caseFlip[index].matched {
                hints.append("It would match if the rule were case-insensitive (\"caseSensitive\": false).")
            }
            if index < encodingFlip.count, encodingFlip[index].matched {
                hints.append(rule.encoded
                    ? "It would match against the decoded URL (\"percentEncoded\": false); with the default true, the pattern is compared with the %-escaped text the browser sends."
                    : "It would match against the %-escaped text (\"percentEncoded\": true); with false, the URL is decoded but the pattern is not.")
            }
            if check.component == "query", check.pattern.contains("="), check.value.contains("&") {
                hints.append("A \"?\" string must cover the whole query string; to test single items, use a dictionary such as {\"name\": \"value\"}.")
            }
            if check.component == "path", check.pattern.contains("#") {
                hints.append("A # in a path pattern can never match: the fragment is not part of the path; use the \"#\" key.")
            }
            if !hints.isEmpty { check.explanation += " " + hints.joined(separator: " ") }
            return check
        }
        return (hinted, fixable)
    }

    private func undefinedVariable(in pattern: String) -> String? {
        var rest = Substring(pattern)
        while let open = rest.range(of: "$(") {
            guard let close = rest[open.upperBound...].firstIndex(of: ")") else { return nil }
            let name = String(rest[open.upperBound..<close])
            if variables.values(named: name) == nil { return name }
            rest = rest[rest.index(after: close)...]
        }
        return nil
    }

    private func summary(_ explanation: MatchExplanation) -> String {
        let app = explanation.appID
        if let rule = explanation.decidingRule {
            let why = rule.checks.isEmpty ? "It constrains nothing, so it matches every URL."
                : rule.checks.map(\.explanation).joined(separator: " ")
            let where_ = rule.legacyPath.map { "legacy path \"\($0)\"" } ?? rule.text
            if rule.exclude {
                return "\(app) does not get this URL: \(rule.name) (\(where_)) matches first and excludes it. \(why) Rules after an exclusion are not consulted for this app; the URL opens in the browser unless another app takes it."
            }
            return "\(app) opens this URL: \(rule.name) (\(where_)) is the first of its rules to match. \(why)"
        }
        let count = explanation.trace.count
        var text = "\(app) does not get this URL: none of its \(count) rule\(count == 1 ? "" : "s") matches."
        if let closest = explanation.closestRule {
            let failures = closest.checks.filter { !$0.matched }.map(\.explanation).joined(separator: " ")
            let where_ = closest.legacyPath.map { "legacy path \"\($0)\"" } ?? closest.text
            text += " Closest: \(closest.name) (\(where_)). \(failures)"
        }
        return text
    }
}
