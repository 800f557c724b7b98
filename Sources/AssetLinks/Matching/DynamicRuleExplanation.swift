/// Why a URL got its outcome under a rule list: each rule tried, each of its filters with the URL's
/// decoded value, and the deciding rule — or, when none matched, the closest rule and its failing filter.
public struct DynamicRuleExplanation: Hashable, Sendable, Encodable {
    public struct Check: Hashable, Sendable, Encodable {
        /// `/`, `#`, or `?name`.
        public var component: String
        public var pattern: String
        /// The URL's decoded component (the query: all its parameters joined by &); nil when absent.
        public var value: String?
        public var matched: Bool
    }

    public struct TriedRule: Hashable, Sendable, Encodable {
        public var rule: Int
        public var text: String
        public var exclude: Bool
        public var matched: Bool
        public var checks: [Check]
    }

    public var outcome: DynamicRuleSet.Outcome
    public var trace: [TriedRule]
    public var decidingRule: Int?
    /// When no rule matched: the rule that came nearest (most filters passing, then earliest).
    public var closestRule: Int?
    /// The first filter of the closest rule that failed.
    public var failingCheck: Check?

    enum CodingKeys: String, CodingKey { case trace, decidingRule = "deciding_rule", closestRule = "closest_rule", failingCheck = "failing_check" }
}

extension DynamicRuleSet.Outcome: Encodable {
    public var name: String {
        switch self {
        case .match: "match"
        case .exclude: "exclude"
        case .noMatch: "no_match"
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

extension DynamicRuleSet {
    /// Same walk as `decide`, but every filter of every rule tried is checked and recorded.
    public func explain(_ url: AndroidURL) -> DynamicRuleExplanation {
        var trace: [DynamicRuleExplanation.TriedRule] = []
        for (index, compiled) in compiled.enumerated() {
            let checks = compiled.checks(url)
            let matched = !checks.isEmpty && checks.allSatisfy(\.matched)
            trace.append(.init(rule: index, text: compiled.rule.text, exclude: compiled.rule.exclude, matched: matched, checks: checks))
            if matched {
                let outcome: Outcome = compiled.rule.exclude ? .exclude(rule: index) : .match(rule: index)
                return DynamicRuleExplanation(outcome: outcome, trace: trace, decidingRule: index)
            }
        }
        let closest = trace.filter { !$0.checks.isEmpty }.max { a, b in
            let passedA = a.checks.filter(\.matched).count, passedB = b.checks.filter(\.matched).count
            if passedA != passedB { return passedA < passedB }
            return a.rule > b.rule      // ties go to the earlier rule
        }
        return DynamicRuleExplanation(outcome: .noMatch, trace: trace, closestRule: closest?.rule,
                                      failingCheck: closest?.checks.first { !$0.matched })
    }
}

extension DynamicRuleSet.CompiledRule {
    func checks(_ url: AndroidURL) -> [DynamicRuleExplanation.Check] {
        var checks: [DynamicRuleExplanation.Check] = []
        if let path {
            checks.append(.init(component: "/", pattern: path.text, value: url.decodedPath, matched: path.matches(url.path)))
        }
        for (entry, pattern) in zip(rule.query, query) {
            let matched = url.queryParameters?.contains { pattern.matches($0) } ?? false
            checks.append(.init(component: "?" + entry.name, pattern: entry.value,
                                value: url.decodedQueryParameters?.joined(separator: "&"), matched: matched))
        }
        if let fragment {
            checks.append(.init(component: "#", pattern: fragment.text, value: url.decodedFragment,
                                matched: url.fragment.map { fragment.matches($0) } ?? false))
        }
        return checks
    }
}
