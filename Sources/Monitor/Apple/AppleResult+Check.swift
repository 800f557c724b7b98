import AASA
import Fetch
import Store
import Foundation
import Vocabulary

extension AppleResult {
    /// Apple's side of a fetched check measured against the domain's expectations.
    public init(check: AppleCheck, expectations: Expectations) {
        let report = check.report
        let results = ExpectationEvaluation.evaluate(expectations, document: report.document)
        self.init(wellKnown: check.wellKnown, root: check.root, cdn: check.cdn,
                  deviceLocation: report.deviceLocation, document: report.document, findings: report.findings,
                  verdict: report.verdict, expectations: results,
                  sha256: SHA256.hex)
    }

    /// Carries `versionSince` over from the previous check when the origin still serves the same file.
    public func continuing(from previous: AppleResult?, at checkedAt: Date) -> AppleResult {
        var copy = self
        copy.versionSince = CheckSummary.versionSince(of: versionSHA256, previous: previous.map { ($0.versionSHA256, $0.versionSince) },
                                                      checkedAt: checkedAt)
        return copy
    }
}

extension CertificateSummary {
    /// The certificate of the Apple location a device uses, else of whichever origin location did TLS.
    init?(apple check: AppleCheck) {
        let device = AppleResult.deviceFacts(wellKnown: check.wellKnown, root: check.root, deviceLocation: check.report.deviceLocation)
        self.init(facts: device ?? (check.wellKnown.tls != nil ? check.wellKnown : check.root))
    }
}
