import CShim
import Glibc
import TextEncoding
import Synchronization

/// One epoll thread: owns its connections and does all their I/O without blocking.
///
/// Level-triggered; each fd is registered once and only its interest changes (write interest
/// only while output is pending). `epoll_data.u64` holds slot << 32 | generation, so an event or
/// a worker's answer for a connection that was closed (and whose slot was reused) is dropped.
/// Other threads talk to the loop only through `post`, which queues and wakes it via an eventfd.
/// Timeouts are checked by a sweep a few times per timeout period: no timer per connection.
final class EventLoop: @unchecked Sendable {
    struct Accepted: Sendable {
        var fd: Int32
        var remoteAddress: String
    }

    struct Completion: Sendable {
        var slot: Int
        var generation: UInt32
        var response: HTTPResponse
    }

    /// A piece of a streamed body, back from the worker that asked the source for it.
    struct Piece: Sendable {
        enum Pulled: Sendable { case bytes([UInt8]), end, failed(String) }
        var slot: Int
        var generation: UInt32
        var stream: ActiveStream
        var pulled: Pulled
    }

    private struct Inbox {
        var accepted: [Accepted] = []
        var completions: [Completion] = []
        var pieces: [Piece] = []
        var shutdown = false
    }

    let index: Int
    private let core: ServerCore
    private let epfd: Int32
    private let wakeFD: Int32
    private let inbox = Mutex(Inbox())
    private let wakePending = Atomic<Bool>(false)

    // Everything below is touched only by the loop's own thread.
    private var listenFD: Int32 = -1
    private var peers: [EventLoop] = []
    private var nextPeer = 0
    private var acceptPausedUntil: UInt64?
    private var connections: [Connection?] = []
    private var generations: [UInt32] = []
    private var freeSlots: [Int] = []
    private var liveCount = 0
    private var events: UnsafeMutablePointer<epoll_event>
    private var eventCapacity = 256
    private let inbound: UnsafeMutableRawBufferPointer
    private let iovecs: UnsafeMutablePointer<iovec>
    private static let maxIOVecs = 64
    private var now: UInt64 = 0
    private var dateSecond = -1
    private var dateBytes: [UInt8] = []
    private var log: AccessLogBuffer
    private let encoder: ResponseEncoder
    private let statics: StaticFiles?
    private var draining = false
    private var drainDeadline: UInt64 = 0
    private var nextSweep: UInt64 = 0
    private let sweepInterval: UInt64

    private static let wakeToken = UInt64.max
    private static let listenToken = UInt64.max - 1
    /// Stop reading a connection whose unanswered output or buffered input passes this.
    private static let highWater = 256 << 10
    /// Ask a streamed body's source for its next piece only when less than this is queued: a slow
    /// reader holds this plus one piece, and a fast one never waits on an empty queue for long.
    private static let streamLowWater = 64 << 10

