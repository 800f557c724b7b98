/// A response to send: status, header fields and the whole body, or a `stream` producing it.
///
/// The server adds `Date`, `Content-Length`, `Connection` and the configured security headers
/// (a security header the response already sets is left as set); `Content-Length`,
/// `Transfer-Encoding` and `Connection` set here are replaced by the server's own, except that
/// `Connection: close` closes the connection after this response.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    /// The body as consecutive pieces, sent in one `writev` without being joined: a page cached as
    /// shared arrays with a small per-request piece in between costs no copy of the shared parts.
    public var bodyParts: [[UInt8]]
    /// A body produced while it is sent (`bodyParts` is then ignored): chunked for HTTP/1.1,
    /// read until close for HTTP/1.0. See `HTTPBodySource`.
    public var stream: (any HTTPBodySource)?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.bodyParts = [body]
    }

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), bodyParts: [[UInt8]]) {
        self.status = status
        self.headers = headers
        self.bodyParts = bodyParts
    }

    /// A response whose body `stream` produces piece by piece as the client reads it.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), stream: any HTTPBodySource) {
        self.status = status
        self.headers = headers
        self.bodyParts = []
        self.stream = stream
    }

    /// The whole body (joined when it is in several parts).
    public var body: [UInt8] {
        get { Self.joined(bodyParts) }
        set { bodyParts = [newValue] }
    }

    /// Body pieces as one array, without a copy when there is only one (shared with `WebResponse`).
    public static func joined(_ parts: [[UInt8]]) -> [UInt8] {
        switch parts.count {
        case 0: []
        case 1: parts[0]
        default: Array(parts.joined())
        }
    }

    public var bodyCount: Int { bodyParts.reduce(0) { $0 + $1.count } }

    /// `text/plain; charset=utf-8`.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// `text/html; charset=utf-8`.
    public static func html(_ html: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(html.utf8))
    }

    /// `application/json` from already encoded JSON text.
    public static func json(_ json: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse.json(Array(json.utf8), status: status)
    }

    /// `application/json` from already encoded JSON bytes.
    public static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    /// A redirect to `location` (303 See Other by default: the follow-up request is a GET).
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Location": location])
    }

    /// A plain-text page saying the status, e.g. "404 Not Found".
    public static func status(_ status: HTTPStatus) -> HTTPResponse {
        guard status.allowsBody else { return HTTPResponse(status: status) }
        return .text("\(status.code) \(status.reasonPhrase)\n", status: status)
    }
}
