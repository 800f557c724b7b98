import Vocabulary

/// One path attribute of an app's intent filter, as the scope check needs it (the AppManifests module
/// reads the manifest; this module stays free of it). A filter without any path attribute claims every
/// path: give no `ManifestPath` for it.
public enum ManifestPath: Hashable, Sendable {
    /// `android:path`: exactly this path.
    case exact(String)
    /// `android:pathPrefix`.
    case prefix(String)
    /// `android:pathSuffix`.
    case suffix(String)
    /// `android:pathPattern` / `pathAdvancedPattern`, by the literal text before its first special character.
    case pattern(literalPrefix: String)
}

/// `dynamic-rule-out-of-scope` (assetlinks-spec.md §10.4): Android first asks whether the app's
/// manifest claims the URL, and only then lets the dynamic rules decide, so a rule whose path can
/// match no path the manifest claims never decides anything. Conservative: a rule is reported only
/// when no claimed path can be matched by it (a wildcard in either leaves the pair possible).
public enum DynamicRuleScope {
    /// The findings for `packageName`'s governing rule list in `file` (the one the matcher uses) against
    /// the paths the manifest claims for the file's host. `claimed` empty: the manifest claims every path.
    public static func findings(_ file: AssetLinksFile, packageName: String, claimed: [ManifestPath]) -> [Finding] {
        guard !claimed.isEmpty,
              let rules = file.statements(granting: Relation.handleAllURLs, to: packageName).first(where: { $0.dynamicRules != nil })?
                .dynamicRules?.rules else { return [] }
        var findings: [Finding] = []
        for (index, rule) in rules.enumerated() {
            guard let path = rule.path, !claimed.contains(where: { canMatch(path, $0) }) else { continue }
            let paths = claimed.map(describe).joined(separator: ", ")
            findings.append(AndroidCheckFinding.dynamicRuleOutOfScope.finding(
                at: SourceLocation(pointer: rule.pointer + "/~1", line: rule.line, column: rule.column),
                "Rule \(index + 1) \(rule.text) of \(packageName) can match no path the app's manifest claims (\(paths)); "
                    + "Android checks the manifest first, so the rule never decides.",
                hint: "Add the path to an autoVerify intent filter of the app, or remove the rule."))
        }
        return findings
    }

    /// Whether the rule's path `pattern` can match some path the manifest entry claims.
    static func canMatch(_ pattern: String, _ claimed: ManifestPath) -> Bool {
        let literal = literalPrefix(pattern)
        let hasWildcard = literal.utf16.count != pattern.utf16.count
        switch claimed {
        case .exact(let path):
            return DynamicPattern(pattern).matches(Array(path.utf16))
        case .prefix(let prefix):
            return hasWildcard ? (literal.hasPrefix(prefix) || prefix.hasPrefix(literal)) : pattern.hasPrefix(prefix)
        case .suffix(let suffix):
            return hasWildcard || pattern.hasSuffix(suffix)
        case .pattern(let prefix):
            return literal.hasPrefix(prefix) || prefix.hasPrefix(literal)
        }
    }

    /// The pattern's text before its first `*` or `?` (all of it when it has none).
    static func literalPrefix(_ pattern: String) -> String {
        String(pattern.prefix { $0 != "*" && $0 != "?" })
    }

    static func describe(_ path: ManifestPath) -> String {
        switch path {
        case .exact(let t): "path=\"\(t)\""
        case .prefix(let t): "pathPrefix=\"\(t)\""
        case .suffix(let t): "pathSuffix=\"\(t)\""
        case .pattern(let t): "a pathPattern starting \"\(t)\""
        }
    }
}
