import AASA
import AssetLinks
import Vocabulary
import Fetch
import Foundation
import Monitor

/// How `check` prints a `AppleCheck`: text for people, JSON for pipelines, and the exit status.
enum CheckOutput {
    static func text(_ check: AppleCheck) -> TerminalText {
        let served: TerminalText = switch check.report.deviceLocation {
        case .wellKnown?: "devices read /.well-known/apple-app-site-association"
        case .root?: "devices read /apple-app-site-association (legacy root location)"
        case .cdn?: "devices read Apple's CDN copy, which it fetched through the origin's redirect"
        default: "no location serves the file"
        }
        var facts: TerminalText = ""
        for fact in [check.wellKnown, check.root, check.cdn, check.plainUserAgent].compactMap({ $0 }) {
            facts += describe(fact, repeatOfWellKnown: fact.location == .wellKnown && fact.userAgent != check.wellKnown.userAgent)
        }
        return text(check.host, platform: "", exitStatus: check.report.exitStatus, served: served,
                    findings: check.report.findings, facts: facts)
    }

    /// One platform's check as `check` prints it, the same for either: the host (and the platform,
    /// but for Apple's) with the verdict's word and what is served, the findings, then the facts.
    static func text(_ host: HostName, platform: TerminalText, exitStatus: Int32, served: TerminalText, findings: [Finding],
                     facts: TerminalText) -> TerminalText {
        "\(name(host))\(platform): \(CheckExitStatus.word(exitStatus)) — \(served)\n" + findingsSection(findings) + "\nFacts:\n" + facts
    }

    /// A checked host as the text output heads it, for either platform: its Unicode name, with the
    /// ASCII (Punycode) form beside it when they differ.
    static func name(_ host: HostName) -> String {
        host.unicode == host.ascii ? host.ascii : "\(host.unicode) (\(host.ascii))"
    }

    /// The findings as `check` prints them for either platform: severity, code, location, message, hint.
    static func findingsSection(_ findings: [Finding]) -> TerminalText {
        var out: TerminalText = ""
        if findings.isEmpty {
            out += "\nNo findings.\n"
        } else {
            out += "\nFindings:\n"
            out += findingLines(findings, indent: "  ", bodyIndent: "      ")
        }
        return out
    }

    /// A finding in a few lines: severity, code and location at `indent`, then its message and hint
    /// at `bodyIndent` (`check`'s findings, and each case of `verify-app`, which sits deeper).
    static func findingLines(_ findings: [Finding], indent: String, bodyIndent: String) -> TerminalText {
        var out: TerminalText = ""
        for finding in findings {
            out += "\(indent)\(finding.severity.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)) \(finding.code)"
            if let location = finding.location, !location.pointer.isEmpty { out += " at \(location)" }
            out += "\n\(bodyIndent)\(finding.message)\n"
            if let hint = finding.hint { out += "\(bodyIndent)→ \(hint)\n" }
        }
        return out
    }

