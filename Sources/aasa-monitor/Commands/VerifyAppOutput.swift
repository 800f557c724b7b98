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
        if let note = signingKeysNote(report) { out += "note: \(note)\n" }
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

    /// Said under the headline and in the JUnit report when --fingerprint was not given: a pass then
    /// means the file names the package, not that it grants the app's key.
    static func signingKeysNote(_ report: GateReport) -> String? {
        guard !report.signingKeysNotChecked.isEmpty else { return nil }
        return "the signing keys of \(report.signingKeysNotChecked.joined(separator: ", ")) were not checked (no --fingerprint): "
            + "a file that names the package passes whatever keys it grants; add --fingerprint SHA256 to check them."
    }

    static func json(_ report: GateReport) throws -> String {
        let encoder = PublicJSON.encoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}
