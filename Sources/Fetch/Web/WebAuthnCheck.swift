import Foundation
import Vocabulary
import WebAuthn

/// Everything one live check of an RP ID's web files saw, and what the WebAuthn core makes of it: the
/// typed result of `Fetcher.checkPasskeys` (passkeys-spec.md §2, §6.1, §6.2).
public struct WebAuthnCheck: Sendable {
    public var rpID: RelyingPartyID
    public var startedAt: Date
    public var finishedAt: Date
    /// `https://RP-ID/.well-known/webauthn` as a browser fetches it: https redirects followed (each hop
    /// in `followedRedirects`, an http one recorded and not fetched), no credentials, 10 s.
    public var webauthn: TransportFacts
    /// `/.well-known/passkey-endpoints`, never followed; nil when the name did not resolve.
    public var passkeyEndpoints: TransportFacts?
    /// `/.well-known/change-password`, never followed (its redirect is the answer); nil as above.
    public var changePassword: TransportFacts?
    /// A well-known path that cannot exist: a 2xx there means a catch-all route answers every path.
    public var probe: TransportFacts?
    public var evaluation: WebAuthnEvaluation

    /// The URL of one of the RP ID's well-known files.
    public static func url(_ rpID: RelyingPartyID, path: String) -> String { "https://\(rpID.domain)\(path)" }
}

/// What the core says of the exchanges: the related-origins report when a file was read, the
/// passkey-endpoints links, and every finding in one list (webauthn first, then the optional files).
public struct WebAuthnEvaluation: Sendable {
    /// nil when no 200 answer carried the file.
    public var relatedOrigins: RelatedOriginsReport?
    /// nil when passkey-endpoints was not served (or not asked).
    public var passkeyEndpoints: PasskeyEndpointsReading?
    public var findings: [Finding]
    /// No HTTP answer for the webauthn file (DNS, refused address, timeout, reset): nothing was judged.
    public var couldNotCheck: Bool

    /// Exit statuses come from `CheckConclusion` (Monitor), as for the other platforms' reports.
    public var verdict: Verdict { Verdict(findings: findings) }
}

extension WebAuthnEvaluation {
    /// Judges the exchanges of one check. Pure: the same facts give the same evaluation.
    /// - Parameter needed: a web origin needs the related-origins file (`check` knows of none, so false:
    ///   a missing file is then a fact, not an error).
    public static func evaluate(rpID: RelyingPartyID, webauthn: TransportFacts, passkeyEndpoints: TransportFacts?,
                                changePassword: TransportFacts?, probe: TransportFacts?, rules: DomainRules,
                                needed: Bool = false) -> WebAuthnEvaluation {
        var findings = transportFailure(webauthn)
        findings += RelatedOriginsTransport.findings(webauthn, needed: needed)
        var report: RelatedOriginsReport?
        if webauthn.failure == nil, webauthn.status == 200, !hasInsecureHop(webauthn) {
            let validated = RelatedOriginsValidator.validate(webauthn.body, rules: rules, rpID: rpID)
            findings += validated.findings
            report = validated
        }
        let probeStatus = probe?.failure == nil ? probe?.status : nil
        var endpoints: PasskeyEndpointsReading?
        if let facts = passkeyEndpoints, facts.failure == nil {
            findings += OptionalFilesTransport.passkeyEndpoints(facts, probeStatus: probeStatus)
            if facts.status == 200 {
                let reading = PasskeyEndpointsReader.read(facts.body, rpID: rpID, rules: rules)
                findings += reading.findings
                endpoints = reading
            }
        }
        if let facts = changePassword, facts.failure == nil {
            findings += OptionalFilesTransport.changePassword(status: facts.status, location: facts.redirectTarget ?? facts.header("location"),
                                                              probeStatus: probeStatus)
        }
        let couldNotCheck = webauthn.failure.map { !Self.judgesServer($0.kind) } ?? false
        return WebAuthnEvaluation(relatedOrigins: report, passkeyEndpoints: endpoints, findings: findings, couldNotCheck: couldNotCheck)
    }

    /// A failure that says something about the server (its certificate, its size) is an error; one that
    /// says nothing (DNS, a refused address, a timeout) leaves the check undecided.
    static func judgesServer(_ kind: FetchFailure.Kind) -> Bool {
        switch kind {
        case .tlsUntrusted, .tlsExpired, .tlsWrongHost, .tooLarge, .notHTTPS: true
        case .dns, .refused, .timeout, .reset, .addressRefused, .other: false
        }
    }

    /// The shared transport codes for a webauthn fetch that got no HTTP answer (the core adds none).
    static func transportFailure(_ facts: TransportFacts) -> [Finding] {
        guard let failure = facts.failure else { return [] }
        if failure.kind.isTLS {
            return [WebTransportFinding.tlsUntrusted.finding(at: nil,
                "\(facts.url): \(failure.message); browsers refuse the file.", hint: "Serve a certificate every browser trusts for the RP ID.")]
        }
        if failure.kind == .tooLarge {
            return [WebAuthnFinding.tooLarge.finding(at: nil,
                "\(facts.url) is larger than the monitor reads; Chromium reads at most \(RelatedOriginsReader.sizeLimit) bytes and otherwise fails the fetch.",
                hint: "Trim the file: list only the origins that use this RP ID.")]
        }
        return [WebTransportFinding.fetchFailed.finding(at: nil, "\(facts.url): \(failure.kind.rawValue): \(failure.message)",
                                                       hint: judgesServer(failure.kind) ? nil : "The check could not be made; try again.")]
    }

    static func hasInsecureHop(_ facts: TransportFacts) -> Bool {
        (facts.followedRedirects ?? []).contains { !$0.location.lowercased().hasPrefix("https:") }
    }
}

/// The shared transport codes (`tls-untrusted`, `fetch-failed`) as the web check reports them.
public enum WebTransportFinding {
    static let browsers = "Browsers with Related Origin Requests: Chrome/Edge 128+, Safari 18+ (iOS 18, macOS 15)"
    public static let tlsUntrusted = FindingDefinition("tls-untrusted", .error, affects: browsers,
        condition: "the certificate is not trusted (expired, wrong host, self-signed, missing intermediate)", source: "W-ROR, W-HIST",
        producer: "web-check")
    public static let fetchFailed = FindingDefinition("fetch-failed", .error, affects: browsers,
        condition: "no HTTP response arrived (DNS, refused connection, timeout, reset, refused address)", source: "ours",
        producer: "web-check")
}
