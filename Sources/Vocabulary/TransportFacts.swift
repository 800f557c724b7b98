import Foundation

/// What one HTTP exchange for an association file looked like, whichever platform's file it was. The
/// fetcher (module `Fetch`) fills these in; the validators turn them into transport findings; a check
/// stores them without the body (`CheckTransport`). No I/O happens here.
public struct TransportFacts: Hashable, Sendable, Codable {
    /// Which URL was asked: the `.well-known` location, the legacy root location, or Apple's CDN.
    public enum Location: String, Hashable, Sendable, Codable {
        case wellKnown = "well-known"
        case root
        case cdn
    }

    public var location: Location
    public var url: String
    /// Nil when no HTTP response arrived (DNS failure, refused, TLS failure, timeout…).
    public var status: Int?
    /// Response headers that matter, names lower-cased (`content-type`, `location`, `apple-failure-reason`…).
    public var headers: [String: String]
    /// The body as received (decoded when compressed), capped by the fetcher's limit.
    public var body: [UInt8]
    /// Size of the decoded body; may exceed `body.count` when the cap cut it.
    public var decodedSize: Int
    /// True when the fetcher stopped reading at its cap.
    public var bodyTruncated: Bool
    public var tls: TLSFacts?
    public var failure: FetchFailure?
    /// Where a 3xx pointed. Reported, not followed, on the route through Apple's CDN; on a device's
    /// direct route (an entitlement's `?mode=`) an https redirect is followed (`followedRedirects`).
    public var redirectTarget: String?
    /// The redirects followed to reach this answer, first one first, when the fetch took the device's
    /// direct route: `url` is then where they led. Nil (or empty) for a fetch that followed none.
    public var followedRedirects: [FollowedRedirect]?
    /// The address the connection went to (the one the outbound policy checked and pinned).
    public var ipAddress: String?
    /// How long each phase took; nil when nothing was attempted (e.g. the address was refused).
    public var timings: TransportTimings?
    /// The User-Agent the request was sent with.
    public var userAgent: String?
    /// Bytes received on the wire (compressed size when `content-encoding` was used).
    public var wireSize: Int?
    /// The validator this request sent as If-None-Match (a conditional fetch of a file already
    /// stored); nil for an unconditional request, and in facts stored before it was kept.
    public var ifNoneMatch: String?

    /// 304 Not Modified to our own conditional request: the stored file is current. Not what Apple's or
    /// Google's fetcher would be told (they never ask conditionally), so never judged as the origin's
    /// answer; a 304 to an unconditional request is (it serves no file).
    public var notModified: Bool { ifNoneMatch != nil && failure == nil && status == 304 }

    public init(location: Location, url: String, status: Int? = nil, headers: [String: String] = [:],
                body: [UInt8] = [], decodedSize: Int? = nil, bodyTruncated: Bool = false,
                tls: TLSFacts? = nil, failure: FetchFailure? = nil) {
        self.location = location
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.decodedSize = decodedSize ?? body.count
        self.bodyTruncated = bodyTruncated
        self.tls = tls
        self.failure = failure
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

extension TransportFacts {
    /// How the body is written. Stored facts keep the bytes (`checks.transport` keeps none: the file
    /// lives in the versions table); what people and scripts read (`check --json`) gets the body as
    /// text under `body`, or as base64 under `bodyBase64` when it is not UTF-8.
    public enum BodyCoding: Sendable {
        case bytes
        case text
    }

    private enum TextBodyKeys: String, CodingKey {
        case bodyBase64
    }

    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, body: .bytes)
    }

