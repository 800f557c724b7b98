/// One element of a pattern after `$(…)` references are resolved (aasa-spec.md §8.1, §10).
enum PatternToken: Hashable, Sendable {
    /// A literal code point, already case-folded when the rule is case-insensitive.
    case unit(UInt32)
    /// `?`
    case anyOne
    /// `*` (a run of stars is one star: they match the same strings)
    case star
    /// `$(name)`: any one of the values, each as units with `PatternUnit.star`/`.anyOne` wildcards,
    /// held as a trie built once per variable and shared by every pattern that uses it.
    case alternatives(name: String, values: ValueTrie)
    /// `$(name)` with no definition: matches nothing (the best guess of aasa-spec.md §10).
    case undefined(name: String)
}

/// Turns pattern text into tokens. Caches each variable's tokenised values, since one `$(region)`
/// appears in many rules of a file.
final class PatternTokenizer {
    private let variables: SubstitutionVariables
    private var cache: [CacheKey: ValueTrie] = [:]

    private struct CacheKey: Hashable {
        var name: String
        var folded: Bool
    }

    init(variables: SubstitutionVariables) {
        self.variables = variables
    }

    func tokens(_ pattern: String, folded: Bool) -> [PatternToken] {
        let scalars = Array(pattern.unicodeScalars)
        var tokens: [PatternToken] = []
        tokens.reserveCapacity(scalars.count)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "*":
                if tokens.last != .star { tokens.append(.star) }
                index += 1
            case "?":
                tokens.append(.anyOne)
                index += 1
            case "$" where index + 1 < scalars.count && scalars[index + 1] == "(":
                // An unterminated `$(` has no documented meaning; keep it as literal text (§17 item 6).
                guard let close = scalars[(index + 2)...].firstIndex(of: ")") else {
                    tokens.append(.unit(fold(scalar.value, folded)))
                    index += 1
                    continue
                }
                let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
                if let values = values(of: name, folded: folded) {
                    tokens.append(.alternatives(name: name, values: values))
                } else {
                    tokens.append(.undefined(name: name))
                }
                index = close + 1
            default:
                // A lone `$` is literal text (aasa-spec.md §10 best guess).
                tokens.append(.unit(fold(scalar.value, folded)))
                index += 1
            }
        }
        return tokens
    }

    private func values(of name: String, folded: Bool) -> ValueTrie? {
        let key = CacheKey(name: name, folded: folded)
        if let cached = cache[key] { return cached }
        guard let raw = variables.values(named: name) else { return nil }
        // Values may hold `*` and `?` wildcards but no further variables: `$(` in a value is text.
        let values = raw.map { value in
            var units: [UInt32] = []
            for scalar in value.unicodeScalars {
                switch scalar {
                case "*": if units.last != PatternUnit.star { units.append(PatternUnit.star) }
                case "?": units.append(PatternUnit.anyOne)
                default: units.append(fold(scalar.value, folded))
                }
            }
            return units
        }
        let trie = ValueTrie(values)
        cache[key] = trie
        return trie
    }

    private func fold(_ unit: UInt32, _ folded: Bool) -> UInt32 {
        folded ? CaseFolding.fold(unit) : unit
    }
}

/// A variable's values as a trie: values sharing a prefix share nodes, so an automaton state per node
/// keeps the live states few. Built once per variable (and case), then only read. Compared by identity.
final class ValueTrie: Hashable, Sendable {
    /// Children of each node, sorted by unit (wildcards are their `PatternUnit` sentinels); node 0 is the root.
    let children: [[(unit: UInt32, child: Int)]]
    /// Whether a value ends at the node.
    let terminal: [Bool]

    init(_ values: [[UInt32]]) {
        var edges: [[UInt32: Int]] = [[:]]
        var terminal: [Bool] = [false]
        for value in values {
            var node = 0
            for unit in value {
                if let child = edges[node][unit] {
                    node = child
                } else {
                    edges.append([:])
                    terminal.append(false)
                    edges[node][unit] = edges.count - 1
                    node = edges.count - 1
                }
            }
            terminal[node] = true
        }
        children = edges.map { $0.map { (unit: $0.key, child: $0.value) }.sorted { $0.unit < $1.unit } }
        self.terminal = terminal
    }

    static func == (lhs: ValueTrie, rhs: ValueTrie) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
