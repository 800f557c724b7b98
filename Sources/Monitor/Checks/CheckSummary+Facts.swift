import Vocabulary
import AASA
import Foundation

extension CheckSummary {
    /// The summary of an Apple-only check (no Android side) from the fetched facts and the evaluation's results.
    ///
    /// - Parameters:
    ///   - deviceLocation: the location a device would use (the evaluation's answer), nil when none serves.
    ///   - sha256: the hex digest function (libsodium in production), injected to keep this pure.
    public init(checkedAt: Date, wellKnown: TransportFacts, root: TransportFacts?, cdn: TransportFacts?,
                deviceLocation: TransportFacts.Location?, document: AASADocument?, findings: [Finding],
                verdict: Verdict, expectations: ExpectationResults, sha256: ([UInt8]) -> String) {
        let apple = AppleResult(wellKnown: wellKnown, root: root, cdn: cdn, deviceLocation: deviceLocation, document: document,
                                findings: findings, verdict: verdict, expectations: expectations, sha256: sha256)
        let device = AppleResult.deviceFacts(wellKnown: wellKnown, root: root, deviceLocation: deviceLocation)
        self.init(checkedAt: checkedAt, reachable: apple.originReachable,
                  certificate: CertificateSummary(facts: device ?? (wellKnown.tls != nil ? wellKnown : root)), apple: apple)
    }
}

extension AppleResult {
    /// Apple's side of one check from the fetched facts and the evaluation's results.
    public init(wellKnown: TransportFacts, root: TransportFacts?, cdn: TransportFacts?,
                deviceLocation: TransportFacts.Location?, document: AASADocument?, findings: [Finding],
                verdict: Verdict, expectations: ExpectationResults, sha256: ([UInt8]) -> String) {
        let device = Self.deviceFacts(wellKnown: wellKnown, root: root, deviceLocation: deviceLocation)
        self.init(
            verdict: verdict,
            originReachable: wellKnown.status != nil || root?.status != nil,
            versionSHA256: device.map { sha256($0.body) },
            versionSince: nil,
            documentParsed: document != nil,
            findings: findings,
            applinksDetailCount: document?.applinks.map(\.details.count),
            expectations: expectations,
            cdn: cdn.map { CDNSummary(facts: $0, findings: findings, sha256: sha256) })
    }

    static func deviceFacts(wellKnown: TransportFacts, root: TransportFacts?, deviceLocation: TransportFacts.Location?) -> TransportFacts? {
        switch deviceLocation {
        case .wellKnown: wellKnown
        case .root: root
        case .cdn, nil: nil
        }
    }
}

extension CertificateSummary {
    /// The certificate facts of one transfer; nil when it did no TLS handshake (no answer, or a reused connection).
    init?(facts: TransportFacts?) {
        guard let tls = facts?.tls else { return nil }
        self.init(trusted: tls.trusted, notAfter: tls.notAfter, failureReason: tls.failureReason)
    }
}

extension CDNSummary {
    /// What Apple's CDN answered: served when 200 without `Apple-Failure-Reason`; matching unless the
    /// evaluation found it stale (`cdn-stale`), which compares behaviour rather than bytes.
    init(facts: TransportFacts, findings: [Finding], sha256: ([UInt8]) -> String) {
        let reason = facts.header("apple-failure-reason")
        let served = facts.failure == nil && facts.status == 200 && reason == nil
        var failure: String?
        if !served {
            failure = reason ?? facts.failure.map { "\($0.kind.rawValue): \($0.message)" }
                ?? facts.status.map { "HTTP \($0)" } ?? "no answer"
        }
        self.init(served: served, failureReason: failure,
                  matchesOrigin: !findings.contains { $0.code == "cdn-stale" },
                  versionSHA256: served && !facts.body.isEmpty && !facts.bodyTruncated ? sha256(facts.body) : nil)
    }
}

