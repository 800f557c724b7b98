import Glibc
import Synchronization
import Testing
@testable import HTTP

@Suite(.serialized) struct HTTPServerRobustnessTests {
    @Test func slowClientIsCutOffByReadTimeoutWhileOthersAreServed() throws {
        try withServer({ $0.readTimeout = .milliseconds(800) }, handler: testHandler) { server in
            let slow = try RawClient(port: server.port)
            let request = Array("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n".utf8)
            var sent = 0
            var fastServed = 0
            // One byte every 100 ms would need ~3.5 s; the timeout is 0.8 s.
            while sent < request.count {
                guard (try? slow.send([request[sent]])) != nil else { break }
                sent += 1
                let fast = try RawClient(port: server.port)
                try fast.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                if fast.readResponse()?.status == 200 { fastServed += 1 }
                usleep(100_000)
                if sent > 20 { break }
            }
            #expect(sent < request.count)
            #expect(fastServed >= 1)
            let r = try #require(slow.readResponse())
            #expect(r.status == 408)
            #expect(slow.waitForClose())
        }
    }

    @Test func idleKeepAliveConnectionsAreClosed() throws {
        try withServer({ $0.idleTimeout = .milliseconds(300) }, handler: testHandler) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try #require(client.readResponse()).status == 200)
            #expect(client.waitForClose())
        }
    }

    @Test func thousandIdleConnectionsDoNotBlockANewClient() throws {
        // Each connection costs two descriptors here (client and server end): raise the soft
        // limit as far as the hard one allows, and only if even that is too low, use fewer.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 4096 {
            limit.rlim_cur = min(limit.rlim_max, 4096)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        let count = min(1000, (Int(limit.rlim_cur) - 200) / 2)
        try withServer(handler: testHandler) { server in
            var idle: [RawClient] = []
            for _ in 0..<count { idle.append(try RawClient(port: server.port)) }
            // Half of them even started a request and stalled.
            for client in idle.prefix(count / 2) { try client.send("GET /healthz HTTP/1.1\r\n") }
            let fresh = try RawClient(port: server.port)
            try fresh.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            let r = try #require(fresh.readResponse())
            #expect(r.status == 200)
            // The idle ones are still being served too.
            try idle[count - 1].send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(idle[count - 1].readResponse()?.status == 200)
            try idle[0].send("Host: t\r\n\r\n")
            #expect(idle[0].readResponse()?.status == 200)
        }
    }

    @Test func connectionsBeyondTheLimitGet503() throws {
        try withServer({ $0.maxConnections = 3 }, handler: testHandler) { server in
            let held = try (0..<3).map { _ in try RawClient(port: server.port) }
            for client in held {
                try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect(client.readResponse()?.status == 200)
            }
            let extra = try RawClient(port: server.port)
            #expect(extra.readResponse()?.status == 503)
            #expect(extra.waitForClose())
        }
    }

    @Test func shutdownLetsTheRequestInFlightFinish() throws {
        let gate = Gate()
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.accessLog = .disabled
        let server = HTTPServer(configuration: configuration) { request in
            if request.path == "/slow" { return .offload { _ in gate.pass(); return .text("finished") } }
            return .respond(.text("ok"))
        }
        try server.start()
        let port = server.port
        let idle = try RawClient(port: port)
        try idle.send("GET /fast HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(idle.readResponse()?.status == 200)
        let client = try RawClient(port: port)
        try client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(eventually { gate.arrived == 1 })

        server.shutdown()
        // Stops accepting and drops idle keep-alive connections at once...
        #expect(idle.waitForClose())
        #expect(eventually { (try? RawClient(port: port)) == nil })
        // ...but the request in flight completes, with Connection: close.
        gate.open()
        let r = try #require(client.readResponse())
        #expect(r.text == "finished")
        #expect(r.headers["Connection"] == "close")
        #expect(client.waitForClose())
        server.wait()
    }

    @Test func sigtermShutsDownGracefully() throws {
        let gate = Gate()
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.accessLog = .disabled
        let server = HTTPServer(configuration: configuration) { _ in
            .offload { _ in gate.pass(); return .text("finished") }
        }
        try server.start()
        try server.shutdownOnSignals([SIGTERM])
        let client = try RawClient(port: server.port)
        try client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(eventually { gate.arrived == 1 })
        // The same path a real SIGTERM takes: the handler, the relay thread, shutdown().
        kill(getpid(), SIGTERM)
        #expect(eventually { (try? RawClient(port: server.port)) == nil })
        gate.open()
        #expect(client.readResponse()?.text == "finished")
        server.wait()
    }

    @Test func noFileDescriptorLeaks() throws {
        let before = openDescriptors()
        var port = 0
        try withServer({ $0.readTimeout = .milliseconds(300); $0.limits.maxBodyBytes = 100 }, handler: testHandler) { server in
            port = server.port
            for round in 0..<30 {
                let client = try RawClient(port: server.port)
                switch round % 6 {
                case 0: try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"); _ = client.readResponse()
                case 1: try client.send("garbage\r\n\r\n"); _ = client.waitForClose()
                case 2: try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n"); _ = client.readResponse()
                case 3: try client.send("GET /sleep/50 HTTP/1.1\r\nHost: t\r\n\r\n")   // hang up before the answer
                case 4: try client.send("GET /healthz HTTP/1.1\r\nHo")                   // 408 later
                default: break                                                          // connect only
                }
            }
            let last = try RawClient(port: server.port)
            try last.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(last.readResponse()?.status == 200)
        }
        // Other suites may open descriptors meanwhile, so look precisely for ours: sockets on
        // the server's port, epoll instances, and the total once things settle.
        #expect(socketInodes(localPort: port).isDisjoint(with: openDescriptors().sockets))
        #expect(eventually { openDescriptors().epolls <= before.epolls })
    }

    @Test func staticFiles() throws {
        let directory = try TemporaryDirectory()
        try directory.write("site.css", "body { color: red }")
        try directory.write("app.js", "console.log(1)")
        try directory.write("sub dir/page.html", "<p>hi</p>")
        try directory.write(".secret", "no")
        let outside = try TemporaryDirectory()
        try outside.write("private.txt", "secret")
        symlink(outside.path + "/private.txt", directory.path + "/link.txt")

        try directory.write("big.txt", String(repeating: "0123456789", count: 300))
        try withServer({ $0.publicDirectory = directory.path; $0.staticCacheMaxFileBytes = 1000 }, handler: testHandler) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /site.css HTTP/1.1\r\nHost: t\r\n\r\n")
            let css = try #require(client.readResponse())
            #expect(css.status == 200)
            #expect(css.text == "body { color: red }")
            #expect(css.headers["Content-Type"] == "text/css; charset=utf-8")
            #expect(css.headers["Cache-Control"] == "public, max-age=300")
            #expect(css.headers["X-Content-Type-Options"] == "nosniff")
            let etag = try #require(css.headers["ETag"])
            let modified = try #require(css.headers["Last-Modified"])

            try client.send("GET /site.css HTTP/1.1\r\nHost: t\r\nIf-None-Match: \"x\", \(etag)\r\n\r\n")
            let notModified = try #require(client.readResponse())
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(notModified.headers["ETag"] == etag)

            try client.send("GET /site.css HTTP/1.1\r\nHost: t\r\nIf-Modified-Since: \(modified)\r\n\r\n")
            #expect(client.readResponse()?.status == 304)
            try client.send("GET /site.css HTTP/1.1\r\nHost: t\r\nIf-None-Match: \"other\"\r\nIf-Modified-Since: \(modified)\r\n\r\n")
            #expect(client.readResponse()?.status == 200)

            try client.send("GET /app.js HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.headers["Content-Type"] == "text/javascript; charset=utf-8")
            try client.send("HEAD /sub%20dir/page.html HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = try #require(client.readResponse(head: true))
            #expect(head.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(head.headers["Content-Length"] == "9")

            // Larger than the cache limit: read on a worker, same headers.
            try client.send("GET /big.txt HTTP/1.1\r\nHost: t\r\n\r\nHEAD /big.txt HTTP/1.1\r\nHost: t\r\n\r\n")
            let big = try #require(client.readResponse())
            #expect(big.body.count == 3000)
            #expect(big.headers["Content-Type"] == "text/plain; charset=utf-8")
            #expect(client.readResponse(head: true)?.headers["Content-Length"] == "3000")

            for path in ["/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/sub%20dir/..%2f..%2fetc/passwd", "/link.txt"] {
                try client.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
                let refused = try #require(client.readResponse())
                #expect(refused.status == 400 || refused.status == 404, "\(path)")
                #expect(!refused.text.contains("secret"))
            }
            try client.send("GET /.secret HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.status == 404)
            // Not a file: the responder answers.
            try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.text == "ok")
            // Changes are picked up (the cache re-checks once a second).
            try directory.write("site.css", "body { color: blue }")
            #expect(eventually {
                (try? client.send("GET /site.css HTTP/1.1\r\nHost: t\r\n\r\n")) != nil
                    && client.readResponse()?.text == "body { color: blue }"
            })
        }
    }

    @Test func accessLogHasOneLinePerRequest() throws {
        let lines = Mutex<[String]>([])
        try withServer({ config in
            config.accessLog = .custom { batch in
                lines.withLock { $0 += batch.split(separator: "\n").map(String.init) }
            }
        }, handler: testHandler) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /healthz?x=1 HTTP/1.1\r\nHost: t\r\n\r\nGET /missing HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = client.readResponse()
            _ = client.readResponse()
            #expect(eventually { lines.withLock { $0.count } >= 2 })
            let logged = lines.withLock { $0 }
            #expect(logged.first?.hasPrefix("127.0.0.1 \"GET /healthz?x=1 HTTP/1.1\" 200 2 ") == true)
            #expect(logged.first?.hasSuffix("ms") == true)
            #expect(logged.dropFirst().first?.contains("\"GET /missing HTTP/1.1\" 404 ") == true)
        }
    }
}

