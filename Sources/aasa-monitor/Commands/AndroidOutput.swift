import AssetLinks
import Foundation
import Vocabulary

/// What the commands print for assetlinks.json: `validate`'s report, `match`'s decisions and `diff`.
/// Keys are snake_case and stable (issue #12 fixes the validate and batch shapes; CI jobs parse them):
/// `PublicJSON` writes the properties' names so, and only a name the file itself spells otherwise
/// (`sha256_cert_fingerprints`) has a coding key.
enum AndroidOutput {
    // MARK: validate

    /// A statement as Google honours it: one relation, the target as in the file (sites normalised).
    struct StatementJSON: Encodable {
        struct Target: Encodable {
            var namespace: String
            var packageName: String?
            var fingerprints: [String]?
            var site: String?

            enum CodingKeys: String, CodingKey {
                case namespace, packageName = "package_name", fingerprints = "sha256_cert_fingerprints", site
            }
        }

        var relation: String
        var target: Target

        init(relation: String, target: StatementTarget) {
            self.relation = relation
            switch target {
            case .androidApp(let package, let fingerprints):
                self.target = Target(namespace: "android_app", packageName: package, fingerprints: fingerprints)
            case .web(let site):
                self.target = Target(namespace: "web", site: site)
            }
        }
    }

    static func validateJSON(_ report: AssetLinksReport) -> TerminalText {
        struct Output: Encodable {
            var findings: [ValidationOutput.FindingJSON]
            var statements: [StatementJSON]
        }
        return ValidationOutput.encoded(Output(findings: report.findings.map(ValidationOutput.FindingJSON.init),
                                               statements: report.honouredStatements.map { StatementJSON(relation: $0.relation, target: $0.target) }))
    }

    static func validateText(_ report: AssetLinksReport, name: String) -> TerminalText {
        var out = ValidationOutput.text(report.findings, name: name)
        let honoured = report.honouredStatements
        out += "\nGoogle honours \(honoured.count) statement\(honoured.count == 1 ? "" : "s")"
        out += report.reading.googleReportsError ? " and reports an error for this file" : ""
        out += honoured.isEmpty ? ".\n" : ":\n"
        for statement in honoured {
            switch statement.target {
            case .androidApp(let package, let fingerprints):
                out += "  \(statement.relation) → \(package) (\(fingerprints.count) fingerprint\(fingerprints.count == 1 ? "" : "s"))\n"
            case .web(let site):
                out += "  \(statement.relation) → \(site)\n"
            }
        }
        return out
    }

    // MARK: match

    struct PackageLine: Encodable {
        var packageName: String
        var decision: String
        var opensApp: Bool
        var statement: Int?
        var rule: Int?
        var ruleText: String?
        var summary: String
        var explanation: DynamicRuleExplanation?
    }

    static func packageLines(_ matcher: AppLinkMatcher, url: String, packages: [String], androidVersion: Int,
                             explain: Bool) -> [PackageLine] {
        let parsed = AndroidURL(url)
        return packages.map { package in
            let explanation = matcher.explain(parsed, packageName: package, androidVersion: androidVersion)
            let decision = explanation.decision
            let ruleText = decision.rule.flatMap { rule in explanation.rules?.trace.first { $0.rule == rule }?.text }
            return PackageLine(packageName: package, decision: decision.name, opensApp: decision.opensApp,
                               statement: decision.statement, rule: decision.rule, ruleText: ruleText,
                               summary: explanation.summary, explanation: explain ? explanation.rules : nil)
        }
    }

    static func matchJSON(url: String, androidVersion: Int, lines: [PackageLine]) -> TerminalText {
        struct Output: Encodable {
            var url: String
            var androidVersion: Int
            var packages: [PackageLine]
        }
        return ValidationOutput.encoded(Output(url: url, androidVersion: androidVersion, packages: lines))
    }

    static func matchText(url: String, androidVersion: Int, lines: [PackageLine]) -> TerminalText {
        var out: TerminalText = "\(url) on Android \(androidVersion)\(androidVersion >= AppLinkMatcher.firstDynamicRulesVersion ? "+" : ""):\n"
        if lines.isEmpty { out += "  (the file names no app)\n" }
        for line in lines {
            out += "  \(line.packageName)  \(line.decision)"
            if let rule = line.rule, let statement = line.statement {
                out += "  rule \(rule + 1) of statement \(statement + 1)  \(line.ruleText ?? "")"
            }
            out += "\n    \(line.summary)\n"
            if let explanation = line.explanation {
                out += "    Rules tried in order:\n"
                for tried in explanation.trace {
                    out += "      \(tried.matched ? "✓" : "✗") rule \(tried.rule + 1) \(tried.text)\n"
                    for check in tried.checks where !tried.matched {
                        let value = check.value.map { quoted($0) } ?? "(absent)"
                        out += "          \(check.matched ? "✓" : "✗") \(check.component) \(quoted(check.pattern)) against \(value)\n"
                    }
                }
            }
        }
        return out
    }

    /// A JSON string literal for text output (slashes left as they are: paths are full of them).
    private static func quoted(_ text: String) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]) else { return "\"\"" }
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    // MARK: diff

    static func diffJSON(_ diff: AssetLinksDiff) -> TerminalText {
        struct Output: Encodable {
            var behaviourallyEqual: Bool
            var diff: AssetLinksDiff
        }
        return ValidationOutput.encoded(Output(behaviourallyEqual: diff.isBehaviourallyEqual, diff: diff))
    }
}
