/// One connection's protocol state as a value: bytes in, decisions out, no sockets and no clock
/// of its own (times are passed in). The event loop executes the actions it returns.
///
/// Requests are answered strictly in order: while one is being answered (on a worker), later
/// pipelined bytes stay buffered and are parsed only after its response was queued.
public struct ConnectionState: Sendable {
    public enum Action: Sendable {
        /// Nothing to do until more bytes arrive or the outstanding response is queued.
        case none
        /// Write `HTTP/1.1 100 Continue` now, before the body arrives.
        case sendContinue
        /// A complete request to answer; call `responseQueued(keepAlive:)` once answered.
        case dispatch(HTTPRequest)
        /// Answer with this error status and close: the input cannot be parsed further.
        case reject(HTTPStatus)
    }

    private var buffer: [UInt8] = []
    private var start = 0
    private var parser: RequestParser
    /// A dispatched request has not been answered yet.
    public private(set) var awaitingResponse = false
    /// No further request will be read: close once the queued output is written.
    public private(set) var isClosing = false
    /// The peer closed its sending side (read returned 0).
    public private(set) var inputEnded = false
    /// When the first byte of the request being received arrived (nil when none is pending).
    public private(set) var requestStartedAt: UInt64?

    public init(limits: HTTPLimits) {
        parser = RequestParser(limits: limits)
    }

    /// Bytes received and not yet consumed by a dispatched request.
    public var bufferedByteCount: Int { buffer.count - start }

    /// A request is partly received (the read timeout applies), as opposed to idle or busy.
    public var isReceivingRequest: Bool { !awaitingResponse && !isClosing && bufferedByteCount > 0 }

    /// Nothing received, nothing outstanding: the idle keep-alive timeout applies.
    public var isIdle: Bool { !awaitingResponse && bufferedByteCount == 0 }

    /// The connection should be closed once its queued output is written.
    public var closesAfterOutput: Bool { isClosing || (inputEnded && !awaitingResponse) }

    public mutating func receive(_ bytes: UnsafeRawBufferPointer, now: UInt64) {
        guard !bytes.isEmpty, !isClosing else { return }
        if start > 0 && start == buffer.count {
            // Everything before was consumed: reuse the storage, but let a huge one go.
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 << 10)
            start = 0
        } else if start > 4096 && start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        if requestStartedAt == nil && !awaitingResponse && bufferedByteCount == 0 { requestStartedAt = now }
        buffer.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// The peer will send nothing more.
    public mutating func endOfInput() {
        inputEnded = true
    }

    /// Decides what to do next with the buffered bytes. Call repeatedly until it returns `.none`.
    public mutating func nextAction(now: UInt64) -> Action {
        guard !awaitingResponse, !isClosing, bufferedByteCount > 0 else {
            if inputEnded && !awaitingResponse && !isClosing && bufferedByteCount > 0 {
                // The peer hung up in the middle of a request: nobody is left to answer.
                isClosing = true
            }
            return .none
        }
        let step = buffer.withUnsafeBufferPointer { all in
            parser.parse(UnsafeBufferPointer(rebasing: all[start...]))
        }
        switch step {
        case .incomplete:
            if inputEnded { isClosing = true }
            return .none
        case .sendContinue:
            return .sendContinue
        case .failed(let status):
            isClosing = true
            requestStartedAt = nil
            return .reject(status)
        case .complete(let request, let consumed):
            start += consumed
            if start == buffer.count {
                // All consumed: drop the bytes now rather than on the next read, so an idle
                // connection after a large upload does not keep it in memory.
                buffer.removeAll(keepingCapacity: buffer.capacity <= 64 << 10)
                start = 0
            }
            awaitingResponse = true
            requestStartedAt = nil
            return .dispatch(request)
        }
    }

    /// The response to the dispatched request was queued; `keepAlive` false closes afterwards.
    public mutating func responseQueued(keepAlive: Bool, now: UInt64) {
        awaitingResponse = false
        if !keepAlive {
            isClosing = true
            return
        }
        // Pipelined bytes already here start the next request's clock now.
        if bufferedByteCount > 0 { requestStartedAt = now }
    }

    /// Stops reading requests (timeout, shutdown, error): close once output is written.
    public mutating func close() {
        isClosing = true
        requestStartedAt = nil
    }
}
