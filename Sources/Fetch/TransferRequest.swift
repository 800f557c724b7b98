import Outbound
import Vocabulary

/// One HTTP GET the transfer loop should perform, with everything the policy already decided.
struct TransferRequest: Sendable {
    var location: TransportFacts.Location
    var url: String
    /// The URL's host (ASCII) and port, which curl uses for SNI, the certificate check and `Host`.
    var host: String
    var port: Int
    var userAgent: String
    /// Where the connection goes instead, when a connect-to rule applies.
    var connectTarget: (host: String, port: Int)?
    /// The addresses the policy judged; the connection may go to these and nowhere else.
    var pinnedAddresses: [IPAddress]
    var dnsSeconds: Double
    /// Collect the certificate chain (CURLOPT_CERTINFO); off for repeat fetches that only compare answers.
    var wantCertificate: Bool
    /// Off only for the second probe after a verification failure, which records certificate facts
    /// and nothing else.
    var verifyPeer: Bool = true
    /// A full TLS handshake: a new connection (CURLOPT_FRESH_CONNECT) that resumes no session
    /// (CURLOPT_SSL_SESSIONID_CACHE off), so the server sends, and curl verifies, its certificate as it
    /// is now. Otherwise a kept connection or a resumed session reports the certificate of the
    /// handshake that opened it (see `PlatformPlan.certificateDue`).
    var freshConnection: Bool = false
    /// Sent as If-None-Match: the stored file's strong ETag, when the plan allows a conditional fetch.
    var ifNoneMatch: String?
    /// A client's own limit on the whole transfer (a browser's 10 s for /.well-known/webauthn), when it
    /// is shorter than the fetcher's; nil: the fetcher's.
    var totalTimeoutMilliseconds: Int?

    /// The per-address concurrency key.
    var addressKey: String { pinnedAddresses.first?.description ?? host }
    /// The origin whose connection this request can share (the loop's `OriginGate`).
    var originKey: String { "\(host):\(port)" }
}
