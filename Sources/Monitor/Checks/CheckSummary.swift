import Vocabulary
import AASA
import Foundation

/// The certificate facts the alert rules need from the location a device uses.
public struct CertificateSummary: Hashable, Sendable, Codable {
    public var trusted: Bool
    public var notAfter: Date?
    public var failureReason: String?

    public init(trusted: Bool, notAfter: Date? = nil, failureReason: String? = nil) {
        self.trusted = trusted
        self.notAfter = notAfter
        self.failureReason = failureReason
    }
}

/// What Apple's CDN (app-site-association.cdn-apple.com) answered for the domain.
public struct CDNSummary: Hashable, Sendable, Codable {
    /// True when the CDN answered 200 with a body and no `Apple-Failure-Reason`.
    public var served: Bool
    /// The `Apple-Failure-Reason` header, or the transport failure, when it did not.
    public var failureReason: String?
    /// The CDN's file behaves like the origin's. Compared by behaviour, not bytes: the CDN may
    /// re-encode the JSON, and a byte difference alone would look like lag forever.
    public var matchesOrigin: Bool
    /// sha256 (hex) of the file the CDN served, nil when it served none. A new CDN file makes the
    /// check a change (kept with its `cdn_version_id`), even when it behaves like the last one.
    public var versionSHA256: String?

    public init(served: Bool, failureReason: String? = nil, matchesOrigin: Bool = true, versionSHA256: String? = nil) {
        self.served = served
        self.failureReason = failureReason
        self.matchesOrigin = matchesOrigin
        self.versionSHA256 = versionSHA256
    }
}

/// Everything the comparison and the alert rules need to know about one check, small enough to be
/// remembered as the "previous check" of the next one. Built by the pipeline from the check report.
public struct CheckSummary: Hashable, Sendable, Codable {
    public var checkedAt: Date
    public var verdict: Verdict
    /// An HTTP response arrived from the location a device would use (any status).
    public var originReachable: Bool
    /// sha256 (hex) of the file the origin served, nil when it served none.
    public var versionSHA256: String?
    /// Since when the origin has served this version without interruption (for the CDN grace period).
    public var versionSince: Date?
    /// The origin served a file the parser could turn into a document (expectations were measured).
    public var documentParsed: Bool
    public var findings: [Finding]
    /// `applinks.details` entry count; nil when the file has no `applinks`.
    public var applinksDetailCount: Int?
    public var expectations: ExpectationResults
    public var certificate: CertificateSummary?
    public var cdn: CDNSummary?
    /// Android's side of the same check; nil when Android was not checked.
    public var android: AndroidResult?
    /// What `.well-known` answered Apple's fetcher (status, or failure kind; the file's digest with a
    /// 200), so the next check can tell whether it moved; nil in summaries stored before it was kept.
    public var wellKnownAnswer: String?
    /// The strong ETag `.well-known` sent with a clean 200, for the next check's conditional fetch
    /// (`SecondaryCadence.validator`); nil otherwise.
    public var wellKnownETag: String?
    /// A digest of the expectations (Apple's and Android's) this summary was measured against. A 304
    /// keeps the summary, so a conditional fetch is made only while the expectations are still these.
    public var expectationsKey: String?

    public init(checkedAt: Date, verdict: Verdict, originReachable: Bool, versionSHA256: String? = nil,
                versionSince: Date? = nil, documentParsed: Bool = false, findings: [Finding] = [], applinksDetailCount: Int? = nil,
                expectations: ExpectationResults = ExpectationResults(), certificate: CertificateSummary? = nil,
                cdn: CDNSummary? = nil) {
        self.checkedAt = checkedAt
        self.verdict = verdict
        self.originReachable = originReachable
        self.versionSHA256 = versionSHA256
        self.versionSince = versionSince
        self.documentParsed = documentParsed
        self.findings = findings
        self.applinksDetailCount = applinksDetailCount
        self.expectations = expectations
        self.certificate = certificate
        self.cdn = cdn
    }

    /// Findings about the origin: everything except the CDN's, which belong to a lower alert tier.
    public var originFindings: [Finding] { findings.filter { !$0.code.hasPrefix("cdn-") } }

    /// Carries `versionSince` over from the previous check when the origin still serves the same file.
    public func continuing(from previous: CheckSummary?) -> CheckSummary {
        var copy = self
        // A transfer on a reused (kept-alive) connection reports no certificate; the server's
        // certificate has not changed within that connection, so the last one seen still holds.
        if copy.certificate == nil, originReachable, let previous, previous.originReachable {
            copy.certificate = previous.certificate
        }
        copy.android = android?.continuing(from: previous?.android, at: checkedAt)
        copy.versionSince = Self.versionSince(of: versionSHA256, previous: previous.map { ($0.versionSHA256, $0.versionSince) },
                                              checkedAt: checkedAt)
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
