/// How two versions of an assetlinks.json differ in what Google and devices do with them, not in
/// bytes: grants added or removed per relation, packages and fingerprints (the changes a regression
/// alert keys on, assetlinks-spec.md §11), each app's dynamic rules, and the outcome of given URLs.
public struct AssetLinksDiff: Hashable, Sendable, Encodable {
    /// One (relation, target) grant; an app target is named by its package (fingerprints are compared apart).
    public struct Grant: Hashable, Sendable, Encodable, Comparable {
        public var relation: String
        /// `android_app` or `web`.
        public var namespace: String
        /// The package name or the (normalised) site.
        public var target: String

        public static func < (a: Grant, b: Grant) -> Bool { (a.relation, a.namespace, a.target) < (b.relation, b.namespace, b.target) }
    }

    public struct PackageFingerprint: Hashable, Sendable, Encodable, Comparable {
        public var packageName: String
        public var fingerprint: String

        public init(packageName: String, fingerprint: String) {
            self.packageName = packageName
            self.fingerprint = fingerprint
        }

        enum CodingKeys: String, CodingKey { case packageName = "package_name", fingerprint }

        public static func < (a: Self, b: Self) -> Bool { (a.packageName, a.fingerprint) < (b.packageName, b.fingerprint) }
    }

    public struct RuleChanges: Hashable, Sendable, Encodable {
        public struct Move: Hashable, Sendable, Encodable {
            public var rule: String
            public var from: Int
            public var to: Int
        }

        public var packageName: String
        /// `valid`, `dropped` or `absent`, before and after (a valid → dropped change widens the app's scope).
        public var before: String
        public var after: String
        public var added: [String]
        public var removed: [String]
        public var moved: [Move]

        enum CodingKeys: String, CodingKey { case packageName = "package_name", before, after, added, removed, moved }
    }

    public struct URLChange: Hashable, Sendable, Encodable {
        public var url: String
        public var packageName: String
        public var before: String
        public var after: String
        public var beforeRule: Int?
        public var afterRule: Int?

        enum CodingKeys: String, CodingKey {
            case url, packageName = "package_name", before, after, beforeRule = "before_rule", afterRule = "after_rule"
        }
    }

    public var grantsAdded: [Grant] = []
    public var grantsRemoved: [Grant] = []
    public var packagesAdded: [String] = []
    public var packagesRemoved: [String] = []
    public var fingerprintsAdded: [PackageFingerprint] = []
    public var fingerprintsRemoved: [PackageFingerprint] = []
    public var dynamicRules: [RuleChanges] = []
    public var urls: [URLChange] = []

    enum CodingKeys: String, CodingKey {
        case grantsAdded = "statements_added", grantsRemoved = "statements_removed", packagesAdded = "packages_added"
        case packagesRemoved = "packages_removed", fingerprintsAdded = "fingerprints_added"
        case fingerprintsRemoved = "fingerprints_removed", dynamicRules = "dynamic_rules", urls
    }

    public var isBehaviourallyEqual: Bool {
        grantsAdded.isEmpty && grantsRemoved.isEmpty && packagesAdded.isEmpty && packagesRemoved.isEmpty
            && fingerprintsAdded.isEmpty && fingerprintsRemoved.isEmpty && dynamicRules.isEmpty && urls.isEmpty
    }

    /// Compares `old` and `new` (the statements Google honours in each); `urls` are decided for every
    /// package either file names, on Android 15+.
    public static func diff(old: AssetLinksFile, new: AssetLinksFile, urls: [String] = []) -> AssetLinksDiff {
        var diff = AssetLinksDiff()
        let (grantsBefore, grantsAfter) = (grants(old), grants(new))
        diff.grantsAdded = grantsAfter.subtracting(grantsBefore).sorted()
        diff.grantsRemoved = grantsBefore.subtracting(grantsAfter).sorted()
        let (packagesBefore, packagesAfter) = (Set(old.packageNames), Set(new.packageNames))
        diff.packagesAdded = packagesAfter.subtracting(packagesBefore).sorted()
        diff.packagesRemoved = packagesBefore.subtracting(packagesAfter).sorted()
        let (fingerprintsBefore, fingerprintsAfter) = (fingerprints(old), fingerprints(new))
        diff.fingerprintsAdded = fingerprintsAfter.subtracting(fingerprintsBefore).sorted()
        diff.fingerprintsRemoved = fingerprintsBefore.subtracting(fingerprintsAfter).sorted()
        let packages = (old.packageNames + new.packageNames.filter { !packagesBefore.contains($0) })
        for package in packages {
            if let changes = ruleChanges(package, old, new) { diff.dynamicRules.append(changes) }
        }
        let (matcherBefore, matcherAfter) = (AppLinkMatcher(old), AppLinkMatcher(new))
        for url in urls {
            let parsed = AndroidURL(url)
            for package in packages {
                let before = matcherBefore.decide(parsed, packageName: package)
                let after = matcherAfter.decide(parsed, packageName: package)
                // The outcome, not the deciding rule: a rule moving ahead of an equivalent one changes nothing a user sees.
                if before.name != after.name {
                    diff.urls.append(URLChange(url: url, packageName: package, before: before.name, after: after.name,
                                               beforeRule: before.rule, afterRule: after.rule))
                }
            }
        }
        return diff
    }

