import Synchronization
import Glibc
import Testing
@testable import HTTP

/// A responder like an application's: inline fixed answers, an echo, and blocking routes.
@Sendable func testHandler(_ request: HTTPRequest) -> HTTPHandling {
    switch request.path {
    case "/healthz":
        return .respond(.text("ok"))
    case "/echo":
        return .respond(HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: request.body))
    case let path where path.hasPrefix("/sleep/"):
        let milliseconds = Int(path.dropFirst(7)) ?? 0
        return .offload { request in
            usleep(UInt32(milliseconds * 1000))
            return .text("slept \(request.path)")
        }
    case "/close":
        var response = HTTPResponse.text("bye")
        response.headers.add(name: "Connection", value: "close")
        return .respond(response)
    default:
        return .respond(.status(.notFound))
    }
}

@Suite(.serialized) struct HTTPServerTests {
    @Test func servesAndKeepsAlive() throws {
        try withServer(handler: testHandler) { server in
            #expect(server.port > 0)
            let client = try RawClient(port: server.port)
            for _ in 0..<3 {
                try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                let r = try #require(client.readResponse())
                #expect(r.status == 200)
                #expect(r.text == "ok")
                #expect(r.headers["Content-Type"] == "text/plain; charset=utf-8")
                #expect(r.headers["X-Content-Type-Options"] == "nosniff")
                #expect(r.headers["X-Frame-Options"] == "DENY")
                #expect(r.headers["Referrer-Policy"] != nil)
                #expect(r.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
                #expect(r.headers["Content-Security-Policy"]?.contains("unsafe-inline") == false)
                #expect(r.headers["Date"]?.hasSuffix(" GMT") == true)
                #expect(r.headers["Connection"] == nil)
            }
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        try withServer(handler: testHandler) { server in
            let client = try RawClient(port: server.port)
            // A slow blocking route first: the inline answers after it must wait for it.
            var batch = "GET /sleep/150 HTTP/1.1\r\nHost: t\r\n\r\n"
            for i in 0..<20 {
                batch += i % 5 == 0 ? "GET /sleep/\(i) HTTP/1.1\r\nHost: t\r\n\r\n" : "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: \(String(i).utf8.count)\r\n\r\n\(i)"
            }
            batch += "HEAD /healthz HTTP/1.1\r\nHost: t\r\n\r\nGET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"
            try client.send(batch)
            let first = try #require(client.readResponse())
            #expect(first.text == "slept /sleep/150")
            for i in 0..<20 {
                let r = try #require(client.readResponse())
                #expect(r.text == (i % 5 == 0 ? "slept /sleep/\(i)" : "\(i)"))
            }
            let head = try #require(client.readResponse(head: true))
            #expect(head.status == 200)
            #expect(head.headers["Content-Length"] == "2")
            let last = try #require(client.readResponse())
            #expect(last.text == "ok")
        }
    }

    @Test func http10ClosesUnlessKeepAlive() throws {
        try withServer(handler: testHandler) { server in
            let plain = try RawClient(port: server.port)
            try plain.send("GET /healthz HTTP/1.0\r\n\r\n")
            let r = try #require(plain.readResponse())
            #expect(r.headers["Connection"] == "close")
            #expect(plain.waitForClose())

            let kept = try RawClient(port: server.port)
            try kept.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try #require(kept.readResponse()).headers["Connection"] == "keep-alive")
            try kept.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try #require(kept.readResponse()).status == 200)
        }
    }

    @Test func connectionCloseFromClientOrResponder() throws {
        try withServer(handler: testHandler) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(try #require(client.readResponse()).headers["Connection"] == "close")
            #expect(client.waitForClose())

            let other = try RawClient(port: server.port)
            try other.send("GET /close HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try #require(other.readResponse()).text == "bye")
            #expect(other.waitForClose())
        }
    }

    @Test func chunkedUploadWithExpectContinue() throws {
        try withServer(handler: testHandler) { server in
            let client = try RawClient(port: server.port)
            try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n")
            let interim = try #require(client.readResponse())
            #expect(interim.status == 100)
            try client.send("4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n")
            let r = try #require(client.readResponse())
            #expect(r.status == 200)
            #expect(r.text == "Wikipedia")
        }
    }

    @Test func garbageGets400AndClose() throws {
        try withServer(handler: testHandler) { server in
            let client = try RawClient(port: server.port)
            try client.send("\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03} not http at all\r\n\r\n")
            let r = try #require(client.readResponse())
            #expect(r.status == 400)
            #expect(r.headers["Connection"] == "close")
            #expect(client.waitForClose())
        }
    }

    @Test func oversizedHeadersGet431() throws {
        try withServer({ $0.limits.maxHeaderBytes = 4096 }, handler: testHandler) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: t\r\nCookie: " + String(repeating: "x", count: 8000) + "\r\n\r\n")
            #expect(try #require(client.readResponse()).status == 431)
            #expect(client.waitForClose())

            let many = try RawClient(port: server.port)
            var text = "GET / HTTP/1.1\r\nHost: t\r\n"
            for i in 0..<150 { text += "X-\(i): 1\r\n" }
            try many.send(text + "\r\n")
            #expect(try #require(many.readResponse()).status == 431)

            let long = try RawClient(port: server.port)
            try long.send("GET /" + String(repeating: "a", count: 10_000) + " HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try #require(long.readResponse()).status == 414)
        }
    }

    @Test func bodyOverTheLimitGets413() throws {
        try withServer({ $0.limits.maxBodyBytes = 1000 }, handler: testHandler) { server in
            let client = try RawClient(port: server.port)
            // Refused from the head alone, while the client is still sending the body.
            try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n")
            try? client.send([UInt8](repeating: 65, count: 50_000))
            #expect(try #require(client.readResponse()).status == 413)

            let chunked = try RawClient(port: server.port)
            try chunked.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
            try? chunked.send("800\r\n" + String(repeating: "b", count: 2048) + "\r\n")
            #expect(try #require(chunked.readResponse()).status == 413)
        }
    }

    @Test func headRequestsGetNoBody() throws {
        try withServer(handler: testHandler) { server in
            let client = try RawClient(port: server.port)
            try client.send("HEAD /healthz HTTP/1.1\r\nHost: t\r\n\r\nGET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = try #require(client.readResponse(head: true))
            #expect(head.headers["Content-Length"] == "2")
            #expect(head.body.isEmpty)
            // Had a body been sent for HEAD, it would be read here as the next status line.
            #expect(try #require(client.readResponse()).text == "ok")
        }
    }
}

@Suite(.serialized) struct HTTPServerConcurrencyTests {
    /// Many clients at once, each on fresh connections (dealt to both loops) with answers from
    /// workers: every request must be answered. A lost wake-up of a loop shows up here as a
    /// connection that is never served.
    @Test func everyRequestIsAnsweredUnderConcurrency() throws {
        try withServer({ $0.eventLoopCount = 2; $0.workerCount = 3 }, handler: testHandler) { server in
            let port = server.port
            let answered = Atomic<Int>(0)
            var threads: [OSThread] = []
            for t in 0..<8 {
                threads.append(try OSThread.spawn(name: "client-\(t)") {
                    for i in 0..<400 {
                        // Stop at the first unanswered request: a stuck loop would otherwise
                        // cost a receive timeout per remaining connection. The timeout is long
                        // enough that a loaded machine's scheduling delays are not taken for one.
                        guard let client = try? RawClient(port: port, receiveTimeoutSeconds: 30) else { return }
                        let path = i % 2 == 0 ? "/sleep/0" : "/healthz"
                        guard (try? client.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\nGET /sleep/0 HTTP/1.1\r\nHost: t\r\n\r\n")) != nil,
                              client.readResponse()?.status == 200, client.readResponse()?.status == 200
                        else { return }
                        answered.add(1, ordering: .relaxed)
                    }
                })
            }
            for thread in threads { thread.join() }
            #expect(answered.load(ordering: .relaxed) == 8 * 400)
        }
    }
}