    /// Written by hand only for the body's two forms; decoding stays synthesized, and
    /// `TransportFactsCodingTests` holds the stored form to what the synthesized one wrote.
    public func encode(to encoder: any Encoder, body coding: BodyCoding) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(location, forKey: .location)
        try container.encode(url, forKey: .url)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encode(headers, forKey: .headers)
        try container.encode(decodedSize, forKey: .decodedSize)
        try container.encode(bodyTruncated, forKey: .bodyTruncated)
        try container.encodeIfPresent(tls, forKey: .tls)
        try container.encodeIfPresent(failure, forKey: .failure)
        try container.encodeIfPresent(redirectTarget, forKey: .redirectTarget)
        try container.encodeIfPresent(followedRedirects, forKey: .followedRedirects)
        try container.encodeIfPresent(ipAddress, forKey: .ipAddress)
        try container.encodeIfPresent(timings, forKey: .timings)
        try container.encodeIfPresent(userAgent, forKey: .userAgent)
        try container.encodeIfPresent(wireSize, forKey: .wireSize)
        try container.encodeIfPresent(ifNoneMatch, forKey: .ifNoneMatch)
        switch coding {
        case .bytes:
            try container.encode(body, forKey: .body)
        case .text:
            if let text = String(validating: body, as: UTF8.self) {
                try container.encode(text, forKey: .body)
            } else {
                var binary = encoder.container(keyedBy: TextBodyKeys.self)
                try binary.encode(Data(body).base64EncodedString(), forKey: .bodyBase64)
            }
        }
    }
}

/// One redirect a fetch followed: the URL asked, the 3xx it answered, and where it pointed.
public struct FollowedRedirect: Hashable, Sendable, Codable {
    public var url: String
    public var status: Int
    public var location: String

    public init(url: String, status: Int, location: String) {
        self.url = url
        self.status = status
        self.location = location
    }
}

/// Durations of one exchange's phases, each measured from the start of the request, in seconds.
public struct TransportTimings: Hashable, Sendable, Codable {
    /// Name resolution by the outbound policy's resolver (before curl starts).
    public var dns: Double
    public var connect: Double
    public var tls: Double
    public var firstByte: Double
    public var total: Double

    public init(dns: Double, connect: Double, tls: Double, firstByte: Double, total: Double) {
        self.dns = dns
        self.connect = connect
        self.tls = tls
        self.firstByte = firstByte
        self.total = total
    }
}

/// The certificate as the fetcher saw it.
public struct TLSFacts: Hashable, Sendable, Codable {
    /// Trusted by the system roots (plus an explicitly configured test CA).
    public var trusted: Bool
    /// Why not, in the TLS library's words, when `trusted` is false.
    public var failureReason: String?
    public var subject: String?
    public var subjectAltNames: [String]
    public var issuer: String?
    public var notAfter: Date?

    public init(trusted: Bool, failureReason: String? = nil, subject: String? = nil,
                subjectAltNames: [String] = [], issuer: String? = nil, notAfter: Date? = nil) {
        self.trusted = trusted
        self.failureReason = failureReason
        self.subject = subject
        self.subjectAltNames = subjectAltNames
        self.issuer = issuer
        self.notAfter = notAfter
    }
}

extension TLSFacts {
    /// The names the certificate is for: its subject alternative names (what clients match the host
    /// against), else its subject's common name; empty when the fetcher recorded neither.
    public var subjectNames: [String] {
        if !subjectAltNames.isEmpty { return subjectAltNames }
        return subject.flatMap(Self.commonName).map { [$0] } ?? []
    }

    /// The CN of a distinguished name in OpenSSL's text form ("C = US, O = Example, CN = a.example"
    /// or "CN=a.example"); nil without one.
    static func commonName(_ distinguishedName: String) -> String? {
        for part in distinguishedName.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == "CN" else { continue }
            let name = pair[1].trimmingCharacters(in: .whitespaces)
            return name.isEmpty ? nil : name
        }
        return nil
    }
}

/// Why an exchange produced no usable HTTP response, as a class plus the library's message.
public struct FetchFailure: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case dns, refused, timeout, reset
        case tlsUntrusted = "tls-untrusted"
        case tlsExpired = "tls-expired"
        case tlsWrongHost = "tls-wrong-host"
        case tooLarge = "too-large"
        /// The outbound policy refused the address (loopback, private, …) before connecting.
        case addressRefused = "address-refused"
        case notHTTPS = "not-https"
        case other
    }

    public var kind: Kind
    public var message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}
