import Vocabulary
import AASA
import Foundation

/// The certificate facts the alert rules need from the location a device uses.
public struct CertificateSummary: Hashable, Sendable, Codable {
    public var trusted: Bool
    public var notAfter: Date?
    public var failureReason: String?
}

/// What Apple's CDN (app-site-association.cdn-apple.com) answered for the domain.
public struct CDNSummary: Hashable, Sendable, Codable {
    /// True when the CDN answered 200 with a body and no `Apple-Failure-Reason`.
    public var served: Bool
    /// The `Apple-Failure-Reason` header, or the transport failure, when it did not.
    public var failureReason: String?
    /// The CDN's file behaves like the origin's. Compared by behaviour, not bytes: the CDN may
    /// re-encode the JSON, and a byte difference alone would look like lag forever.
    public var matchesOrigin: Bool = true
    /// sha256 (hex) of the file the CDN served, nil when it served none. A new CDN file makes the
    /// check a change (kept with its `cdn_version_id`), even when it behaves like the last one.
    public var versionSHA256: String?
}

/// Apple's side of one check: the AASA as a device and Apple's CDN see it, measured against the
/// domain's Apple expectations. Absent from the `CheckSummary` of a domain not watched for Apple.
public struct AppleResult: Hashable, Sendable, Codable {
    /// The file's verdict (its findings and transport; unmet expectations count in `DomainVerdict`).
    public var verdict: Verdict
    /// An HTTP response arrived from the location a device would use (any status).
    public var originReachable: Bool
    /// sha256 (hex) of the file the origin served, nil when it served none.
    public var versionSHA256: String?
    /// Since when the origin has served this version without interruption (for the CDN grace period).
    public var versionSince: Date?
    /// The origin served a file the parser could turn into a document (expectations were measured).
    public var documentParsed: Bool = false
    public var findings: [Finding] = []
    /// `applinks.details` entry count; nil when the file has no `applinks`.
    public var applinksDetailCount: Int?
    public var expectations: ExpectationResults = ExpectationResults()
    public var cdn: CDNSummary?
    /// What `.well-known` answered Apple's fetcher (status, or failure kind; the file's digest with a
    /// 200), so the next check can tell whether it moved; nil in summaries stored before it was kept.
    public var wellKnownAnswer: String?
    /// The strong ETag `.well-known` sent with a clean 200, for the next check's conditional fetch
    /// (`Validator.etag`); nil otherwise.
    public var wellKnownETag: String?

    /// Findings about the origin: everything except the CDN's, which belong to a lower alert tier.
    public var originFindings: [Finding] { findings.filter { !$0.code.hasPrefix("cdn-") } }

    /// Carries `versionSince` over from the previous check when the origin still serves the same file.
    public func continuing(from previous: AppleResult?, at checkedAt: Date) -> AppleResult {
        var copy = self
        copy.versionSince = CheckSummary.versionSince(of: versionSHA256, previous: previous.map { ($0.versionSHA256, $0.versionSince) },
                                                      checkedAt: checkedAt)
        return copy
    }
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