/// Open descriptors of this process: socket inodes and the number of epoll instances.
func openDescriptors() -> (sockets: Set<UInt64>, epolls: Int) {
    var sockets = Set<UInt64>()
    var epolls = 0
    guard let dir = opendir("/proc/self/fd") else { return (sockets, epolls) }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var target = [CChar](repeating: 0, count: 256)
        let n = readlink("/proc/self/fd/" + name, &target, 255)
        guard n > 0 else { continue }
        let link = String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if link.hasPrefix("socket:["), let inode = UInt64(link.dropFirst(8).dropLast()) { sockets.insert(inode) }
        if link == "anon_inode:[eventpoll]" { epolls += 1 }
    }
    return (sockets, epolls)
}

/// Inodes of TCP sockets whose local port is `port` (from /proc/net/tcp and tcp6).
func socketInodes(localPort port: Int) -> Set<UInt64> {
    var inodes = Set<UInt64>()
    let hexPort = String(port, radix: 16, uppercase: true)
    let padded = String(repeating: "0", count: max(0, 4 - hexPort.count)) + hexPort
    for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let bytes = StaticFiles.readFile(file, limit: 64 << 20) else { continue }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[1].hasSuffix(":" + padded), let inode = UInt64(fields[9]) else { continue }
            inodes.insert(inode)
        }
    }
    return inodes
}

/// A directory under /tmp removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/http-tests-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemCallError(call: "mkdtemp", code: errno) }
        path = String(cString: made)
    }

    func write(_ name: String, _ text: String) throws {
        let full = path + "/" + name
        if let slash = full.lastIndex(of: "/") { mkdir(String(full[..<slash]), 0o755) }
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemCallError(call: "open", code: errno) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    deinit { TemporaryDirectory.removeTree(path) }

    private static func removeTree(_ path: String) {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." { continue }
                let child = path + "/" + name
                if entry.pointee.d_type == UInt8(DT_DIR) { removeTree(child) } else { unlink(child) }
            }
            closedir(dir)
        }
        rmdir(path)
    }
}
