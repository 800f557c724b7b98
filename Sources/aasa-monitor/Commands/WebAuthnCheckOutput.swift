import Fetch
import Foundation
import Monitor
import Vocabulary
import WebAuthn

/// The web check's exit status is `check`'s, as for Apple's and Android's reports.
extension WebAuthnEvaluation: CheckConclusion {}

/// How `check --passkeys` prints a `WebAuthnCheck`: the same layout as the other platforms' checks
/// (verdict, findings, facts), then the related origins browsers keep and the labels they spend.
enum WebAuthnCheckOutput {
    static func text(_ check: WebAuthnCheck) -> TerminalText {
        let evaluation = check.evaluation
        let served: TerminalText = if let report = evaluation.relatedOrigins {
            report.reading.rejection.map { "browsers reject /.well-known/webauthn (\($0))" } ?? "browsers read /.well-known/webauthn"
        } else {
            "browsers read no related origins"
        }
        var facts: TerminalText = ""
        let labelled: [(String, TransportFacts?)] = [("webauthn", check.webauthn), ("passkey-endpoints", check.passkeyEndpoints),
                                                     ("change-password", check.changePassword), ("not-found probe", check.probe)]
        for (label, fact) in labelled {
            if let fact { facts += CheckOutput.describe(fact, repeatOfWellKnown: false, label: label) }
        }
        let host = (try? HostName(check.rpID.domain)).map(CheckOutput.name) ?? check.rpID.domain
        return "\(host) (web): \(CheckExitStatus.word(evaluation.exitStatus)) — \(served)\n"
            + CheckOutput.findingsSection(evaluation.findings) + relatedOrigins(evaluation) + endpoints(evaluation)
            + "\nFacts:\n" + facts
    }

    /// The labels browsers keep, of at most five, and the origins they can match.
    static func relatedOrigins(_ evaluation: WebAuthnEvaluation) -> TerminalText {
        guard let report = evaluation.relatedOrigins, report.reading.rejection == nil else { return "" }
        let walk = report.walk
        var out: TerminalText = "\nLabels: \(walk.allLabels.count) of at most \(LabelWalk.maxLabels)"
        out += walk.window.isEmpty ? "\n" : " (\(walk.window.joined(separator: ", ")))\n"
        let ignored = walk.allLabels.filter { !walk.window.contains($0) }
        if !ignored.isEmpty { out += "  ignored: \(ignored.joined(separator: ", "))\n" }
        let usable = report.usableOrigins
        out += "Related origins (\(usable.count))" + (usable.isEmpty ? ".\n" : ":\n")
        for related in usable {
            out += "  \(related.origin?.description ?? related.entry.text)  label \(related.label ?? "-")\n"
        }
        return out
    }

    static func endpoints(_ evaluation: WebAuthnEvaluation) -> TerminalText {
        guard let links = evaluation.passkeyEndpoints?.endpoints, !links.isEmpty else { return "" }
        var out: TerminalText = "Passkey endpoints:\n"
        for key in PasskeyEndpointsReader.members { if let url = links[key] { out += "  \(key): \(url)\n" } }
        return out
    }

    // MARK: - JSON

    struct Report: Encodable {
        var rpId: String
        var verdict: String
        var couldNotCheck: Bool
        var exitStatus: Int32
        var findings: [Finding]
        @PublicJSON.NullWhenAbsent var rejection: String?
        var labels: [String]
        var labelCount: Int
        var ignoredLabels: [String]
        var relatedOrigins: [RelatedOriginJSON]
        @PublicJSON.NullWhenAbsent var passkeyEndpoints: [String: String]?
        var facts: [CheckOutput.Facts]
        var startedAt: Date
        var finishedAt: Date
    }

    struct RelatedOriginJSON: Encodable {
        var origin: String
        var label: String
    }

    static func report(_ check: WebAuthnCheck) -> Report {
        let evaluation = check.evaluation
        let walk = evaluation.relatedOrigins?.walk
        let usable = evaluation.relatedOrigins?.usableOrigins ?? []
        return Report(rpId: check.rpID.domain, verdict: evaluation.verdict.rawValue, couldNotCheck: evaluation.couldNotCheck,
                      exitStatus: evaluation.exitStatus, findings: evaluation.findings,
                      rejection: evaluation.relatedOrigins?.reading.rejection, labels: walk?.window ?? [],
                      labelCount: walk?.allLabels.count ?? 0,
                      ignoredLabels: walk.map { walk in walk.allLabels.filter { !walk.window.contains($0) } } ?? [],
                      relatedOrigins: usable.compactMap { related in
                          guard let origin = related.origin, let label = related.label else { return nil }
                          return RelatedOriginJSON(origin: origin.description, label: label)
                      },
                      passkeyEndpoints: evaluation.passkeyEndpoints?.endpoints,
                      facts: [check.webauthn, check.passkeyEndpoints, check.changePassword, check.probe].compactMap { $0 }.map(CheckOutput.Facts.init),
                      startedAt: check.startedAt, finishedAt: check.finishedAt)
    }
}
