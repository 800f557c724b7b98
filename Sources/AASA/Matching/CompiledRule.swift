/// One rule ready to test: its effective settings and a matcher per constrained component. A class:
/// the matching loop then touches a rule through one reference instead of copying its patterns.
final class CompiledRule: Sendable {
    struct PathMatcher: Sendable {
        let main: GlobMatcher
        /// The pattern without its final `/*` (§8.4 rule 4), when it had one.
        let withoutFinalStar: GlobMatcher?

        func matches<Input: MatchUnits>(_ path: Input, folding: Bool) -> Bool {
            main.matches(path, folding: folding) || (withoutFinalStar?.matches(path, folding: folding) ?? false)
        }
    }

    struct ItemMatcher: Sendable {
        let name: String
        let nameBytes: [UInt8]
        let matcher: GlobMatcher
        /// The result for an absent item, which counts as the empty string (§8.5 rule 3).
        let matchesEmpty: Bool

        init(name: String, matcher: GlobMatcher, folding: Bool) {
            self.name = name
            nameBytes = Array(name.utf8)
            self.matcher = matcher
            matchesEmpty = matcher.matches([UInt32](), folding: folding)
        }
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
                return matcher.matchesEverything ? nil : ItemMatcher(name: item.name, matcher: matcher, folding: folded)
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

    func matches<URL: MatchSubject>(_ url: URL) -> Bool {
        if path?.matches(url.path(encoded: encoded), folding: folding) == false { return false }
        if fragment?.matches(url.fragment(encoded: encoded), folding: folding) == false { return false }
        switch query {
        case nil: return true
        case .whole(let matcher): return matcher.matches(url.query(encoded: encoded), folding: folding)
        case .items(let matchers):
            for index in matchers.indices where !itemMatches(matchers[index], in: url) { return false }
            return true
        }
    }

    /// Every occurrence of the name must match; an absent item is one empty value (§8.5 rules 3–4).
    func itemMatches<URL: MatchSubject>(_ item: ItemMatcher, in url: URL) -> Bool {
        url.everyValue(ofItem: item.nameBytes, encoded: encoded) { item.matcher.matches($0, folding: folding) }
            ?? item.matchesEmpty
    }
}
