import Vocabulary

/// Everything that can be judged from an assetlinks.json's bytes: what Google honours, and why.
public struct AssetLinksReport: Sendable {
    public var reading: AssetLinksReading
    /// The reader's findings plus the behaviour checks of dynamic rules, most severe first, file order within.
    public var findings: [Finding]

    public var file: AssetLinksFile? { reading.file }

    public var worstSeverity: Severity? { findings.map(\.severity).min() }

    public func count(_ severity: Severity) -> Int { findings.filter { $0.severity == severity }.count }

    /// The statements Google honours, one per relation (a statement with two relations is two), in file order.
    public var honouredStatements: [(relation: String, target: StatementTarget)] {
        (file?.statements ?? []).flatMap { statement in statement.relations.map { ($0, statement.target) } }
    }
}

/// `AssetLinksReader` plus the checks of §10.4 that look at a whole rule list or at several statements.
public enum AssetLinksValidator {
    public static func validate(_ bytes: [UInt8], source: AssetLinksSource = .https) -> AssetLinksReport {
        let reading = AssetLinksReader.read(bytes, source: source)
        var findings = reading.findings
        if let file = reading.file { findings += fileFindings(file) }
        let sorted = findings.enumerated().sorted { a, b in
            a.element.severity != b.element.severity ? a.element.severity < b.element.severity : a.offset < b.offset
        }.map(\.element)
        return AssetLinksReport(reading: reading, findings: sorted)
    }

    static func fileFindings(_ file: AssetLinksFile) -> [Finding] {
        var findings: [Finding] = []
        var listsByPackage: [String: Int] = [:]
        for statement in file.statements {
            guard let list = statement.dynamicRules else { continue }
            if let package = statement.packageName, statement.relations.contains(Relation.handleAllURLs) {
                if let first = listsByPackage[package] {
                    findings.append(AndroidFinding.dynamicRulesDuplicate.finding(
                        at: SourceLocation(pointer: "/\(statement.index)/relation_extensions"),
                        "Statements \(first + 1) and \(statement.index + 1) both give \(package) dynamic rules; which list Android uses is not guaranteed (we assume the first).",
                        hint: "Merge the rules into one statement's list."))
                } else {
                    listsByPackage[package] = statement.index
                }
            }
            if let rules = list.rules { findings += DynamicRuleChecks.findings(rules) }
        }
        if !listsByPackage.isEmpty {
            findings.append(AndroidFinding.dynamicRulesMinOS.finding(at: nil,
                "The file has dynamic rules: only Android 15+ with Google services reads them; older devices open every path the app's manifest claims.",
                hint: "Keep the manifest's intent filters as narrow as the paths that must work everywhere."))
        }
        return findings
    }
}
