/// A response body produced piece by piece while it is sent, for bodies too large to build in
/// memory (an export of a million domains).
///
/// The server asks for the next piece only when the connection's queued output has drained below
/// a low-water mark, so a slow reader holds at most about one piece plus that mark in memory, never
/// the whole body. HTTP/1.1 responses go out with `Transfer-Encoding: chunked` (a failure mid-way
/// closes the connection without the last chunk, so the client sees the body is incomplete);
/// HTTP/1.0 clients get the raw bytes and the connection closes at the end; HEAD gets the head only.
public protocol HTTPBodySource: AnyObject, Sendable {
    /// The next piece of the body, nil at its end. Runs on the worker pool, so it may block (libpq);
    /// calls never overlap. An empty piece is allowed and sends nothing. Keep pieces bounded (tens
    /// to hundreds of KB): a piece is the unit of memory a stream holds.
    func next() throws -> [UInt8]?
    /// Called exactly once when the stream is over, however it ended, and never while `next` runs.
    /// Runs on an event loop: release what the source holds, but do not block here.
    func finish(_ end: HTTPBodyEnd)
}

extension HTTPBodySource {
    public func finish(_ end: HTTPBodyEnd) {}
}

/// How a streamed body ended.
public enum HTTPBodyEnd: Sendable, Equatable {
    /// Every piece was queued for the client.
    case completed
    /// The connection closed (the client went away, a write failed or timed out, the server shut down).
    case clientGone
    /// `next` threw: the connection was closed after the pieces already queued.
    case failed(String)
    /// The body was never asked for: a HEAD request, a status without a body, or the server's cap
    /// on concurrent streams (the client got 503).
    case notSent
}
