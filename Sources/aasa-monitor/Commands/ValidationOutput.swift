import Vocabulary
import AASA
import Foundation

/// How `validate` prints a report: text grouped by severity for people, JSON for tools. Both are
/// an API (CI jobs parse them), so field names and the exit status rules stay stable.
enum ValidationOutput {
    /// 2 errors, 1 warnings or deprecations only, 0 clean or info only.
    static func exitStatus(_ report: ValidationReport) -> Int32 {
        switch report.worstSeverity {
        case .error: 2
        case .warning, .deprecation: 1
        case .info, nil: 0
        }
    }

    static func text(_ report: ValidationReport, name: String) -> String {
        var out = "\(name): \(summaryLine(report))\n"
        for severity in Severity.allCases {
            let group = report.findings.filter { $0.severity == severity }
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

    static func summaryLine(_ report: ValidationReport) -> String {
        if report.findings.isEmpty { return "no findings" }
        let parts: [(Int, String)] = [(report.count(.error), "error"), (report.count(.warning), "warning"),
                                      (report.count(.deprecation), "deprecation"), (report.count(.info), "info")]
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

    private struct Output: Encodable {
        struct Location: Encodable {
            var pointer: String
            var line: Int?
            var column: Int?
        }

        struct Item: Encodable {
            var code: String
            var severity: String
            var location: Location?
            var message: String
            var hint: String?
            var affects: String?

            // Absent values are written as null, so every finding has the same six keys.
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(code, forKey: .code)
                try c.encode(severity, forKey: .severity)
                try c.encode(location, forKey: .location)
                try c.encode(message, forKey: .message)
                try c.encode(hint, forKey: .hint)
                try c.encode(affects, forKey: .affects)
            }

            enum CodingKeys: String, CodingKey { case code, severity, location, message, hint, affects }
        }

        struct Summary: Encodable {
            var errors: Int
            var warnings: Int
            var deprecations: Int
            var infos: Int
            var worstSeverity: String?
            var exitStatus: Int32
            var signed: Bool
            var parsed: Bool

            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(errors, forKey: .errors)
                try c.encode(warnings, forKey: .warnings)
                try c.encode(deprecations, forKey: .deprecations)
                try c.encode(infos, forKey: .infos)
                try c.encode(worstSeverity, forKey: .worstSeverity)
                try c.encode(exitStatus, forKey: .exitStatus)
                try c.encode(signed, forKey: .signed)
                try c.encode(parsed, forKey: .parsed)
            }

            enum CodingKeys: String, CodingKey { case errors, warnings, deprecations, infos, worstSeverity, exitStatus, signed, parsed }
        }

        var findings: [Item]
        var summary: Summary
    }

    static func json(_ report: ValidationReport) -> String {
        let output = Output(
            findings: report.sortedFindings.map { finding in
                Output.Item(code: finding.code, severity: finding.severity.rawValue,
                            location: finding.location.map { Output.Location(pointer: $0.pointer, line: $0.line, column: $0.column) },
                            message: finding.message, hint: finding.hint, affects: finding.affects)
            },
            summary: Output.Summary(errors: report.count(.error), warnings: report.count(.warning),
                                    deprecations: report.count(.deprecation), infos: report.count(.info),
                                    worstSeverity: report.worstSeverity?.rawValue, exitStatus: exitStatus(report),
                                    signed: report.document?.wasSigned ?? false, parsed: report.document != nil))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(output) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
