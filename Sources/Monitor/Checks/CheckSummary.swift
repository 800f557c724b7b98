import Vocabulary
import AASA
import Foundation

/// The certificate facts the alert rules need from the location a device uses.
public struct CertificateSummary: Hashable, Sendable, Codable {
    public var trusted: Bool
    public var notAfter: Date?
    public var failureReason: String?
}

/// Everything the comparison and the alert rules need to know about one check, small enough to be
/// remembered as the "previous check" of the next one: one result per platform the domain is watched
/// for, and what belongs to the host. Built by the pipeline from the platforms' check reports.
///
/// Stored as `checks.summary` by the synthesized `Codable` (migration 0035 moved the Apple fields of
/// summaries stored before the platforms were apart into `apple`).
public struct CheckSummary: Hashable, Sendable, Codable {
    public var checkedAt: Date
    /// An HTTP response (any status) arrived from the host for a watched platform's own fetch: the
    /// scheduler backs off a host that gives none.
    public var reachable: Bool
    /// The host's certificate as the fetch a device uses saw it: Apple's location when Apple is
    /// watched, else Android's. Its rules (expiry, trust) belong to the host, not to one platform.
    public var certificate: CertificateSummary?
    /// Apple's side; nil when the domain is not watched for Apple (platform setting `android`).
    public var apple: AppleResult?
    /// Android's side of the same check; nil when Android was not checked.
    public var android: AndroidResult?
    /// A digest of the expectations (Apple's and Android's) this summary was measured against. A 304
    /// keeps a platform's result, so a conditional fetch is made only while the expectations are still these.
    public var expectationsKey: String?

    /// The check's own verdict (`checks.verdict`): Apple's file when Apple is watched (Android's counts
    /// in the domain's state, `DomainVerdict`), else Android's file.
    public var verdict: Verdict { apple?.verdict ?? android?.verdict ?? .pass }

    /// Carries `versionSince` over from the previous check when a platform's origin still serves the same file.
    public func continuing(from previous: CheckSummary?) -> CheckSummary {
        var copy = self
        // A transfer on a reused (kept-alive) connection reports no certificate; the server's
        // certificate has not changed within that connection, so the last one seen still holds.
        if copy.certificate == nil, reachable, let previous, previous.reachable {
            copy.certificate = previous.certificate
        }
        copy.apple = apple?.continuing(from: previous?.apple, at: checkedAt)
        copy.android = android?.continuing(from: previous?.android, at: checkedAt)
        return copy
    }

    /// Since when the served file (by its digest) has been served: the previous check's date while the
    /// digest is the same, this check's when it changed, nil when no file is served. One rule for
    /// both platforms' files.
    static func versionSince(of sha: String?, previous: (sha: String?, since: Date?)?, checkedAt: Date) -> Date? {
        guard let sha else { return nil }
        if let previous, previous.sha == sha, let since = previous.since { return since }
        return checkedAt
    }
}
