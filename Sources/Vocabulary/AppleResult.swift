import Foundation

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

    public init(served: Bool, failureReason: String? = nil, matchesOrigin: Bool = true, versionSHA256: String? = nil) {
        self.served = served
        self.failureReason = failureReason
        self.matchesOrigin = matchesOrigin
        self.versionSHA256 = versionSHA256
    }
}

/// Apple's side of one check as stored (`checks.summary`'s `apple`) and remembered as the previous
/// check: the AASA as a device and Apple's CDN see it, measured against the domain's Apple
/// expectations. Written by the pipeline from the AASA core's report (`AppleResult+Check`), read by
/// the alert rules, the pages and the API; Android's side is `AndroidResult`, beside it. Absent from
/// the `CheckSummary` of a domain not watched for Apple.
///
/// Coded by the synthesized `Codable`, as `AndroidResult` is: a new non-optional field needs a migration of its own.
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

    public init(verdict: Verdict, originReachable: Bool, versionSHA256: String? = nil, versionSince: Date? = nil,
                documentParsed: Bool = false, findings: [Finding] = [], applinksDetailCount: Int? = nil,
                expectations: ExpectationResults = ExpectationResults(), cdn: CDNSummary? = nil, wellKnownAnswer: String? = nil,
                wellKnownETag: String? = nil) {
        self.verdict = verdict
        self.originReachable = originReachable
        self.versionSHA256 = versionSHA256
        self.versionSince = versionSince
        self.documentParsed = documentParsed
        self.findings = findings
        self.applinksDetailCount = applinksDetailCount
        self.expectations = expectations
        self.cdn = cdn
        self.wellKnownAnswer = wellKnownAnswer
        self.wellKnownETag = wellKnownETag
    }

    /// Findings about the origin: everything except the CDN's, which belong to a lower alert tier.
    public var originFindings: [Finding] { findings.filter { !$0.code.hasPrefix("cdn-") } }
}
