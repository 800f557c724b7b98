import Foundation

/// When a domain's secondary requests were last made (`domains.cdn_asked_at`, `google_asked_at`,
/// `compared_at`, `certificate_read_at`, `full_fetch_at`): read with the lease, written with the check's result. In a check's record a nil
/// field means "not asked this time", and the stored time stays.
public struct LastAsked: Sendable, Hashable {
    /// Apple's CDN copy of the AASA.
    public var appleCDN: Date?
    /// Google's Digital Asset Links API.
    public var googleAPI: Date?
    /// The comparisons: the files fetched with other user agents, and Apple's root location.
    public var comparisons: Date?
    /// The certificate, read on a full TLS handshake (`domains.certificate_read_at`).
    public var certificate: Date?
    /// The platforms' own files fetched without a conditional header (`domains.full_fetch_at`).
    public var fullFetch: Date?

    public init(appleCDN: Date? = nil, googleAPI: Date? = nil, comparisons: Date? = nil, certificate: Date? = nil,
                fullFetch: Date? = nil) {
        self.appleCDN = appleCDN
        self.googleAPI = googleAPI
        self.comparisons = comparisons
        self.certificate = certificate
        self.fullFetch = fullFetch
    }
}
