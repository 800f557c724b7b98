import Glibc
import Synchronization
import Testing
@testable import HTTP

/// A body of `pieces` pieces of `pieceSize` bytes, piece i filled with the byte i % 251 (endless
/// when `pieces` is nil), failing instead of giving piece `failAt`. Records what it was asked.
final class PatternSource: HTTPBodySource {
    struct Record {
        var produced = 0
        var ended: HTTPBodyEnd?
        var finishCalls = 0
    }

    let pieceSize: Int
    let pieces: Int?
    let failAt: Int?
    let record = Mutex(Record())

    init(pieceSize: Int = 64 << 10, pieces: Int?, failAt: Int? = nil) {
        self.pieceSize = pieceSize
        self.pieces = pieces
        self.failAt = failAt
    }

    struct Broken: Error {}

    func next() throws -> [UInt8]? {
        let index = record.withLock { $0.produced }
        if index == failAt { throw Broken() }
        if let pieces, index >= pieces { return nil }
        record.withLock { $0.produced += 1 }
        return [UInt8](repeating: UInt8(index % 251), count: pieceSize)
    }

    func finish(_ end: HTTPBodyEnd) {
        record.withLock {
            $0.ended = end
            $0.finishCalls += 1
        }
    }

    var produced: Int { record.withLock { $0.produced } }
    var ended: HTTPBodyEnd? { record.withLock { $0.ended } }
    var finishCalls: Int { record.withLock { $0.finishCalls } }
}

/// Routes `/stream` to whatever source the test put in the box (a new one per request when a factory).
final class SourceBox: Sendable {
    let make: @Sendable () -> PatternSource
    let made = Mutex<[PatternSource]>([])
    init(_ make: @escaping @Sendable () -> PatternSource) { self.make = make }

    var handler: @Sendable (HTTPRequest) -> HTTPHandling {
        { [self] request in
            switch request.path {
            case "/stream":
                return .offload { _ in
                    let source = self.make()
                    self.made.withLock { $0.append(source) }
                    return HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], stream: source)
                }
            default:
                return testHandler(request)
            }
        }
    }

    var sources: [PatternSource] { made.withLock { $0 } }
}

@Suite(.serialized) struct StreamedBodyTests {
    /// Reads the chunked body, checking each piece's size and fill; returns how many pieces.
    private func readPieces(_ client: RawClient, pieceSize: Int) -> (pieces: Int, complete: Bool, wellFormed: Bool) {
        var count = 0
        var wellFormed = true
        while let chunk = client.readChunk() {
            if chunk.isEmpty { return (count, true, wellFormed) }
            if chunk.count != pieceSize || chunk.first != UInt8(count % 251) || chunk.last != UInt8(count % 251) { wellFormed = false }
            count += 1
        }
        return (count, false, wellFormed)
    }

