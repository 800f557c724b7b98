import Glibc

/// Everything an `HTTPServer` needs to know before it starts.
public struct HTTPServerConfiguration: Sendable {
    /// Address to listen on (`127.0.0.1`, `0.0.0.0`, `::1`, `::`).
    public var host: String
    /// Port to listen on; 0 picks a free one (read it from `HTTPServer.port` after `start()`).
    public var port: Int
    /// Event-loop threads; connections are dealt round-robin among them.
    public var eventLoopCount: Int
    /// Threads of the worker pool that runs `.offload` handlers.
    public var workerCount: Int
    /// Offloaded requests waiting for a worker beyond this are answered 503 at once.
    public var maxQueuedRequests: Int
    public var limits: HTTPLimits
    /// Connections beyond this are answered 503 and closed as soon as they are accepted.
    public var maxConnections: Int
    /// Streamed bodies (`HTTPResponse.stream`) sent at once; a response streamed beyond this is
    /// answered 503 with `Retry-After` instead. Each stream asks the worker pool for its pieces
    /// (and its source may hold a database connection), so this keeps exports from crowding out pages.
    public var maxConcurrentStreams: Int
    /// A request must arrive in full within this time from its first byte, or it gets 408.
    public var readTimeout: Duration
    /// A keep-alive connection with nothing to do is closed after this time.
    public var idleTimeout: Duration
    /// A connection whose peer stops reading our output is closed after this time without progress.
    public var writeTimeout: Duration
    /// After `shutdown()`, connections still busy after this time are closed anyway.
    public var shutdownGracePeriod: Duration
    /// Serve files from this directory (GET/HEAD) before asking the responder; nil: no static files.
    public var publicDirectory: String?
    /// URL prefix under which `publicDirectory` is served (`/` or e.g. `/static/`).
    public var publicURLPrefix: String
    /// `Cache-Control` of static files.
    public var staticCacheControl: String
    /// Files up to this size are kept in memory; larger ones are read on the worker pool.
    public var staticCacheMaxFileBytes: Int
    /// Added to every response that does not set the same field itself.
    public var securityHeaders: HTTPHeaders
    /// Where the access log goes (one line per request).
    public var accessLog: HTTPAccessLog
    /// listen(2) backlog.
    public var backlog: Int

    public static let defaultSecurityHeaders: HTTPHeaders = [
        "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
        "X-Frame-Options": "DENY",
    ]

    public init(host: String = "127.0.0.1", port: Int = 8080) {
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        self.host = host
        self.port = port
        eventLoopCount = cores
        workerCount = max(4, cores * 2)
        maxQueuedRequests = 1024
        limits = HTTPLimits()
        maxConnections = 10_000
        maxConcurrentStreams = 8
        readTimeout = .seconds(10)
        idleTimeout = .seconds(60)
        writeTimeout = .seconds(30)
        shutdownGracePeriod = .seconds(30)
        publicDirectory = nil
        publicURLPrefix = "/"
        staticCacheControl = "public, max-age=300"
        staticCacheMaxFileBytes = 1 << 20
        securityHeaders = HTTPServerConfiguration.defaultSecurityHeaders
        accessLog = .standardError
        backlog = 1024
    }
}

extension Duration {
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) &* 1_000_000_000 &+ UInt64(max(0, attoseconds / 1_000_000_000))
    }
}
