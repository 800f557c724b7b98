import Vocabulary
import AASA
import Foundation

extension CheckSummary {
    /// Builds the summary of one check from the fetched facts and the evaluation's results.
    ///
    /// - Parameters:
    ///   - deviceLocation: the location a device would use (the evaluation's answer), nil when none serves.
    ///   - sha256: the hex digest function (libsodium in production), injected to keep this pure.
    public init(checkedAt: Date, wellKnown: TransportFacts, root: TransportFacts?, cdn: TransportFacts?,
                deviceLocation: TransportFacts.Location?, document: AASADocument?, findings: [Finding],
                verdict: Verdict, expectations: ExpectationResults, sha256: ([UInt8]) -> String) {
        let device: TransportFacts? = switch deviceLocation {
        case .wellKnown: wellKnown
        case .root: root
        case .cdn, nil: nil
        }
        let reachable = wellKnown.status != nil || root?.status != nil
        let certificateSource = device ?? (wellKnown.tls != nil ? wellKnown : root)
        self.init(
            checkedAt: checkedAt,
            verdict: verdict,
            originReachable: reachable,
            versionSHA256: device.map { sha256($0.body) },
            versionSince: nil,
            documentParsed: document != nil,
            findings: findings,
            applinksDetailCount: document?.applinks.map(\.details.count),
            expectations: expectations,
            certificate: certificateSource.flatMap(CheckSummary.certificate(of:)),
            cdn: cdn.map { CDNSummary(facts: $0, findings: findings, sha256: sha256) })
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

extension CheckSummary {
    /// The certificate facts the alert rules keep, from one exchange (nil when it reports none).
    static func certificate(of facts: TransportFacts) -> CertificateSummary? {
        facts.tls.map { CertificateSummary(trusted: $0.trusted, notAfter: $0.notAfter, failureReason: $0.failureReason) }
    }
}
