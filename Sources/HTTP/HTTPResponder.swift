/// How a request is answered: right away on the event loop, or by a closure on the worker pool.
public enum HTTPHandling: Sendable {
    /// Answered inline, on the event loop. Only for work that is pure and bounded (fixed
    /// responses, in-memory lookups): anything slow here stalls every connection of that loop.
    case respond(HTTPResponse)
    /// Run on the bounded worker pool; the closure may block (libpq, file reads). Its response
    /// is sent back to the loop; responses still leave in request order.
    case offload(@Sendable (HTTPRequest) -> HTTPResponse)
}

/// Decides, on the event loop, how each request is answered. `handle` must not block.
public protocol HTTPResponder: Sendable {
    func handle(_ request: HTTPRequest) -> HTTPHandling
}

/// A responder from a closure.
public struct HTTPClosureResponder: HTTPResponder {
    private let body: @Sendable (HTTPRequest) -> HTTPHandling
    public init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPHandling) { self.body = body }
    public func handle(_ request: HTTPRequest) -> HTTPHandling { body(request) }
}
