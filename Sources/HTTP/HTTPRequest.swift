/// A complete request: the server hands a request to a responder only once its body has arrived.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request target exactly as sent (origin form, e.g. `/a%20b?x=1`).
    public var target: String
    /// The path part of the target, still percent-encoded (`/a%20b`). Absolute-form targets
    /// (`http://host/p`) are reduced to their path.
    public var path: String
    /// The query without the `?`, still percent-encoded; nil when the target has no `?`.
    public var query: String?
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The peer's address as text (`127.0.0.1`, `::1`); empty when not from a socket.
    public var remoteAddress: String
    /// Whether the client asked to keep the connection open after this request
    /// (HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
    public var keepAlive: Bool

    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http1_1,
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], remoteAddress: String = "",
                keepAlive: Bool = true) {
        self.method = method
        self.target = target
        let (path, query) = HTTPRequest.split(target: target)
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.keepAlive = keepAlive
    }

    static func split(target: String) -> (path: String, query: String?) {
        var utf8 = target.utf8[...]
        // Absolute form: drop "scheme://authority" so routing sees only the path.
        if utf8.first != UInt8(ascii: "/"), let schemeEnd = target.utf8.firstRange(of: "://".utf8) {
            let afterAuthority = target.utf8[schemeEnd.upperBound...]
            if let slash = afterAuthority.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) {
                utf8 = target.utf8[slash...]
            } else {
                return ("/", nil)
            }
        }
        if let q = utf8.firstIndex(of: UInt8(ascii: "?")) {
            let path = String(Substring(utf8[..<q]))
            let query = String(Substring(utf8[utf8.index(after: q)...]))
            return (path.isEmpty ? "/" : path, query)
        }
        let path = String(Substring(utf8))
        return (path.isEmpty ? "/" : path, nil)
    }

    /// The value of query parameter `name`, percent- and plus-decoded; nil when absent.
    public func queryParameter(_ name: String) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if PercentDecoding.decode(Substring(parts[0]), plusAsSpace: true) == name {
                return parts.count > 1 ? PercentDecoding.decode(parts[1], plusAsSpace: true) : ""
            }
        }
        return nil
    }
}
