import Vocabulary
import AASA
import Foundation

/// How `validate` prints a report: text grouped by severity for people, JSON for tools. Both are
/// an API (CI jobs parse them), so field names and the exit status rules stay stable.
enum ValidationOutput {
    /// 2 errors, 1 warnings or deprecations only, 0 clean or info only.
    static func exitStatus(_ report: ValidationReport) -> Int32 { exitStatus(worst: report.worstSeverity) }

    static func exitStatus(worst: Severity?) -> Int32 {
        switch worst {
        case .error: 2
        case .warning, .deprecation: 1
        case .info, nil: 0
        }
    }

    static func text(_ report: ValidationReport, name: String) -> TerminalText { text(report.findings, name: name) }

    /// Findings grouped by severity, for any association file's findings.
    static func text(_ findings: [Finding], name: String) -> TerminalText {
        var out: TerminalText = "\(name): \(summaryLine(findings))\n"
        for severity in Severity.allCases {
            let group = findings.filter { $0.severity == severity }
            guard !group.isEmpty else { continue }
            out += "\n\(heading(severity)) (\(group.count))\n"
            for finding in group {
                out += "  \(finding.code)  \(finding.location.map(\.description) ?? "(file)")\n"
                out += "    \(finding.message)\n"
                if let hint = finding.hint { out += "    Fix: \(hint)\n" }
                if let affects = finding.affects { out += "    Affects: \(affects)\n" }
            }
        }
        return out
    }

    static func summaryLine(_ findings: [Finding]) -> String {
        if findings.isEmpty { return "no findings" }
        func count(_ severity: Severity) -> Int { findings.filter { $0.severity == severity }.count }
        let parts: [(Int, String)] = [(count(.error), "error"), (count(.warning), "warning"),
                                      (count(.deprecation), "deprecation"), (count(.info), "info")]
        return parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 || $0.1 == "info" ? "" : "s")" }
            .joined(separator: ", ")
    }

    private static func heading(_ severity: Severity) -> String {
        switch severity {
        case .error: "Errors"
        case .warning: "Warnings"
        case .deprecation: "Deprecations"
        case .info: "Info"
        }
    }

    /// One finding as JSON: every finding has the same six keys, absent values written as null.
    struct FindingJSON: Encodable {
        var code: String
        var severity: String
        @PublicJSON.NullWhenAbsent var location: SourceLocation?
        var message: String
        @PublicJSON.NullWhenAbsent var hint: String?
        @PublicJSON.NullWhenAbsent var affects: String?

        init(_ finding: Finding) {
            code = finding.code
            severity = finding.severity.rawValue
            location = finding.location
            message = finding.message
            hint = finding.hint
            affects = finding.affects
        }
    }

    private struct Output: Encodable {
        struct Summary: Encodable {
            var errors: Int
            var warnings: Int
            var deprecations: Int
            var infos: Int
            @PublicJSON.NullWhenAbsent var worstSeverity: String?
            var exitStatus: Int32
            var signed: Bool
            var parsed: Bool
        }

        var findings: [FindingJSON]
        var summary: Summary
    }

    static func json(_ report: ValidationReport) -> TerminalText {
        let output = Output(
            findings: report.sortedFindings.map(FindingJSON.init),
            summary: Output.Summary(errors: report.count(.error), warnings: report.count(.warning),
                                    deprecations: report.count(.deprecation), infos: report.count(.info),
                                    worstSeverity: report.worstSeverity?.rawValue, exitStatus: exitStatus(report),
                                    signed: report.document?.wasSigned ?? false, parsed: report.document != nil))
        return encoded(output)
    }

    /// Pretty, sorted keys, slashes unescaped: the form every command's --json prints.
    static func encoded(_ value: some Encodable) -> TerminalText {
        let encoder = PublicJSON.encoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return TerminalText(json: String(decoding: data, as: UTF8.self) + "\n")
    }
}
