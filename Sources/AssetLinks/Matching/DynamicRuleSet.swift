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

    /// What `decide` needs of a rule and nothing else (no texts), so the walk over a long list touches
    /// little memory and copies no strings.
    struct Program: Hashable, Sendable {
        var path: DynamicPattern.Kind?
        var fragment: DynamicPattern.Kind?
        var query: [DynamicPattern.Kind]
        var exclude: Bool
        var hasFilters: Bool
    }

    public let rules: [DynamicRule]
    let compiled: [CompiledRule]
    let programs: ContiguousArray<Program>

    public init(_ rules: [DynamicRule]) {
        self.rules = rules
        compiled = rules.map { rule in
            CompiledRule(rule: rule, path: rule.path.map(DynamicPattern.init), fragment: rule.fragment.map(DynamicPattern.init),
                         query: rule.query.map { DynamicPattern($0.name + "=" + $0.value) })
        }
        programs = ContiguousArray(compiled.map { rule in
            Program(path: rule.path?.kind, fragment: rule.fragment?.kind, query: rule.query.map(\.kind), exclude: rule.rule.exclude,
                    hasFilters: !rule.rule.isEmpty)
        })
    }

    public enum Outcome: Hashable, Sendable {
        case match(rule: Int)
        case exclude(rule: Int)
        case noMatch
    }

    public func decide(_ url: AndroidURL) -> Outcome {
        url.path.withUnsafeBufferPointer { path in
            programs.withUnsafeBufferPointer { programs in
                for index in programs.indices where programs[index].matches(path: path, url: url) {
                    return programs[index].exclude ? .exclude(rule: index) : .match(rule: index)
                }
                return .noMatch
            }
        }
    }
}

extension DynamicRuleSet.Program {
    func matches(path decodedPath: UnsafeBufferPointer<UInt16>, url: AndroidURL) -> Bool {
        // A rule without filters matches nothing (AOSP-FW: a group with no filters is never satisfied).
        guard hasFilters else { return false }
        if let path, !path.matches(decodedPath) { return false }
        if let fragment {
            guard let value = url.fragment, value.withUnsafeBufferPointer({ fragment.matches($0) }) else { return false }
        }
        for entry in query {
            guard let parameters = url.queryParameters,
                  parameters.contains(where: { parameter in parameter.withUnsafeBufferPointer { entry.matches($0) } }) else { return false }
        }
        return true
    }
}
