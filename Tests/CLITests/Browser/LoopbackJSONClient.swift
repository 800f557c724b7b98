import Foundation
import Glibc

/// One blocking HTTP/1.1 exchange with a JSON body over a fresh TCP connection to 127.0.0.1
/// (chromedriver's protocol). Blocking on purpose: the browser test is synchronous, so no call
/// here ever waits for a task of the (two-thread) cooperative pool.
struct LoopbackJSONClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int

    /// Sends `body` (a JSON object, or nothing) and returns the decoded JSON response and its status.
    func send(_ method: String, _ path: String, body: [String: Any]? = nil,
              timeout: Duration = .seconds(60)) throws -> (status: Int, json: [String: Any]) {
        let deadline = ContinuousClock.now + timeout
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if body != nil { head += "Content-Type: application/json; charset=utf-8\r\n" }
        head += "Content-Length: \(payload.count)\r\n\r\n"

        let fd = try connectLoopback()
        defer { close(fd) }
        try write(Array(head.utf8) + Array(payload), to: fd, deadline: deadline)
        let response = try readToEnd(fd, deadline: deadline, what: "\(method) \(path)")

        guard let split = response.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw Failure(description: "\(method) \(path): no HTTP header in \(response.count) bytes")
        }
        let header = String(decoding: response[..<split.lowerBound], as: UTF8.self)
        let statusParts = header.split(separator: "\r\n").first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "\(method) \(path): bad status line in \(header.prefix(200))")
        }
        let bodyBytes = response[split.upperBound...]
        guard !bodyBytes.isEmpty else { return (status, [:]) }
        guard let json = try JSONSerialization.jsonObject(with: Data(bodyBytes)) as? [String: Any] else {
            throw Failure(description: "\(method) \(path): the answer is not a JSON object")
        }
        return (status, json)
    }

    private func connectLoopback() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(error)")
        }
        return fd
    }

    private func write(_ bytes: [UInt8], to fd: Int32, deadline: ContinuousClock.Instant) throws {
        var offset = 0
        while offset < bytes.count {
            try waitFor(fd, events: Int16(POLLOUT), deadline: deadline, what: "sending")
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads until the peer closes (we asked for Connection: close) or the Content-Length is in.
    private func readToEnd(_ fd: Int32, deadline: ContinuousClock.Instant, what: String) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var expectedTotal: Int?
        while expectedTotal.map({ received.count < $0 }) ?? true {
            try waitFor(fd, events: Int16(POLLIN), deadline: deadline, what: what)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw Failure(description: "\(what): recv errno \(errno)")
            }
            received += chunk[0..<count]
            if expectedTotal == nil, let split = received.firstRange(of: Array("\r\n\r\n".utf8)) {
                let header = String(decoding: received[..<split.lowerBound], as: UTF8.self).lowercased()
                if let line = header.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                   let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) {
                    expectedTotal = split.upperBound + length
                }
            }
        }
        return received
    }

    private func waitFor(_ fd: Int32, events: Int16, deadline: ContinuousClock.Instant, what: String) throws {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw Failure(description: "\(what): no answer from chromedriver in time") }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1000 + 1, 1000))
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw Failure(description: "\(what): poll errno \(errno)") }
        }
    }
}
