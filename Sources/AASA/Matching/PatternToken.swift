/// One element of a pattern after `$(…)` references are resolved (aasa-spec.md §8.1, §10).
enum PatternToken: Hashable, Sendable {
    /// A literal code point, already case-folded when the rule is case-insensitive.
    case unit(UInt32)
    /// `?`
    case anyOne
    /// `*` (a run of stars is one star: they match the same strings)
    case star
    /// `$(name)`: any one of the values, each as units with `PatternUnit.star`/`.anyOne` wildcards.
    case alternatives(name: String, values: [[UInt32]])
    /// `$(name)` with no definition: matches nothing (the best guess of aasa-spec.md §10).
    case undefined(name: String)
}

/// Turns pattern text into tokens. Caches each variable's tokenised values, since one `$(region)`
/// appears in many rules of a file.
final class PatternTokenizer {
    private let variables: SubstitutionVariables
    private var cache: [CacheKey: [[UInt32]]] = [:]

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

    private func values(of name: String, folded: Bool) -> [[UInt32]]? {
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
        cache[key] = values
        return values
    }

    private func fold(_ unit: UInt32, _ folded: Bool) -> UInt32 {
        folded ? CaseFolding.fold(unit) : unit
    }
}