    init(index: Int, core: ServerCore) throws(SystemCallError) {
        self.index = index
        self.core = core
        epfd = try checked("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        do {
            wakeFD = try checked("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
        } catch {
            Glibc.close(epfd)
            throw error
        }
        events = .allocate(capacity: eventCapacity)
        inbound = .allocate(byteCount: 64 << 10, alignment: 16)
        iovecs = .allocate(capacity: EventLoop.maxIOVecs)
        log = AccessLogBuffer(sink: core.configuration.accessLog)
        encoder = ResponseEncoder(securityHeaders: core.configuration.securityHeaders)
        let config = core.configuration
        statics = config.publicDirectory.flatMap {
            StaticFiles(directory: $0, urlPrefix: config.publicURLPrefix, cacheControl: config.staticCacheControl,
                        maxCachedBytes: config.staticCacheMaxFileBytes)
        }
        let shortest = min(config.readTimeout.nanoseconds, config.idleTimeout.nanoseconds, config.writeTimeout.nanoseconds)
        sweepInterval = min(max(shortest / 8, 10_000_000), 250_000_000)
        try Epoll.add(epfd, wakeFD, events: Epoll.input, data: EventLoop.wakeToken)
    }

    deinit {
        // Closed here, not when run() ends: a worker finishing late may still post to this
        // loop, and writing to a closed (possibly reused) descriptor number would hit another
        // file. Jobs hold the loop strongly, so deinit comes after the last of them.
        Glibc.close(wakeFD)
        Glibc.close(epfd)
        events.deallocate()
        inbound.deallocate()
        iovecs.deallocate()
    }

    /// Makes this loop the acceptor for `fd`, dealing connections round-robin over `peers`.
    func adoptListener(_ fd: Int32, peers: [EventLoop]) throws(SystemCallError) {
        listenFD = fd
        self.peers = peers
        try Epoll.add(epfd, fd, events: Epoll.input, data: EventLoop.listenToken)
    }

    // MARK: - Cross-thread entry points

    func post(accepted: Accepted) {
        inbox.withLock { $0.accepted.append(accepted) }
        wake()
    }

    func post(completion: Completion) {
        inbox.withLock { $0.completions.append(completion) }
        wake()
    }

    func post(piece: Piece) {
        inbox.withLock { $0.pieces.append(piece) }
        wake()
    }

    func requestShutdown() {
        inbox.withLock { $0.shutdown = true }
        wake()
    }

    private func wake() {
        // One eventfd write per batch: later posters see the flag and skip the syscall.
        if !wakePending.exchange(true, ordering: .sequentiallyConsistent) {
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { Glibc.write(wakeFD, $0.baseAddress, 8) }
        }
    }

    // MARK: - The loop

    func run() {
        now = monotonicNanoseconds()
        nextSweep = now + sweepInterval
        while true {
            let count = epoll_wait(epfd, events, Int32(eventCapacity), waitMilliseconds())
            now = monotonicNanoseconds()
            if count < 0 && errno != EINTR { break }
            for i in 0..<Int(max(count, 0)) {
                let token = events[i].data.u64
                let flags = events[i].events
                switch token {
                case EventLoop.wakeToken: drainInbox()
                case EventLoop.listenToken: acceptConnections()
                default: connectionEvent(token: token, flags: flags)
                }
            }
            if Int(count) == eventCapacity { growEvents() }
            if now >= nextSweep { sweep() }
            if draining && ((liveCount == 0 && core.listenerClosed.load(ordering: .acquiring)) || now >= drainDeadline) {
                break
            }
        }
        if listenFD >= 0 {
            Glibc.close(listenFD)
            listenFD = -1
            core.listenerClosed.store(true, ordering: .releasing)
        }
        // Connections the acceptor dealt us after we stopped looking: close them too.
        let late = inbox.withLock { box -> [Accepted] in
            let accepted = box.accepted
            box.accepted = []
            return accepted
        }
        for accepted in late {
            Glibc.close(accepted.fd)
            core.connectionCount.subtract(1, ordering: .relaxed)
        }
        for case let connection? in connections { close(connection) }
        log.flush()
        peers = []   // the acceptor holds every loop, itself included: break that cycle
    }

    private func waitMilliseconds() -> Int32 {
        var deadline = nextSweep
        if let resume = acceptPausedUntil { deadline = min(deadline, resume) }
        if draining { deadline = min(deadline, drainDeadline) }
        guard deadline > now else { return 0 }
        return Int32(min((deadline - now + 999_999) / 1_000_000, 60_000))
    }

    private func growEvents() {
        events.deallocate()
        eventCapacity *= 2
        events = .allocate(capacity: eventCapacity)
    }

    private func drainInbox() {
        // Order matters: consume the eventfd first, then clear the flag, then take the inbox.
        // Clearing first would let a poster write the eventfd between the two, have that write
        // swallowed by our read, and leave the flag set: every later post would skip the wake
        // and sit in the inbox forever.
        var counter: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &counter) { Glibc.read(wakeFD, $0.baseAddress, 8) }
        wakePending.store(false, ordering: .sequentiallyConsistent)
        let items = inbox.withLock { box -> Inbox in
            let taken = box
            box.accepted.removeAll(keepingCapacity: true)
            box.completions.removeAll(keepingCapacity: true)
            box.pieces.removeAll(keepingCapacity: true)
            return taken
        }
        for accepted in items.accepted { register(accepted) }
        // Shutdown before completions: a response finished in the same batch as the shutdown
        // request must already say `Connection: close`, or the client keeps a socket we drop.
        if items.shutdown && !draining { beginDraining() }
        for completion in items.completions {
            guard completion.slot < connections.count, let connection = connections[completion.slot],
                  connection.generation == completion.generation, connection.pending != nil else { continue }
            respond(connection, completion.response)
            drive(connection)
        }
        for piece in items.pieces { receive(piece) }
    }

    // MARK: - Accepting

