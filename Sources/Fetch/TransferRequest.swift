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
    /// Open a new connection rather than reuse a cached one (CURLOPT_FRESH_CONNECT): curl reports the
    /// certificate only during a handshake, and a long-lived fetcher keeps connections between checks.
    var freshConnection: Bool = false

    /// The per-address concurrency key.
    var addressKey: String { pinnedAddresses.first?.description ?? host }
}
