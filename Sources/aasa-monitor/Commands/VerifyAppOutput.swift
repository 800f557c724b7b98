import AASA
import Foundation
import Monitor
import Vocabulary

/// How `verify-app` prints a gate run: a line per case for people, JSON for pipelines.
enum VerifyAppOutput {
    static func text(_ report: GateReport) -> TerminalText {
        let overall = CheckExitStatus.word(report.exitStatus)
        let failing = report.cases.filter { $0.exitStatus >= 2 }.count
        var out: TerminalText = "\((report.appIDs.map(\.text) + report.packages).joined(separator: ", ")): \(overall) — \(report.cases.count - failing) of \(report.cases.count) checks pass\n"
        for gateCase in report.cases {
            let word = CheckExitStatus.word(gateCase.exitStatus)
            let platform = gateCase.platform == .android ? "android " : ""
            out += "\n\(word.padding(toLength: max(5, word.count), withPad: " ", startingAt: 0)) \(platform)\(gateCase.group) \(gateCase.name)"
            if gateCase.group == "url" || gateCase.name.contains("*.") { out += " (file of \(gateCase.host))" }
            out += "\n"
            // The file's own infos (iOS 12 compatibility and the like) repeat for every service of a
            // host and decide nothing here; the gate's infos (a lagging CDN, an alternate mode) do.
            let shown = gateCase.findings.filter { $0.severity != .info || ReleaseGate.gateInfoCodes.contains($0.code) }
            if shown.count < gateCase.findings.count {
                out += "      (\(gateCase.findings.count - shown.count) more infos about the file: --json lists them)\n"
            }
            out += CheckOutput.findingLines(shown, indent: "      ", bodyIndent: "        ")
        }
        return out
    }

    struct Output: Encodable {
        var appIDs: [AppID]
        var packages: [String]
        var exitStatus: Int32
        var cases: [Case]
    }

    struct Case: Encodable {
        var platform: Platform
        var group: String
        var name: String
        var host: String
        var verdict: String
        var couldNotCheck: Bool
        var exitStatus: Int32
        var findings: [Finding]
    }

    static func json(_ report: GateReport) throws -> String {
        let output = Output(appIDs: report.appIDs, packages: report.packages, exitStatus: report.exitStatus, cases: report.cases.map {
            Case(platform: $0.platform, group: $0.group, name: $0.name, host: $0.host, verdict: $0.verdict.rawValue,
                 couldNotCheck: $0.couldNotCheck, exitStatus: $0.exitStatus, findings: $0.findings)
        })
        let encoder = PublicJSON.encoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(output), as: UTF8.self)
    }
}