    /// 128 MB through a client that first reads nothing: the server asks for pieces only as the
    /// socket takes them, so what it produced ahead of the reader stays far below the body.
    @Test func aBodyLargerThanMemoryStreamsAtTheReadersPace() throws {
        let pieces = 2048   // × 64 KB = 128 MB
        let box = SourceBox { PatternSource(pieces: pieces) }
        try withServer(handler: box.handler) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = try #require(client.readHead())
            #expect(head.status == 200)
            #expect(head.headers["Transfer-Encoding"] == "chunked")
            #expect(head.headers["Content-Length"] == nil)
            #expect(head.headers["X-Content-Type-Options"] == "nosniff")
            let source = try #require(box.sources.first)
            // Not reading: production stops once the kernel's socket buffers and the server's
            // low-water queue are full. Wait until it has stopped.
            var last = -1
            while source.produced != last {
                last = source.produced
                usleep(300_000)
            }
            #expect(source.produced * source.pieceSize < 48 << 20, "produced \(source.produced) pieces ahead of a reader that read nothing")
            let read = readPieces(client, pieceSize: source.pieceSize)
            #expect(read.complete && read.wellFormed)
            #expect(read.pieces == pieces)
            #expect(eventually { source.ended == .completed })
            #expect(source.finishCalls == 1)
            // Keep-alive: the connection answers the next request.
            try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.text == "ok")
        }
    }

    /// A client that goes away mid-stream gives back its connection and its stream slot, and the
    /// source hears that the client is gone (an endless source: nothing else would end it).
    @Test func aClientThatDisconnectsMidStreamFreesTheConnection() throws {
        let box = SourceBox { PatternSource(pieces: nil) }
        try withServer(handler: box.handler) { server in
            do {
                let client = try RawClient(port: server.port)
                try client.send("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n")
                _ = try #require(client.readHead())
                for _ in 0..<4 { _ = try #require(client.readChunk()) }
                #expect(server.liveCounts.streams == 1)
            }   // the client's socket closes here, with unread bytes: the kernel resets it
            let source = try #require(box.sources.first)
            #expect(eventually { server.liveCounts == (0, 0) }, "\(server.liveCounts)")
            #expect(eventually { source.ended == .clientGone })
            #expect(source.finishCalls == 1)
        }
    }

    /// HTTP/1.0 has no chunked coding: the raw bytes, then the connection closes.
    @Test func http10ClientsGetTheRawBodyUntilClose() throws {
        let box = SourceBox { PatternSource(pieceSize: 1000, pieces: 5) }
        try withServer(handler: box.handler) { server in
            for request in ["GET /stream HTTP/1.0\r\n\r\n", "GET /stream HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"] {
                let client = try RawClient(port: server.port)
                try client.send(request)
                let head = try #require(client.readHead())
                #expect(head.status == 200)
                #expect(head.headers["Transfer-Encoding"] == nil && head.headers["Content-Length"] == nil)
                #expect(head.headers["Connection"] == "close")
                let body = client.readToEnd()
                #expect(client.peerClosed)
                #expect(body == (0..<5).flatMap { [UInt8](repeating: UInt8($0), count: 1000) })
            }
            #expect(eventually { box.sources.allSatisfy { $0.ended == .completed } })
        }
    }

    /// HEAD gets the head a GET would (chunked), no body, and the source is never asked.
    @Test func headGetsTheHeadOnlyAndNeverStartsTheSource() throws {
        let box = SourceBox { PatternSource(pieces: 3) }
        try withServer(handler: box.handler) { server in
            let client = try RawClient(port: server.port)
            try client.send("HEAD /stream HTTP/1.1\r\nHost: t\r\n\r\nGET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = try #require(client.readResponse(head: true))
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.headers["Transfer-Encoding"] == "chunked")
            #expect(client.readResponse()?.text == "ok")
            let source = try #require(box.sources.first)
            #expect(source.produced == 0)
            #expect(source.ended == .notSent)
            #expect(server.liveCounts.streams == 0)
        }
    }

    /// Beyond `maxConcurrentStreams`, 503 with Retry-After; the slot is free again once a stream ends.
    @Test func streamsBeyondTheCapGet503() throws {
        let box = SourceBox { PatternSource(pieces: nil) }
        try withServer({ $0.maxConcurrentStreams = 1 }, handler: box.handler) { server in
            do {
                let first = try RawClient(port: server.port)
                try first.send("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect(first.readHead()?.status == 200)
                let second = try RawClient(port: server.port)
                try second.send("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n")
                let refused = try #require(second.readResponse())
                #expect(refused.status == 503 && refused.headers["Retry-After"] == "1")
                #expect(box.sources.count == 2 && box.sources[1].ended == .notSent && box.sources[1].produced == 0)
            }
            #expect(eventually { server.liveCounts.streams == 0 })
            let third = try RawClient(port: server.port)
            try third.send("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(third.readHead()?.status == 200)
            #expect(third.readChunk()?.count == 64 << 10)
        }
    }

    /// A source that fails mid-way: the pieces before it, then the connection closes without the
    /// last chunk, so the client can tell the body is incomplete.
    @Test func aFailureMidStreamClosesWithoutTheLastChunk() throws {
        let box = SourceBox { PatternSource(pieceSize: 100, pieces: 10, failAt: 3) }
        try withServer(handler: box.handler) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readHead()?.status == 200)
            let read = readPieces(client, pieceSize: 100)
            #expect(read.pieces == 3 && !read.complete && read.wellFormed)
            #expect(client.waitForClose())
            let source = try #require(box.sources.first)
            guard case .failed = source.ended else {
                Issue.record("ended \(String(describing: source.ended))")
                return
            }
            #expect(eventually { server.liveCounts == (0, 0) })
        }
    }

    /// A request pipelined behind a streamed one is answered after the stream's last chunk.
    @Test func pipelinedRequestsWaitForTheStream() throws {
        let box = SourceBox { PatternSource(pieceSize: 10_000, pieces: 20) }
        try withServer(handler: box.handler) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /stream HTTP/1.1\r\nHost: t\r\n\r\nGET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readHead()?.status == 200)
            let read = readPieces(client, pieceSize: 10_000)
            #expect(read.pieces == 20 && read.complete && read.wellFormed)
            #expect(client.readResponse()?.text == "ok")
        }
    }

    @Test func chunkSizeLinesAreHex() {
        #expect(ResponseEncoder.chunkSizeLine(0) == Array("0\r\n".utf8))
        #expect(ResponseEncoder.chunkSizeLine(10) == Array("a\r\n".utf8))
        #expect(ResponseEncoder.chunkSizeLine(65536) == Array("10000\r\n".utf8))
        #expect(ResponseEncoder.chunkSizeLine(0x12ab) == Array("12ab\r\n".utf8))
    }
}
