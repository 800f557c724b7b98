import ArgumentParser
import Fetch
import Foundation
import PublicSuffixes
import Vocabulary
import WebAuthn

/// What the commands print for the web's passkey files: `validate`'s report of a related-origins or
/// passkey-endpoints file, and `match --related-origins`'s decision. Keys are snake_case and stable.
enum WebAuthnOutput {
    /// libidn2 and libpsl, or exit 69 saying which package provides the list.
    static func rules(command: String) throws -> DomainRules {
        guard let suffixes = LibPSL() else {
            Terminal.printError("aasa-monitor \(command): libpsl has no Public Suffix List; install Debian's publicsuffix package.")
            throw ExitCode(69)
        }
        return DomainRules(idna: LibIDN2(), suffixes: suffixes)
    }

    // MARK: validate

    static func validateText(_ report: RelatedOriginsReport, name: String) -> TerminalText {
        var out = ValidationOutput.text(report.findings, name: name)
        if let rejection = report.reading.rejection {
            out += "\nBrowsers reject this file: \(rejection).\n"
            return out
        }
        let window = report.walk.window
        out += "\nBrowsers keep \(window.count) of at most \(LabelWalk.maxLabels) labels" + (window.isEmpty ? ".\n" : ": \(window.joined(separator: ", ")).\n")
        let usable = report.usableOrigins.compactMap(\.origin).map(\.description)
        out += "Origins a browser can match (\(usable.count))" + (usable.isEmpty ? ".\n" : ":\n")
        for origin in usable { out += "  \(origin)\n" }
        return out
    }

    static func validateJSON(_ report: RelatedOriginsReport) -> TerminalText {
        struct Output: Encodable {
            var findings: [ValidationOutput.FindingJSON]
            @PublicJSON.NullWhenAbsent var rejection: String?
            var labels: [String]
            var ignoredLabels: [String]
            var usableOrigins: [String]
            var summary: Summary
        }
        let ignored = report.walk.allLabels.filter { !report.walk.window.contains($0) }
        return ValidationOutput.encoded(Output(findings: report.findings.map(ValidationOutput.FindingJSON.init),
                                               rejection: report.reading.rejection, labels: report.walk.window, ignoredLabels: ignored,
                                               usableOrigins: report.usableOrigins.compactMap(\.origin).map(\.description),
                                               summary: Summary(report.findings)))
    }

    static func passkeyEndpointsText(_ reading: PasskeyEndpointsReading, name: String) -> TerminalText {
        var out = ValidationOutput.text(reading.findings, name: name)
        guard let endpoints = reading.endpoints else { return out + "\nClients read no links from this file.\n" }
        out += "\nLinks (\(endpoints.count))" + (endpoints.isEmpty ? ".\n" : ":\n")
        for key in PasskeyEndpointsReader.members { if let url = endpoints[key] { out += "  \(key): \(url)\n" } }
        return out
    }

    static func passkeyEndpointsJSON(_ reading: PasskeyEndpointsReading) -> TerminalText {
        struct Output: Encodable {
            var findings: [ValidationOutput.FindingJSON]
            @PublicJSON.NullWhenAbsent var endpoints: [String: String]?
            var summary: Summary
        }
        return ValidationOutput.encoded(Output(findings: reading.findings.map(ValidationOutput.FindingJSON.init),
                                               endpoints: reading.endpoints, summary: Summary(reading.findings)))
    }

    /// The counts and exit status, as `validate --json` gives them for the other files.
    struct Summary: Encodable {
        var errors: Int
        var warnings: Int
        var infos: Int
        @PublicJSON.NullWhenAbsent var worstSeverity: String?
        var exitStatus: Int32

        init(_ findings: [Finding]) {
            errors = findings.filter { $0.severity == .error }.count
            warnings = findings.filter { $0.severity == .warning }.count
            infos = findings.filter { $0.severity == .info }.count
            let worst = findings.map(\.severity).min()
            worstSeverity = worst?.rawValue
            exitStatus = ValidationOutput.exitStatus(worst: worst)
        }
    }

    // MARK: diff

    static func diffJSON(_ diff: RelatedOriginsDiff) -> TerminalText {
        struct Output: Encodable {
            var behaviourallyEqual: Bool
            var related: [String]
            var unrelated: [String]
            var pushedPastLimit: [String]
            var oldLabelCount: Int
            var newLabelCount: Int
            @PublicJSON.NullWhenAbsent var oldRejection: String?
            @PublicJSON.NullWhenAbsent var newRejection: String?
            var lines: [String]
        }
        return ValidationOutput.encoded(Output(behaviourallyEqual: diff.isBehaviourallyEqual, related: diff.related.map(\.description),
                                               unrelated: diff.unrelated.map(\.description), pushedPastLimit: diff.pushedPastLimit.map(\.description),
                                               oldLabelCount: diff.oldLabelCount, newLabelCount: diff.newLabelCount,
                                               oldRejection: diff.oldRejection, newRejection: diff.newRejection, lines: diff.lines))
    }

    // MARK: match --related-origins

    static func decisionJSON(_ decision: RelatedOriginsDecision, rpID: RelyingPartyID, origin: String) -> TerminalText {
        struct Output: Encodable {
            var allowed: Bool
            var reason: String
            var labels: [String]
            var outcome: String
            @PublicJSON.NullWhenAbsent var entry: String?
            var rpId: String
            var origin: String
        }
        return ValidationOutput.encoded(Output(allowed: decision.allowed, reason: decision.reason, labels: decision.labels,
                                               outcome: decision.outcome.rawValue, entry: decision.entry?.location.pointer,
                                               rpId: rpID.domain, origin: origin))
    }

    static func decisionText(_ decision: RelatedOriginsDecision) -> TerminalText {
        var out: TerminalText = "\(decision.allowed ? "allowed" : "not allowed"): \(decision.reason)\n"
        if !decision.labels.isEmpty { out += "Labels counted: \(decision.labels.joined(separator: ", "))\n" }
        return out
    }
}
