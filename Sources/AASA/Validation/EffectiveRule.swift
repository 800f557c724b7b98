/// A rule with every setting resolved through the defaults hierarchy: the rule's own value, then
/// the entry's `defaults`, then `applinks.defaults`, then the built-in (aasa-spec.md §9, §12 step 7).
struct EffectiveRule: Hashable {
    var path: String
    var query: QuerySpec
    var fragment: String
    var exclude: Bool
    var caseSensitive: Bool
    var percentEncoded: Bool

    init(_ rule: Rule, entry: RuleSettings?, applinks: RuleSettings?) {
        let own = rule.settings
        path = own.path ?? entry?.path ?? applinks?.path ?? "*"
        query = own.query ?? entry?.query ?? applinks?.query ?? .string("*")
        fragment = own.fragment ?? entry?.fragment ?? applinks?.fragment ?? "*"
        exclude = own.exclude ?? entry?.exclude ?? applinks?.exclude ?? false
        caseSensitive = own.caseSensitive ?? entry?.caseSensitive ?? applinks?.caseSensitive ?? true
        percentEncoded = own.percentEncoded ?? entry?.percentEncoded ?? applinks?.percentEncoded ?? true
    }

    /// The same URLs match, whatever `exclude` says: the later of two such rules never decides.
    var matchKey: EffectiveRule {
        var copy = self
        copy.exclude = false
        copy.path = GlobCover.normalisedPath(path)
        if !caseSensitive {
            copy.path = copy.path.lowercased()
            copy.fragment = fragment.lowercased()
        }
        return copy
    }

    /// Constrains nothing: every URL of the host matches (aasa-spec.md §7: `{}` matches every URL).
    var isCatchAll: Bool {
        GlobCover.isAllStarsPath(path) && GlobCover.isAllStars(fragment) && Self.queryIsUnconstrained(query)
    }

    static func queryIsUnconstrained(_ query: QuerySpec) -> Bool {
        switch query {
        case .string(let pattern): GlobCover.isAllStars(pattern)
        // Absent items count as empty strings, which "*" matches (§8.5 rule 3).
        case .items(let items): items.allSatisfy { GlobCover.isAllStars($0.pattern) }
        case .voided: true
        }
    }
}
