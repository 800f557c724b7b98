/// A statement's dynamic rules compiled once: `decide` walks them in order and the first rule whose
/// filters all match decides (exclude → not opened); none matching → not opened (assetlinks-spec.md §4.3).
/// Cost per URL: one pass over each filter's component per rule tried, never more.
public struct DynamicRuleSet: Hashable, Sendable {
    struct CompiledRule: Hashable, Sendable {
        var rule: DynamicRule
        var path: DynamicPattern?
        var fragment: DynamicPattern?
        /// Each `"?"` entry as the pattern `name=value` one parameter must match (spec §4.5, [inferred]).
        var query: [DynamicPattern]
    }

    public let rules: [DynamicRule]
    let compiled: [CompiledRule]

    public init(_ rules: [DynamicRule]) {
        self.rules = rules
        compiled = rules.map { rule in
            CompiledRule(rule: rule, path: rule.path.map(DynamicPattern.init), fragment: rule.fragment.map(DynamicPattern.init),
                         query: rule.query.map { DynamicPattern($0.name + "=" + $0.value) })
        }
    }

    public enum Outcome: Hashable, Sendable {
        case match(rule: Int)
        case exclude(rule: Int)
        case noMatch
    }

    public func decide(_ url: AndroidURL) -> Outcome {
        for (index, rule) in compiled.enumerated() where rule.matches(url) {
            return rule.rule.exclude ? .exclude(rule: index) : .match(rule: index)
        }
        return .noMatch
    }
}

extension DynamicRuleSet.CompiledRule {
    func matches(_ url: AndroidURL) -> Bool {
        // A rule without filters matches nothing (AOSP-FW: a group with no filters is never satisfied).
        if path == nil && fragment == nil && query.isEmpty { return false }
        if let path, !path.matches(url.path) { return false }
        if let fragment {
            guard let value = url.fragment, fragment.matches(value) else { return false }
        }
        for entry in query {
            guard let parameters = url.queryParameters, parameters.contains(where: { entry.matches($0) }) else { return false }
        }
        return true
    }
}
