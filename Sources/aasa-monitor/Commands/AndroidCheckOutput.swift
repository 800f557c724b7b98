import AssetLinks
import Fetch
import Foundation
import Monitor
import Vocabulary

/// How `check` prints an `AndroidCheck`: text for people, JSON (under `android`) for pipelines, the exit status.
enum AndroidCheckOutput {
    static func text(_ check: AndroidCheck) -> TerminalText {
        let report = check.report
        var served: TerminalText = "no statement list is served"
        if report.serves {
            let file = report.file ?? AssetLinksFile()
            served = "Google honours \(file.statements.count) statement\(file.statements.count == 1 ? "" : "s")"
            if !file.packageNames.isEmpty { served += " for \(file.packageNames.joined(separator: ", "))" }
        }
        var facts = CheckOutput.describe(check.origin, repeatOfWellKnown: false, label: "assetlinks (\(check.origin.userAgent ?? "?"))")
        for other in check.otherUserAgents {
            facts += CheckOutput.describe(other, repeatOfWellKnown: false, label: "assetlinks (\(other.userAgent ?? "?"))")
        }
        for include in check.includes { facts += CheckOutput.describe(include, repeatOfWellKnown: false, label: "include") }
        switch check.google {
        case .answered(let list, let checks)?:
            facts += "  Google's Digital Asset Links API: \(list.statements.count) statement\(list.statements.count == 1 ? "" : "s")"
            if let age = list.maxAgeSeconds { facts += ", max age \(Int(age)) s" }
            facts += list.errorCodes.isEmpty ? "\n" : ", errors \(list.errorCodes.joined(separator: ", "))\n"
            for link in checks {
                facts += "    \(link.packageName) \(link.fingerprint): \(link.linked ? "linked" : "NOT linked")\n"
            }
        case .unavailable(let reason)?:
            facts += "  Google's Digital Asset Links API: unavailable (\(reason))\n"
        case nil:
            break
        }
        return CheckOutput.text(check.host, platform: " (Android)", exitStatus: report.exitStatus, served: served,
                                findings: report.findings, facts: facts)
    }

    struct Report: Encodable {
        var verdict: String
        var couldNotCheck: Bool
        var exitStatus: Int32
        var serves: Bool
        var url: String
        var findings: [Finding]
        var facts: [CheckOutput.Facts]
        var includes: [CheckOutput.Facts]
        var google: Google?
        var startedAt: Date
        var finishedAt: Date
    }

    struct Google: Encodable {
        var available: Bool
        var reason: String?
        var statements: [GoogleStatement]
        var errorCodes: [String]
        var maxAgeSeconds: Double?
        var debugString: String?
        var checks: [GoogleLinkCheck]
    }

    static func report(_ check: AndroidCheck) -> Report {
        var google: Google?
        switch check.google {
        case .answered(let list, let checks)?:
            google = Google(available: true, statements: list.statements, errorCodes: list.errorCodes, maxAgeSeconds: list.maxAgeSeconds,
                            debugString: list.debugString, checks: checks)
        case .unavailable(let reason)?:
            google = Google(available: false, reason: reason, statements: [], errorCodes: [], checks: [])
        case nil:
            break
        }
        return Report(verdict: check.report.verdict.rawValue, couldNotCheck: check.report.couldNotCheck,
                      exitStatus: check.report.exitStatus, serves: check.report.serves, url: check.origin.url,
                      findings: check.report.findings, facts: ([check.origin] + check.otherUserAgents).map(CheckOutput.Facts.init),
                      includes: check.includes.map(CheckOutput.Facts.init), google: google,
                      startedAt: check.startedAt, finishedAt: check.finishedAt)
    }
}
