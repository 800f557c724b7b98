import Vocabulary
import AASA
import Foundation
@testable import Monitor

/// A passing check at a fixed time, to be bent by each test into the case it exercises.
func passingCheck(at time: TimeInterval = 1_700_000_000, sha: String? = "aaaa") -> CheckSummary {
    CheckSummary(checkedAt: Date(timeIntervalSince1970: time), reachable: true,
                 certificate: CertificateSummary(trusted: true, notAfter: Date(timeIntervalSince1970: time + 90 * 86_400)),
                 apple: passingApple(at: time, sha: sha))
}

/// Apple's side of `passingCheck`, for the rules that judge only it.
func passingApple(at time: TimeInterval = 1_700_000_000, sha: String? = "aaaa") -> AppleResult {
    AppleResult(verdict: .pass, originReachable: true, versionSHA256: sha, versionSince: Date(timeIntervalSince1970: time),
                documentParsed: true, findings: [], applinksDetailCount: 1, expectations: ExpectationResults(),
                cdn: CDNSummary(served: true))
}

func unreachableCheck(at time: TimeInterval = 1_700_000_000) -> CheckSummary {
    CheckSummary(checkedAt: Date(timeIntervalSince1970: time), reachable: false, apple: unreachableApple())
}

func unreachableApple() -> AppleResult {
    AppleResult(verdict: .fail, originReachable: false,
                findings: [Finding(code: "fetch-failed", severity: .error, message: "connection refused")])
}

func finding(_ code: String, _ severity: Severity = .error, at pointer: String? = nil) -> Finding {
    Finding(code: code, severity: severity, location: pointer.map { SourceLocation(pointer: $0) }, message: code)
}
