/// One rule ready to test: its effective settings and a matcher per constrained component. A class:
/// the matching loop then touches a rule through one reference instead of copying its patterns.
final class CompiledRule: Sendable {
    struct PathMatcher: Sendable {
        let main: GlobMatcher
        /// The pattern without its final `/*` (§8.4 rule 4), when it had one.
        let withoutFinalStar: GlobMatcher?

        func matches(_ path: [UInt32], folding: Bool) -> Bool {
            main.matches(path, folding: folding) || (withoutFinalStar?.matches(path, folding: folding) ?? false)
        }
    }

    struct ItemMatcher: Sendable {
        let name: String
        let nameBytes: [UInt8]
        let matcher: GlobMatcher
    }

    enum QueryMatcher: Sendable {
        case whole(GlobMatcher)
        case items([ItemMatcher])
    }

    let entryIndex: Int
    let ruleIndex: Int
    let settings: EffectiveSettings
    /// nil: unconstrained.
    let path: PathMatcher?
    let query: QueryMatcher?
    let fragment: GlobMatcher?

    // Copies of settings the hot loop reads, so testing a rule touches no strings.
    let exclude: Bool
    let folding: Bool
    let encoded: Bool
    var needsDecoding: Bool { !encoded && (path != nil || query != nil || fragment != nil) }
    var needsQueryItems: Bool { if case .items = query { true } else { false } }

    init(entryIndex: Int, ruleIndex: Int, settings: EffectiveSettings, tokenizer: PatternTokenizer) {
        self.entryIndex = entryIndex
        self.ruleIndex = ruleIndex
        self.settings = settings
        exclude = settings.exclude.value
        folding = !settings.caseSensitive.value
        encoded = settings.percentEncoded.value
        let folded = !settings.caseSensitive.value
        if let pattern = settings.path.value {
            let (main, alternate) = PathNormalization.canonicalPattern(tokenizer.tokens(pattern, folded: folded))
            if main == [.unit(PatternUnit.slash), .star] {
                // `*` (any path): every canonical path starts with `/`.
                path = nil
            } else {
                path = PathMatcher(main: GlobMatcher(main), withoutFinalStar: alternate.map(GlobMatcher.init))
            }
        } else {
            path = nil
        }
        switch settings.query.value {
        case .string(let pattern):
            let matcher = GlobMatcher(tokenizer.tokens(pattern, folded: folded))
            query = matcher.matchesEverything ? nil : .whole(matcher)
        case .items(let items):
            let matchers = items.compactMap { item -> ItemMatcher? in
                let matcher = GlobMatcher(tokenizer.tokens(item.pattern, folded: folded))
                // `*` accepts every value and also the absent item (which is the empty string).
                return matcher.matchesEverything ? nil : ItemMatcher(name: item.name, nameBytes: Array(item.name.utf8), matcher: matcher)
            }
            query = matchers.isEmpty ? nil : .items(matchers)
        case .voided, nil:
            // A non-string predicate voids the whole dictionary (§8.5 rule 5); an empty one constrains nothing.
            query = nil
        }
        if let pattern = settings.fragment.value {
            let matcher = GlobMatcher(tokenizer.tokens(pattern, folded: folded))
            fragment = matcher.matchesEverything ? nil : matcher
        } else {
            fragment = nil
        }
    }

    func matches(_ url: PreparedURL) -> Bool {
        // Optional chaining and direct property reads borrow in place; binding with `if let` or calling
        // an accessor that returns an array would retain on every rule of every URL.
        if path?.matches(encoded ? url.encodedPath : url.decodedPath, folding: folding) == false { return false }
        if fragment?.matches(encoded ? url.encodedFragment : url.decodedFragment, folding: folding) == false { return false }
        switch query {
        case nil: return true
        case .whole(let matcher): return matcher.matches(encoded ? url.encodedQuery : url.decodedQuery, folding: folding)
        case .items(let matchers):
            for index in matchers.indices where !itemMatches(matchers[index], in: url) { return false }
            return true
        }
    }

    /// Every occurrence of the name must match; an absent item is one empty value (§8.5 rules 3–4).
    func itemMatches(_ item: ItemMatcher, in url: PreparedURL) -> Bool {
        var seen = false
        for candidate in url.items where candidate.name == item.nameBytes {
            seen = true
            let value = encoded ? candidate.encodedValue : candidate.decodedValue
            if !item.matcher.matches(value, folding: folding) { return false }
        }
        return seen || item.matcher.matches([], folding: folding)
    }
}
