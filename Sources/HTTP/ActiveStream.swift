import Synchronization

/// A streamed body being sent on one connection: the loop's bookkeeping around its source.
///
/// Touched by the owning loop's thread only, except `source.next()`, which a worker runs while
/// `pullInFlight` is set; the loop never calls `finish` during that time (see `end`).
final class ActiveStream: @unchecked Sendable {
    let source: any HTTPBodySource
    /// HTTP/1.1: each piece framed as a chunk, and a last chunk at the end. HTTP/1.0: raw bytes.
    let chunked: Bool
    let keepAlive: Bool
    /// For the access log line, written when the stream ends.
    let request: Connection.Pending
    let status: Int
    /// Body bytes queued so far (without the chunk framing).
    var bytes = 0
    /// A worker is running `source.next()`.
    var pullInFlight = false
    /// The worker queue was full: ask again at the next sweep.
    var pullDeferred = false
    /// Set once the stream is over; `finish` waits for a pull in flight to come back.
    private(set) var ending: HTTPBodyEnd?
    private var finished = false

    init(source: any HTTPBodySource, chunked: Bool, keepAlive: Bool, request: Connection.Pending, status: Int) {
        self.source = source
        self.chunked = chunked
        self.keepAlive = keepAlive
        self.request = request
        self.status = status
    }

    /// Ends the stream (once); the source hears of it now, or when its pull in flight returns.
    func end(_ how: HTTPBodyEnd) {
        guard ending == nil else { return }
        ending = how
        finishIfIdle()
    }

    /// A pull came back: tells the source how it ended if that happened meanwhile.
    func pullReturned() {
        pullInFlight = false
        finishIfIdle()
    }

    private func finishIfIdle() {
        guard let how = ending, !pullInFlight, !finished else { return }
        finished = true
        source.finish(how)
    }
}
