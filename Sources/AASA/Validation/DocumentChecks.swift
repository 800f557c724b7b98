import Vocabulary

/// Checks that need the whole document rather than one value: rule reachability, apps listed in
/// several entries, and keys that older systems silently ignore.
enum DocumentChecks {
    static func findings(_ document: AASADocument) -> [Finding] {
        guard let appLinks = document.applinks else { return [] }
        var findings = RuleReachability.findings(appLinks)
        findings += duplicateApps(appLinks)
        findings += FeatureMinOS.findings(appLinks)
        return findings
    }

    /// Legal (F-649423), but often an accident: later entries only see URLs earlier ones left undecided.
    private static func duplicateApps(_ appLinks: AppLinks) -> [Finding] {
        var firstEntry: [String: DetailEntry] = [:]
        var findings: [Finding] = []
        for entry in appLinks.details {
            for app in Set(entry.appIDs).sorted() {
                if let first = firstEntry[app] {
                    findings.append(FindingDefinition.appIDDuplicate.finding(at: entry.location,
                        "\(app) is also listed in the entry at \(first.location); this entry only decides URLs that no rule of the earlier entry matched.",
                        hint: "Merge the two entries' rules if that is not intended (the first matching rule wins)."))
                } else {
                    firstEntry[app] = entry
                }
            }
        }
        return findings
    }
}
