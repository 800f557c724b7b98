import CCurl

/// A URL read by curl's own parser, with its host in the ASCII (punycode) form curl connects with:
/// the form to resolve, judge and pin, and the form curl is given, so nothing converts it after judging. Reading
/// the host with another parser (Foundation's decodes punycode to Unicode) keyed the pin by a name curl
/// never used, and curl resolved the name again (issue #16, finding 2).
public struct OutboundURL: Hashable, Sendable {
    /// The URL with its host in ASCII form: what curl is given, so nothing is converted after judging.
    public let url: String
    /// Lower-cased.
    public let scheme: String
    /// ASCII, lower-cased; an IPv6 literal without brackets.
    public let host: String
    /// The URL's port, or the scheme's default.
    public let port: Int
    /// Whether the URL carries a user name or password.
    public let hasCredentials: Bool

    public init(_ text: String) throws(OutboundURLError) {
        CurlGlobal.initializeOnce()
        guard let parsed = curl_url() else { throw OutboundURLError(text: text, reason: "out of memory") }
        defer { curl_url_cleanup(parsed) }
        let rc = curl_url_set(parsed, CURLUPART_URL, text, 0)
        guard rc == CURLUE_OK else {
            throw OutboundURLError(text: text, reason: String(cString: curl_url_strerror(rc)))
        }
        func part(_ what: CURLUPart, _ flags: Int32 = 0) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(parsed, what, &value, UInt32(flags)) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let scheme = part(CURLUPART_SCHEME)?.lowercased() else { throw OutboundURLError(text: text, reason: "no scheme") }
        guard let rawHost = part(CURLUPART_HOST), !rawHost.isEmpty else {
            throw OutboundURLError(text: text, reason: "no host")
        }
        let ascii = try Self.ascii(rawHost, text: text)
        guard curl_url_set(parsed, CURLUPART_HOST, ascii, 0) == CURLUE_OK, let url = part(CURLUPART_URL) else {
            throw OutboundURLError(text: text, reason: "the host \(ascii) cannot be written back")
        }
        guard let portText = part(CURLUPART_PORT, CURLU_DEFAULT_PORT), let port = Int(portText) else {
            throw OutboundURLError(text: text, reason: "no port for the scheme \(scheme)")
        }
        self.url = url
        self.scheme = scheme
        self.host = ascii.hasPrefix("[") && ascii.hasSuffix("]") ? String(ascii.dropFirst().dropLast()) : ascii
        self.port = port
        self.hasCredentials = part(CURLUPART_USER) != nil || part(CURLUPART_PASSWORD) != nil
    }

    /// The host's ASCII form, converted the way curl itself converts (`IDNA`). curl is then handed the
    /// ASCII name and converts nothing.
    /// (curl 7.88's own CURLU_PUNYCODE read-back fails for non-ASCII hosts, so we do not ask it.)
    private static func ascii(_ host: String, text: String) throws(OutboundURLError) -> String {
        if host.utf8.allSatisfy({ $0 < 0x80 }) { return host.lowercased() }
        switch IDNA.ascii(host) {
        case .success(let ascii): return ascii.lowercased()
        case .failure(let error): throw OutboundURLError(text: text, reason: "the host is not a valid internationalized name (\(error.reason))")
        }
    }

    /// Resolves the host and judges every address (blocking: DNS). A literal address is judged as it is.
    public func pin(policy: OutboundPolicy, resolver: any HostResolver) -> Result<PinnedConnection, OutboundRefusal> {
        let addresses: [IPAddress]
        if let literal = IPAddress(host) {
            addresses = [literal]
        } else {
            switch resolver.resolve(host) {
            case .success(let found): addresses = found
            case .failure(let error): return .failure(.unresolvable(error.message))
            }
        }
        if let (address, range) = policy.refusal(among: addresses) {
            return .failure(.address(address, range: range))
        }
        return .success(PinnedConnection(host: host, port: port, addresses: addresses))
    }
}

/// A URL curl's parser does not accept.
public struct OutboundURLError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "not a usable URL: \(reason)" }
}

/// Why a connection was not made: its name did not resolve, or it resolved to an address the policy refuses.
public enum OutboundRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    case unresolvable(String)
    case address(IPAddress, range: String)

    public var description: String {
        switch self {
        case .unresolvable(let why): why
        case .address(let address, let range): "refused address \(address): \(range)"
        }
    }
}