    private static func grants(_ file: AssetLinksFile) -> Set<Grant> {
        var out = Set<Grant>()
        for statement in file.statements {
            for relation in statement.relations {
                switch statement.target {
                case .androidApp(let package, _): out.insert(Grant(relation: relation, namespace: "android_app", target: package))
                case .web(let site): out.insert(Grant(relation: relation, namespace: "web", target: site))
                }
            }
        }
        return out
    }

    private static func fingerprints(_ file: AssetLinksFile) -> Set<PackageFingerprint> {
        Set(file.statements.flatMap { statement in
            statement.fingerprints.map { PackageFingerprint(packageName: statement.packageName ?? "", fingerprint: $0) }
        })
    }

    /// The list that governs `package` (its first handle_all_urls statement with one, as the matcher uses).
    private static func governingList(_ package: String, _ file: AssetLinksFile) -> DynamicRuleList? {
        file.statements(granting: Relation.handleAllURLs, to: package).first { $0.dynamicRules != nil }?.dynamicRules
    }

    private static func ruleChanges(_ package: String, _ old: AssetLinksFile, _ new: AssetLinksFile) -> RuleChanges? {
        let before = governingList(package, old), after = governingList(package, new)
        func state(_ list: DynamicRuleList?) -> String {
            switch list {
            case .rules?: "valid"
            case .dropped?: "dropped"
            case nil: "absent"
            }
        }
        let oldRules = before?.rules?.map(\.text) ?? [], newRules = after?.rules?.map(\.text) ?? []
        let common = Set(oldRules).intersection(newRules)
        let kept = longestCommonSubsequence(oldRules.filter(common.contains), newRules.filter(common.contains))
        var changes = RuleChanges(packageName: package, before: state(before), after: state(after),
                                  added: newRules.filter { !common.contains($0) }, removed: oldRules.filter { !common.contains($0) },
                                  moved: [])
        var unmoved = kept
        for rule in newRules where common.contains(rule) {
            if let at = unmoved.firstIndex(of: rule) {
                unmoved.remove(at: at)
            } else if let from = oldRules.firstIndex(of: rule), let to = newRules.firstIndex(of: rule) {
                changes.moved.append(.init(rule: rule, from: from, to: to))
            }
        }
        if changes.before == changes.after && changes.added.isEmpty && changes.removed.isEmpty && changes.moved.isEmpty { return nil }
        return changes
    }

    /// Rules that kept their relative order; the others moved. Lists are short (a few hundred at most).
    private static func longestCommonSubsequence(_ a: [String], _ b: [String]) -> [String] {
        guard !a.isEmpty, !b.isEmpty else { return [] }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var out: [String] = []
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] { out.append(a[i]); i += 1; j += 1 } else if table[i + 1][j] >= table[i][j + 1] { i += 1 } else { j += 1 }
        }
        return out
    }
}

extension AssetLinksDiff: CustomStringConvertible {
    /// The differences for people, one line each; "No change in behaviour." when there is none.
    public var description: String {
        lines.joined(separator: "\n") + "\n"
    }

    /// The description's lines, for callers that escape each line for display (the CLI).
    public var lines: [String] {
        var lines: [String] = []
        for grant in grantsAdded { lines.append("+ \(grant.relation) → \(grant.namespace) \(grant.target)") }
        for grant in grantsRemoved { lines.append("- \(grant.relation) → \(grant.namespace) \(grant.target)") }
        for package in packagesAdded { lines.append("+ package \(package)") }
        for package in packagesRemoved { lines.append("- package \(package)") }
        for entry in fingerprintsAdded { lines.append("+ fingerprint \(entry.fingerprint) for \(entry.packageName)") }
        for entry in fingerprintsRemoved { lines.append("- fingerprint \(entry.fingerprint) for \(entry.packageName)") }
        for rules in dynamicRules {
            if rules.before != rules.after {
                lines.append("~ dynamic rules of \(rules.packageName): \(rules.before) → \(rules.after)"
                    + (rules.after == "dropped" ? " (the manifest alone now decides)" : ""))
            }
            for rule in rules.added { lines.append("+ rule \(rule) for \(rules.packageName)") }
            for rule in rules.removed { lines.append("- rule \(rule) for \(rules.packageName)") }
            for move in rules.moved { lines.append("~ rule \(move.rule) for \(rules.packageName) moved from \(move.from + 1) to \(move.to + 1)") }
        }
        for change in urls {
            lines.append("~ \(change.url) for \(change.packageName): \(change.before) → \(change.after)")
        }
        return lines.isEmpty ? ["No change in behaviour."] : lines
    }
}