    private func acceptConnections() {
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    cshim_accept4(listenFD, $0, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
                }
            }
            if fd < 0 {
                let code = errno
                switch code {
                case EINTR, ECONNABORTED, EPROTO, EPERM:
                    continue   // that one connection failed; the listener is fine
                case EAGAIN, EWOULDBLOCK:
                    return
                default:
                    // EMFILE, ENFILE, ENOBUFS, ENOMEM: out of resources. Level-triggered epoll
                    // would report the listener again at once, so stop listening for a moment.
                    pauseAccepting(reason: code)
                    return
                }
            }
            if core.connectionCount.add(1, ordering: .relaxed).newValue > core.configuration.maxConnections {
                refuseOverCapacity(fd)
                continue
            }
            var one: Int32 = 1
            // Without TCP_NODELAY a response written after a previous one can wait ~40 ms for
            // the peer's delayed ACK (Nagle); this alone made FlyingFox 11x slower.
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let accepted = Accepted(fd: fd, remoteAddress: EventLoop.describe(&address))
            let target = peers.isEmpty ? self : peers[nextPeer % peers.count]
            nextPeer &+= 1
            if target === self { register(accepted) } else { target.post(accepted: accepted) }
        }
    }

    private func pauseAccepting(reason: Int32) {
        guard acceptPausedUntil == nil else { return }
        acceptPausedUntil = now + 100_000_000
        Epoll.modify(epfd, listenFD, events: 0, data: EventLoop.listenToken)
        let message = "http: accept4 failed: \(String(cString: strerror(reason))) (errno \(reason)); pausing accepts for 100 ms\n"
        _ = message.utf8CString.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count - 1) }
    }

    private func resumeAcceptingIfDue() {
        guard let resume = acceptPausedUntil, now >= resume, listenFD >= 0 else { return }
        acceptPausedUntil = nil
        Epoll.modify(epfd, listenFD, events: Epoll.input, data: EventLoop.listenToken)
    }

    private static let overCapacity: [UInt8] = Array(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 1\r\nConnection: close\r\n\r\n".utf8)

    private func refuseOverCapacity(_ fd: Int32) {
        // Best effort: the socket is new, so its send buffer has room; no waiting for it.
        _ = EventLoop.overCapacity.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        Glibc.close(fd)
        core.connectionCount.subtract(1, ordering: .relaxed)
    }

    static func describe(_ address: inout sockaddr_storage) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = Int32(address.ss_family)
        let ok: Bool = withUnsafePointer(to: &address) { pointer in
            if family == AF_INET {
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var a = v4.pointee.sin_addr
                    return inet_ntop(AF_INET, &a, &text, socklen_t(text.count)) != nil
                }
            } else if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var a = v6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &a, &text, socklen_t(text.count)) != nil
                }
            }
            return false
        }
        guard ok, let end = text.firstIndex(of: 0) else { return "-" }
        return String(decoding: text[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func register(_ accepted: Accepted) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = connections.count
            connections.append(nil)
            generations.append(0)
        }
        let connection = Connection(fd: accepted.fd, slot: slot, generation: generations[slot],
                                    remoteAddress: accepted.remoteAddress, limits: core.configuration.limits,
                                    events: Epoll.input, now: now)
        do {
            try Epoll.add(epfd, accepted.fd, events: Epoll.input, data: connection.token)
        } catch {
            Glibc.close(accepted.fd)
            freeSlots.append(slot)
            core.connectionCount.subtract(1, ordering: .relaxed)
            return
        }
        connections[slot] = connection
        liveCount += 1
    }

    // MARK: - Connection I/O

    private func connectionEvent(token: UInt64, flags: UInt32) {
        let slot = Int(token >> 32)
        guard slot < connections.count, let connection = connections[slot],
              connection.generation == UInt32(truncatingIfNeeded: token) else { return }
        if flags & (Epoll.error | Epoll.hangUp) != 0 {
            // Both directions are gone (or reset): nothing can be delivered any more.
            close(connection)
            return
        }
        if flags & Epoll.output != 0 {
            finishIO(connection)
            if connection.isClosed { return }
        }
        if flags & Epoll.input != 0 {
            readFrom(connection)
        }
    }

    private func readFrom(_ connection: Connection) {
        switch nonBlocking({ Glibc.read(connection.fd, inbound.baseAddress, inbound.count) }) {
        case .wouldBlock:
            return
        case .failed:
            close(connection)
        case .done(0):
            if connection.lingerUntil != nil { close(connection); return }
            connection.state.endOfInput()
            drive(connection)
        case .done(let n):
            connection.lastActivity = now
            if connection.lingerUntil != nil {
                connection.lingerDiscarded += n
                if connection.lingerDiscarded > 1 << 20 { close(connection) }
                return
            }
            connection.state.receive(UnsafeRawBufferPointer(rebasing: inbound[0..<n]), now: now)
            drive(connection)
        }
    }

    /// Acts on everything the connection's state has decided, then writes what is queued.
    private func drive(_ connection: Connection) {
        actions: while !connection.isClosed {
            if connection.outputBytes >= EventLoop.highWater {
                // The client is not reading its answers: parse no more until they drain.
                connection.stalledOnOutput = true
                break
            }
            switch connection.state.nextAction(now: now) {
            case .none:
                break actions
            case .sendContinue:
                connection.enqueue(ResponseEncoder.continueResponse)
            case .reject(let status):
                reject(connection, status)
                break actions
            case .dispatch(var request):
                request.remoteAddress = connection.remoteAddress
                dispatch(request, on: connection)
            }
        }
        finishIO(connection)
    }

    private func dispatch(_ request: HTTPRequest, on connection: Connection) {
        connection.pending = Connection.Pending(method: request.method, target: request.target, version: request.version,
                                                keepAlive: request.keepAlive, startedAt: now)
        var handling: HTTPHandling?
        if let statics {
            switch statics.handle(request, now: now) {
            case .notStatic: break
            case .respond(let response): handling = .respond(response)
            case .offload(let body): handling = .offload(body)
            }
        }
        switch handling ?? core.responder.handle(request) {
        case .respond(let response):
            respond(connection, response)
        case .offload(let body):
            let slot = connection.slot
            let generation = connection.generation
            let accepted = core.workers.submit { [self] in
                let response = body(request)
                post(completion: Completion(slot: slot, generation: generation, response: response))
            }
            if !accepted {
                var busy = HTTPResponse.status(.serviceUnavailable)
                busy.headers.add(name: "Retry-After", value: "1")
                respond(connection, busy)
            }
        }
    }

    /// Queues the response to the connection's pending request.
    private func respond(_ connection: Connection, _ response: HTTPResponse) {
        guard let pending = connection.pending else { return }
        if let source = response.stream, response.status.allowsBody, pending.method != .head {
            guard core.streamCount.add(1, ordering: .relaxed).newValue <= core.configuration.maxConcurrentStreams else {
                core.streamCount.subtract(1, ordering: .relaxed)
                source.finish(.notSent)
                var busy = HTTPResponse.status(.serviceUnavailable)
                busy.headers.add(name: "Retry-After", value: "1")
                respond(connection, busy)
                return
            }
            startStream(connection, response, source: source, pending: pending)
            return
        }
        // HEAD, or a status without a body: the source is never asked.
        response.stream?.finish(.notSent)
        connection.pending = nil
        refreshDate()
        var head: [UInt8] = []
        head.reserveCapacity(512)
        let (keepAlive, sendsBody) = encoder.encodeHead(
            response, keepAlive: pending.keepAlive && !draining, version: pending.version,
            isHead: pending.method == .head, date: dateBytes, into: &head)
        connection.enqueue(head)
        if sendsBody { for part in response.bodyParts { connection.enqueue(part) } }
        log.record(remote: connection.remoteAddress, method: pending.method, target: pending.target,
                   version: pending.version, status: response.status.code, bytes: sendsBody ? response.bodyCount : 0,
                   nanoseconds: now &- pending.startedAt)
        connection.state.responseQueued(keepAlive: keepAlive, now: now)
    }

    // MARK: - Streamed bodies

    /// Queues the head of a streamed response and asks for its first piece. The request stays
    /// unanswered for the connection's state until the last piece is queued, so pipelined requests
    /// wait their turn and the idle timeout does not apply.
    private func startStream(_ connection: Connection, _ response: HTTPResponse, source: any HTTPBodySource,
                             pending: Connection.Pending) {
        connection.pending = nil
        refreshDate()
        var head: [UInt8] = []
        head.reserveCapacity(512)
        let (keepAlive, _) = encoder.encodeHead(
            response, keepAlive: pending.keepAlive && !draining, version: pending.version,
            isHead: false, date: dateBytes, into: &head)
        connection.enqueue(head)
        connection.stream = ActiveStream(source: source, chunked: pending.version == .http1_1, keepAlive: keepAlive,
                                         request: pending, status: response.status.code)
        pullIfRoom(connection)
    }

    /// Asks a worker for the stream's next piece when the queued output is low and no ask is out.
    private func pullIfRoom(_ connection: Connection) {
        guard let stream = connection.stream, !stream.pullInFlight,
              connection.outputBytes < EventLoop.streamLowWater else { return }
        let slot = connection.slot, generation = connection.generation
        stream.pullInFlight = true
        let accepted = core.workers.submit { [self] in
            let pulled: Piece.Pulled
            do {
                pulled = try stream.source.next().map { .bytes($0) } ?? .end
            } catch {
                pulled = .failed(String(describing: error))
            }
            post(piece: Piece(slot: slot, generation: generation, stream: stream, pulled: pulled))
        }
        stream.pullDeferred = !accepted
        if !accepted { stream.pullInFlight = false }
    }

    /// A piece is back from the worker: queue it (framed), end the stream, or give up on it.
    private func receive(_ piece: Piece) {
        let stream = piece.stream
        stream.pullReturned()
        guard piece.slot < connections.count, let connection = connections[piece.slot],
              connection.generation == piece.generation, connection.stream === stream else { return }
        switch piece.pulled {
        case .bytes(let bytes):
            if !bytes.isEmpty {
                if stream.chunked { connection.enqueue(ResponseEncoder.chunkSizeLine(bytes.count)) }
                connection.enqueue(bytes)
                if stream.chunked { connection.enqueue(ResponseEncoder.crlfBytes) }
                stream.bytes += bytes.count
            }
            pullIfRoom(connection)
            finishIO(connection)
        case .end:
            if stream.chunked { connection.enqueue(ResponseEncoder.lastChunk) }
            endStream(connection, .completed)
            connection.state.responseQueued(keepAlive: stream.keepAlive, now: now)
            drive(connection)
        case .failed(let message):
            // The head (200) is long gone: all that is left is to stop short. Without the last
            // chunk a client of HTTP/1.1 knows the body is incomplete.
            endStream(connection, .failed(message))
            connection.state.close()
            finishIO(connection)
        }
    }

    /// The stream is over: the cap and the log hear of it, and its source (now or after its pull).
    private func endStream(_ connection: Connection, _ how: HTTPBodyEnd) {
        guard let stream = connection.stream else { return }
        connection.stream = nil
        core.streamCount.subtract(1, ordering: .relaxed)
        let request = stream.request
        log.record(remote: connection.remoteAddress, method: request.method, target: request.target,
                   version: request.version, status: stream.status, bytes: stream.bytes,
                   nanoseconds: now &- request.startedAt)
        stream.end(how)
    }

    /// Answers an unparseable or timed-out request and closes (lingering) after writing it.
    private func reject(_ connection: Connection, _ status: HTTPStatus) {
        connection.state.close()
        connection.closeWithLinger = true
        refreshDate()
        var head: [UInt8] = []
        let response = HTTPResponse.status(status)
        let (_, sendsBody) = encoder.encodeHead(response, keepAlive: false, version: .http1_1, isHead: false,
                                                date: dateBytes, into: &head)
        connection.enqueue(head)
        if sendsBody { connection.enqueue(response.body) }
        log.recordRejected(remote: connection.remoteAddress, status: status.code, nanoseconds: 0)
    }

    /// Writes queued output, closes when the state says so, and updates epoll interest.
    private func finishIO(_ connection: Connection) {
        if connection.outputBytes > 0 { flush(connection) }
        if connection.isClosed { return }
        if connection.stream != nil { pullIfRoom(connection) }
        if connection.outputBytes == 0 && connection.pending == nil && connection.stream == nil
            && connection.lingerUntil == nil && connection.state.closesAfterOutput {
            if connection.closeWithLinger && !connection.state.inputEnded {
                beginLinger(connection)
            } else {
                close(connection)
                return
            }
        }
        if connection.stalledOnOutput && connection.outputBytes < EventLoop.highWater {
            // Output drained below the high-water mark while pipelined requests wait: go on.
            connection.stalledOnOutput = false
            drive(connection)
            return
        }
        updateInterest(connection)
    }

    private func flush(_ connection: Connection) {
        while connection.outputBytes > 0 {
            let result = withIOVecs(connection.output, offset: connection.outputOffset) { count in
                nonBlocking { writev(connection.fd, iovecs, Int32(count)) }
            }
            switch result {
            case .done(let written):
                connection.lastWriteProgress = now
                connection.consume(written)
            case .wouldBlock:
                return
            case .failed:
                close(connection)
                return
            }
        }
    }

    /// Fills `iovecs` with the queued chunks (at most 64) and runs `body` while their storage is
    /// pinned; the nesting keeps every array's pointer valid for the one writev call.
    private func withIOVecs<R>(_ chunks: [[UInt8]], offset: Int, _ body: (Int) -> R) -> R {
        func fill(_ index: Int, _ count: Int) -> R {
            guard index < chunks.count && count < EventLoop.maxIOVecs else { return body(count) }
            return chunks[index].withUnsafeBytes { raw in
                let skip = index == 0 ? offset : 0
                guard let base = raw.baseAddress, raw.count > skip else { return fill(index + 1, count) }
                iovecs[count] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base + skip), iov_len: raw.count - skip)
                return fill(index + 1, count + 1)
            }
        }
        return fill(0, 0)
    }

    private func updateInterest(_ connection: Connection) {
        let state = connection.state
        var wantsInput: Bool
        if connection.lingerUntil != nil {
            wantsInput = true
        } else if state.inputEnded || state.isClosing {
            wantsInput = false
        } else {
            // Back-pressure: stop reading a client that sends faster than it reads answers.
            wantsInput = connection.outputBytes < EventLoop.highWater
                && !(state.awaitingResponse && state.bufferedByteCount >= EventLoop.highWater)
        }
        let events = (wantsInput ? Epoll.input : 0) | (connection.outputBytes > 0 ? Epoll.output : 0)
        if events != connection.registeredEvents {
            connection.registeredEvents = events
            Epoll.modify(epfd, connection.fd, events: events, data: connection.token)
        }
    }

    private func beginLinger(_ connection: Connection) {
        shutdown(connection.fd, Int32(SHUT_WR))
        connection.lingerUntil = now + min(2_000_000_000, core.configuration.readTimeout.nanoseconds)
    }

    private func close(_ connection: Connection) {
        guard !connection.isClosed else { return }
        connection.isClosed = true
        // close() also removes the fd from epoll: it is never shared with another process.
        Glibc.close(connection.fd)
        endStream(connection, .clientGone)
        connections[connection.slot] = nil
        generations[connection.slot] &+= 1
        freeSlots.append(connection.slot)
        liveCount -= 1
        core.connectionCount.subtract(1, ordering: .relaxed)
    }

    // MARK: - Time

    private func refreshDate() {
        let second = wallClockSeconds()
        if second != dateSecond {
            dateSecond = second
            dateBytes = HTTPDate.format(epochSeconds: second)
        }
    }

    private func sweep() {
        nextSweep = now + sweepInterval
        resumeAcceptingIfDue()
        let config = core.configuration
        let readTimeout = config.readTimeout.nanoseconds
        let idleTimeout = config.idleTimeout.nanoseconds
        let writeTimeout = config.writeTimeout.nanoseconds
        for case let connection? in connections {
            if let until = connection.lingerUntil {
                if now >= until { close(connection) }
                continue
            }
            if connection.outputBytes > 0 {
                if now &- connection.lastWriteProgress > writeTimeout { close(connection) }
                continue
            }
            if let stream = connection.stream {
                if stream.pullDeferred { pullIfRoom(connection) }
                continue
            }
            if connection.pending != nil { continue }
            let state = connection.state
            if state.isReceivingRequest, let started = state.requestStartedAt, now &- started > readTimeout {
                // A slow client never reached a worker (requests are dispatched only when
                // complete); all it holds is this socket, and now not even that.
                reject(connection, .requestTimeout)
                finishIO(connection)
            } else if state.isIdle && (draining || now &- connection.lastActivity > idleTimeout) {
                close(connection)
            }
        }
        log.flush()
    }

    private func beginDraining() {
        draining = true
        drainDeadline = now + core.configuration.shutdownGracePeriod.nanoseconds
        if listenFD >= 0 {
            Glibc.close(listenFD)
            listenFD = -1
            acceptPausedUntil = nil
            // Peers may exit only after this: until now we may have dealt them connections.
            core.listenerClosed.store(true, ordering: .releasing)
        }
        for case let connection? in connections where connection.state.isIdle && connection.outputBytes == 0 {
            close(connection)
        }
    }
}
