import Glibc
@testable import HTTP

/// A blocking TCP client speaking raw bytes, so tests control exactly what goes on the wire
/// (pipelining, trickling, garbage). Every read has a timeout so a broken server fails the test
/// instead of hanging it.
final class RawClient {
    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var peerClosed = false

    init(port: Int, receiveTimeoutSeconds: Int = 60) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError(call: "socket", code: errno) }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SystemCallError(call: "connect", code: code)
        }
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw SystemCallError(call: "send", code: errno) }
            offset += n
        }
    }

    /// Reads more bytes into the buffer; false on EOF, timeout or error.
    @discardableResult
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
        if n == 0 { peerClosed = true }
        return false
    }

    /// The next response on the connection; nil when the connection ended or timed out first.
    /// `head` true means the response to a HEAD request (no body whatever Content-Length says).
    func readResponse(head: Bool = false) -> Response? {
        guard var response = readHead() else { return nil }
        let status = response.status
        let length = (head || status == 304 || status < 200) ? 0 : Int(response.headers["Content-Length"] ?? "0") ?? 0
        while buffer.count < length {
            guard fill() else { return nil }
        }
        response.body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return response
    }

    /// True when the server closes the connection (EOF) before `seconds` pass, having sent
    /// nothing more. Only for closes that must happen: a passing test never waits the whole time.
    func waitForClose(seconds: Int = 60) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while fill() {}
        return peerClosed
    }

    /// The head of the next response, its body left unread (for streamed bodies).
    func readHead() -> Response? {
        while true {
            if let end = findHeadEnd() {
                let headText = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false)
                let parts = lines.removeFirst().split(separator: " ")
                guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
                var headers = HTTPHeaders()
                for line in lines where !line.isEmpty {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers.add(name: String(line[..<colon]), value: String(line[line.index(after: colon)...]).trimmingCharacters())
                }
                buffer.removeFirst(end + 4)
                return Response(status: status, headers: headers, body: [])
            }
            guard fill() else { return nil }
        }
    }

    /// The next chunk of a chunked body: its bytes, empty for the last chunk (trailer consumed),
    /// nil when the connection ended or the framing is wrong.
    func readChunk() -> [UInt8]? {
        while true {
            if let lineEnd = findCRLF(from: 0) {
                guard let size = Int(String(decoding: buffer[0..<lineEnd], as: UTF8.self), radix: 16) else { return nil }
                let dataStart = lineEnd + 2
                if size == 0 {
                    while buffer.count < dataStart + 2 { guard fill() else { return nil } }
                    guard buffer[dataStart] == 13, buffer[dataStart + 1] == 10 else { return nil }
                    buffer.removeFirst(dataStart + 2)
                    return []
                }
                while buffer.count < dataStart + size + 2 { guard fill() else { return nil } }
                guard buffer[dataStart + size] == 13, buffer[dataStart + size + 1] == 10 else { return nil }
                let chunk = Array(buffer[dataStart..<(dataStart + size)])
                buffer.removeFirst(dataStart + size + 2)
                return chunk
            }
            guard fill() else { return nil }
        }
    }

    /// Everything until the peer closes (an HTTP/1.0 body without a length).
    func readToEnd() -> [UInt8] {
        while fill() {}
        defer { buffer = [] }
        return buffer
    }

    private func findCRLF(from start: Int) -> Int? {
        guard buffer.count >= start + 2 else { return nil }
        for i in start...(buffer.count - 2) where buffer[i] == 13 && buffer[i + 1] == 10 { return i }
        return nil
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }
}

extension String {
    func trimmingCharacters() -> String {
        String(Substring(self).trimmingSpaces())
    }
}

/// Starts a server on a free port with the access log captured, runs `body`, then shuts it
/// down and waits for its threads to end (also when `body` throws).
func withServer(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
                handler: @escaping @Sendable (HTTPRequest) -> HTTPHandling,
                _ body: (HTTPServer) throws -> Void) throws {
    var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.accessLog = .disabled
    configuration.eventLoopCount = 2
    configuration.workerCount = 4
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, handler: handler)
    try server.start()
    defer {
        server.shutdown()
        server.wait()
    }
    try body(server)
}

/// Polls `condition` every 10 ms until it holds or `seconds` pass. Only for things that must
/// happen, so the deadline is generous: a passing test never reaches it.
func eventually(seconds: Double = 60, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicNanoseconds() + UInt64(seconds * 1e9)
    while monotonicNanoseconds() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// A flag that a handler on a worker thread waits on and a test releases.
final class Gate: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var opened = false
    private var arrivals = 0

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    /// Called by the handler: records its arrival and blocks until `open()`.
    func pass() {
        pthread_mutex_lock(mutex)
        arrivals += 1
        pthread_cond_broadcast(condition)
        while !opened { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    var arrived: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return arrivals
    }

    func open() {
        pthread_mutex_lock(mutex)
        opened = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