    static func describe(_ facts: TransportFacts, repeatOfWellKnown: Bool, label given: String? = nil) -> TerminalText {
        var label = given ?? facts.location.rawValue
        if repeatOfWellKnown { label += " (browser user agent)" }
        var out: TerminalText = "  \(label): \(facts.url)\n"
        for hop in facts.followedRedirects ?? [] {
            out += "    followed: \(hop.url) answered HTTP \(hop.status) → \(hop.location)\n"
        }
        if let failure = facts.failure {
            out += "    failed: \(failure.kind.rawValue): \(failure.message)\n"
        }
        if let status = facts.status {
            var line: TerminalText = "    HTTP \(status)"
            if let target = facts.redirectTarget { line += " → \(target)" }
            if let ip = facts.ipAddress { line += " from \(ip)" }
            out += line + "\n"
        }
        if let t = facts.timings {
            out += "    \(String(format: "time: dns %.0f ms, connect %.0f ms, tls %.0f ms, first byte %.0f ms, total %.0f ms", t.dns * 1000, t.connect * 1000, t.tls * 1000, t.firstByte * 1000, t.total * 1000))\n"
        }
        for name in ["content-type", "content-length", "content-encoding", "cache-control", "etag", "last-modified", "age",
                     "apple-from", "apple-failure-reason", "apple-failure-details", "apple-try-direct", "apple-origin-format"] {
            if let value = facts.header(name) { out += "    \(name): \(value)\n" }
        }
        if facts.status != nil {
            var size: TerminalText = "    body: \(facts.decodedSize) bytes"
            if let wire = facts.wireSize, wire != facts.decodedSize { size += " decoded (\(wire) on the wire)" }
            if facts.bodyTruncated { size += ", kept the first \(facts.body.count)" }
            out += size + "\n"
        }
        if let tls = facts.tls {
            out += "    tls: \(tls.trusted ? "trusted" : "NOT trusted")"
            if let reason = tls.failureReason, !tls.trusted { out += " (\(reason))" }
            out += "\n"
            if let subject = tls.subject { out += "      subject: \(subject)\n" }
            if !tls.subjectAltNames.isEmpty { out += "      names: \(tls.subjectAltNames.joined(separator: ", "))\n" }
            if let issuer = tls.issuer { out += "      issuer: \(issuer)\n" }
            if let notAfter = tls.notAfter { out += "      not after: \(ISO8601DateFormatter().string(from: notAfter))\n" }
        }
        return out
    }

    // MARK: - JSON

    struct Report: Encodable {
        var host: String
        var displayName: String
        var verdict: String
        var couldNotCheck: Bool
        var exitStatus: Int32
        var deviceLocation: String?
        var findings: [Finding]
        var facts: [Facts]
        var startedAt: Date
        var finishedAt: Date
    }

    /// Transport facts as people and scripts read them: the body as text (or base64 when it is not
    /// UTF-8), not as a byte array.
    struct Facts: Encodable {
        var facts: TransportFacts

        init(_ facts: TransportFacts) { self.facts = facts }

        func encode(to encoder: any Encoder) throws {
            try facts.encode(to: encoder, body: .text)
        }
    }

    static func report(_ check: AppleCheck) -> Report {
        Report(
            host: check.host.ascii, displayName: check.host.unicode, verdict: check.report.verdict.rawValue,
            couldNotCheck: check.report.couldNotCheck, exitStatus: check.report.exitStatus,
            deviceLocation: check.report.deviceLocation?.rawValue, findings: check.report.findings,
            facts: [check.wellKnown, check.root, check.cdn, check.plainUserAgent].compactMap { $0 }.map(Facts.init),
            startedAt: check.startedAt, finishedAt: check.finishedAt)
    }

    /// Apple's report keeps its top-level keys (pipelines read them); Android's is under `android`, and
    /// `exit_status` is the command's, the worse of the two.
    /// `check --passkeys` puts its report under `web`, beside `host` and `exit_status`.
    static func json(apple: AppleCheck?, android: AndroidCheck?, web: WebAuthnCheck? = nil) throws -> String {
        let encoder = PublicJSON.encoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var object: [String: Any] = [:]
        if let apple {
            object = try JSONSerialization.jsonObject(with: try encoder.encode(report(apple))) as? [String: Any] ?? [:]
        }
        if let android {
            object["android"] = try JSONSerialization.jsonObject(with: try encoder.encode(AndroidCheckOutput.report(android)))
            if apple == nil {
                object["host"] = android.host.ascii
                object["display_name"] = android.host.unicode
            }
        }
        if let web {
            object["web"] = try JSONSerialization.jsonObject(with: try encoder.encode(WebAuthnCheckOutput.report(web)))
            if apple == nil, android == nil {
                object["host"] = web.rpID.domain
                object["display_name"] = (try? HostName(web.rpID.domain))?.unicode ?? web.rpID.domain
            }
        }
        object["exit_status"] = CheckExitStatus.worst([apple?.report.exitStatus, android?.report.exitStatus, web?.evaluation.exitStatus]
            .compactMap { $0 })
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
