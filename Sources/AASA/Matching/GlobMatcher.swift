/// A compiled pattern for one URL component: anchored, `*`/`?`/`$(…)` (aasa-spec.md §8.1).
/// Picks the cheapest engine that is exact for the pattern.
enum GlobMatcher: Sendable {
    case segments(SegmentGlob)
    case automaton(AutomatonBox)
    /// References an undefined variable, so it can never match.
    case never

    init(_ tokens: [PatternToken]) {
        if tokens.contains(where: { if case .undefined = $0 { true } else { false } }) {
            self = .never
        } else if let segments = SegmentGlob(tokens) {
            self = .segments(segments)
        } else {
            self = .automaton(AutomatonBox(GlobAutomaton(tokens)))
        }
    }

    /// `input` is the component as compared (encoded or decoded); `folding` is `!caseSensitive`,
    /// with the pattern already folded at compile time.
    func matches<Input: MatchUnits>(_ input: Input, folding: Bool) -> Bool {
        switch self {
        case .segments(let glob): glob.matches(input, folding: folding)
        case .automaton(let box): box.automaton.matches(input, folding: folding)
        case .never: false
        }
    }

    /// True when the pattern matches every input (`*`), so a rule can skip the component.
    var matchesEverything: Bool {
        if case .segments(let glob) = self {
            return glob.hasStar && glob.prefix.isEmpty && glob.suffix.isEmpty && glob.middles.isEmpty
        }
        return false
    }
}

/// Holds an automaton by reference: matching then retains one object instead of each of its arrays.
final class AutomatonBox: Sendable {
    let automaton: GlobAutomaton

    init(_ automaton: GlobAutomaton) {
        self.automaton = automaton
    }
}
