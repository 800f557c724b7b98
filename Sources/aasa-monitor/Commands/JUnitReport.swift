import Foundation
import Monitor
import Vocabulary
import TextEncoding

/// A gate run as JUnit XML, the format the test-report panes of CI systems read (GitHub Actions
/// through a reporter action, GitLab's `artifacts:reports:junit`, Jenkins). One `<testsuite>` per
/// platform, one `<testcase>` per entitlement entry or watched URL: errors become a `<failure>`,
/// a domain that could not be checked an `<error>`, warnings and infos go to `<system-out>`.
enum JUnitReport {
    static func xml(_ report: GateReport, timestamp: Date) -> String {
        let stamp = ISO8601DateFormatter().string(from: timestamp)
        var suites: [String] = []
        var totals = (tests: 0, failures: 0, errors: 0, time: 0.0)
        for platform in Platform.allCases {
            let cases = report.cases.filter { $0.platform == platform }
            guard !cases.isEmpty else { continue }
            let failures = cases.filter { $0.exitStatus == 2 }.count
            let errors = cases.filter { $0.exitStatus == 3 }.count
            let time = cases.reduce(0) { $0 + $1.seconds }
            totals = (totals.tests + cases.count, totals.failures + failures, totals.errors + errors, totals.time + time)
            var suite = "  <testsuite name=\"\(escape("verify-app \(platform.rawValue)"))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"\(seconds(time))\" timestamp=\"\(stamp)\">\n"
            // The unchecked keys concern each Android file case: it passed on the package name alone.
            let note = platform == .android ? VerifyAppOutput.signingKeysNote(report).map { "note: " + $0 } : nil
            for gateCase in cases { suite += testcase(gateCase, note: gateCase.group == "applinks" ? note : nil) }
            suite += "  </testsuite>\n"
            suites.append(suite)
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="aasa-monitor verify-app" tests="\(totals.tests)" failures="\(totals.failures)" errors="\(totals.errors)" time="\(seconds(totals.time))">

            """ + suites.joined() + "</testsuites>\n"
    }

    private static func testcase(_ gateCase: GateCase, note: String?) -> String {
        let classname = "\(gateCase.platform.rawValue).\(gateCase.group)"
        var out = "    <testcase classname=\"\(escape(classname))\" name=\"\(escape(gateCase.name))\" time=\"\(seconds(gateCase.seconds))\""
        let errors = gateCase.findings.filter { $0.severity == .error }
        let others = gateCase.findings.filter { $0.severity != .error }
        if errors.isEmpty && others.isEmpty && note == nil && gateCase.exitStatus == 0 { return out + "/>\n" }
        out += ">\n"
        if gateCase.exitStatus == 3 {
            let first = errors.first ?? gateCase.findings.first
            out += "      <error type=\"could-not-check\" message=\"\(escape(first?.message ?? "could not check \(gateCase.host)"))\">"
            out += escape(describe(gateCase.findings)) + "</error>\n"
        } else if !errors.isEmpty {
            out += "      <failure type=\"\(escape(errors.map(\.code).joined(separator: " ")))\" message=\"\(escape(errors[0].message))\">"
            out += escape(describe(errors)) + "</failure>\n"
        }
        let said = ([note].compactMap { $0 } + (gateCase.exitStatus != 3 && !others.isEmpty ? [describe(others)] : []))
        if !said.isEmpty {
            out += "      <system-out>" + escape(said.joined(separator: "\n")) + "</system-out>\n"
        }
        return out + "    </testcase>\n"
    }

    private static func describe(_ findings: [Finding]) -> String {
        findings.map { finding in
            "\(finding.severity.rawValue) \(finding.code): \(finding.message)" + (finding.hint.map { "\n  → \($0)" } ?? "")
        }.joined(separator: "\n")
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Text for an XML attribute or element; see `MarkupEscaping.xml` for what becomes what.
    static func escape(_ text: String) -> String { MarkupEscaping.xml(text) }
}
