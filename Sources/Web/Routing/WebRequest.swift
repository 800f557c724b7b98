import HTTP

/// A request as the web layer sees it, independent of the server that parsed it, so handlers can be
/// called directly in tests and the HTTP adapter stays one small file.
public struct WebRequest: Sendable {
    public var method: String
    /// The path without the query, still percent-encoded.
    public var path: String
    /// The raw query string (after `?`), empty when there is none.
    public var query: String
    /// Header names lower-cased.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// True when the request arrived over TLS (or through a proxy the operator trusts to say so).
    public var isSecure: Bool
    /// The peer address, used for login throttling.
    public var remoteAddress: String

    public init(method: String, path: String, query: String = "", headers: [(name: String, value: String)] = [],
                body: [UInt8] = [], isSecure: Bool = false, remoteAddress: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers.map { ($0.name.lowercased(), $0.value) }
        self.body = body
        self.isSecure = isSecure
        self.remoteAddress = remoteAddress
    }

    /// Splits "/a/b?x=1" into path and query.
    public init(method: String, target: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
                isSecure: Bool = false, remoteAddress: String = "") {
        if let q = target.firstIndex(of: "?") {
            self.init(method: method, path: String(target[..<q]), query: String(target[target.index(after: q)...]),
                      headers: headers, body: body, isSecure: isSecure, remoteAddress: remoteAddress)
        } else {
            self.init(method: method, path: target, headers: headers, body: body, isSecure: isSecure,
                      remoteAddress: remoteAddress)
        }
    }

    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// Cookies from every Cookie header; the first occurrence of a name wins.
    public var cookies: [String: String] {
        var out: [String: String] = [:]
        for (name, value) in headers where name == "cookie" {
            for pair in value.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let eq = trimmed.firstIndex(of: "=") else { continue }
                let key = String(trimmed[..<eq])
                if out[key] == nil { out[key] = String(trimmed[trimmed.index(after: eq)...]) }
            }
        }
        return out
    }

    public var queryItems: FormData { (try? FormData.decode(Array(query.utf8), limits: .query)) ?? FormData() }
}

/// A response before it meets the wire.
public struct WebResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    /// The body in consecutive pieces (see `HTTPResponse.bodyParts`); usually one.
    public var bodyParts: [[UInt8]]
    /// A body produced while it is sent (`bodyParts` is then empty): see `HTTPBodySource`.
    public var stream: (any HTTPBodySource)?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.bodyParts = [body]
    }

    init(status: Int, headers: [(name: String, value: String)], bodyParts: [[UInt8]]) {
        self.status = status
        self.headers = headers
        self.bodyParts = bodyParts
    }

    /// A response whose body `stream` produces while the client reads it.
    init(status: Int, headers: [(name: String, value: String)], stream: any HTTPBodySource) {
        self.status = status
        self.headers = headers
        self.bodyParts = []
        self.stream = stream
    }

    /// The same response with a streamed body read to its end into `bodyParts`, for callers that
    /// are not a socket (tests, benchmarks, the CLI); the source hears `.completed`, or `.failed`.
    public func collected() throws -> WebResponse {
        guard let stream else { return self }
        var copy = self
        copy.stream = nil
        copy.bodyParts = []
        do {
            while let piece = try stream.next() { copy.bodyParts.append(piece) }
        } catch {
            stream.finish(.failed(String(describing: error)))
            throw error
        }
        stream.finish(.completed)
        return copy
    }

    /// The whole body (joined when it is in several parts).
    public var body: [UInt8] {
        get { HTTPResponse.joined(bodyParts) }
        set { bodyParts = [newValue] }
    }

    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Our pages load scripts and styles only from our own origin and never from attributes.
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    public static func html(_ page: HTML, status: Int = 200) -> WebResponse {
        html(bytes: page.utf8Bytes, status: status)
    }

    /// A page already rendered to bytes.
    static func html(bytes: [UInt8], status: Int = 200) -> WebResponse {
        html(parts: [bytes], status: status)
    }

    /// A page in pieces (a cached page around a per-request part), sent without joining them.
    static func html(parts: [[UInt8]], status: Int = 200) -> WebResponse {
        WebResponse(status: status, headers: [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Security-Policy", contentSecurityPolicy),
            ("Cache-Control", "no-store"),
        ], bodyParts: parts)
    }

    /// After a successful POST: send the browser to a page it can reload safely.
    public static func seeOther(_ location: String) -> WebResponse {
        WebResponse(status: 303, headers: [("Location", location)])
    }

    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> WebResponse {
        WebResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }

    public static func json(_ bytes: [UInt8], status: Int = 200) -> WebResponse {
        WebResponse(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                    body: bytes)
    }

    public func with(header name: String, _ value: String) -> WebResponse {
        var copy = self
        copy.headers.append((name, value))
        return copy
    }
}
