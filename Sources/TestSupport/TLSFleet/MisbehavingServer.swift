import Foundation
import Glibc
import HTTP

/// The fleet's odd servers that nginx cannot play, each on its own loopback port:
/// - `hang`: accepts the connection and never sends a byte (no TLS handshake, no answer);
/// - `reset`: accepts, waits for the client's first bytes, then resets the connection (RST via SO_LINGER 0);
/// - `drip`: a plain-HTTP upstream (nginx terminates TLS in front of it) that sends a response
///   head and then one body byte per second.
public final class MisbehavingServer: @unchecked Sendable {
    public enum Behaviour: Sendable { case hang, reset, drip }

    public let behaviour: Behaviour
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    private var held: [Int32] = []
    private var threads = 0
    private var accepted = 0

    /// Connections accepted so far.
    public var acceptedConnections: Int {
        lock.lock()
        defer { lock.unlock() }
        return accepted
    }
    private let idle = NSCondition()

    /// Held connections the client has not closed yet: what "the server never sees more than N at
    /// once" means (`acceptedConnections` only grows). Reading discards what the client sent, so a
    /// close behind an unread ClientHello is seen too.
    public var openConnections: Int {
        lock.lock()
        defer { lock.unlock() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        held.removeAll { fd in
            while true {
                let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if n > 0 { continue }
                if n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return false }
                close(fd)   // 0: the client closed; < 0: it reset
                return true
            }
        }
        return held.count
    }

    public init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError(call: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            // errno first: close may overwrite it. Every errno is reported as itself, not mapped.
            let error = SystemCallError(call: bound == 0 ? "listen" : "bind", code: errno)
            close(fd)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        spawn { [self] in acceptLoop() }
    }

    /// Closes the listener and every held connection, and waits for the threads to end.
    public func stop() {
        lock.lock()
        stopped = true
        let connections = held
        held.removeAll()
        lock.unlock()
        for fd in connections { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
        idle.lock()
        while threads > 0 { _ = idle.wait(until: Date().addingTimeInterval(0.2)) }
        idle.unlock()
        close(listener)
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func spawn(_ body: @escaping @Sendable () -> Void) {
        idle.lock()
        threads += 1
        idle.unlock()
        let thread = Thread { [self] in
            body()
            idle.lock()
            threads -= 1
            idle.broadcast()
            idle.unlock()
        }
        thread.start()
    }

    /// Waits up to 100 ms for `fd` to be readable, so loops notice `stop()` promptly.
    private func readable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 100) > 0
    }

    private func acceptLoop() {
        while !isStopped {
            guard readable(listener) else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            lock.lock()
            accepted += 1
            lock.unlock()
            switch behaviour {
            case .hang:
                lock.lock()
                held.append(fd)
                lock.unlock()
            case .reset:
                // Wait for the client's first bytes (the TLS ClientHello) so the reset lands
                // mid-exchange rather than looking like a refused connection.
                var waited = 0
                while !readable(fd), waited < 20 { waited += 1 }
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                close(fd)
            case .drip:
                spawn { [self] in drip(fd) }
            }
        }
    }

    private func drip(_ fd: Int32) {
        defer { close(fd) }   // this thread owns the connection; stop() makes it return within 100 ms
        // Read the request head, then answer slowly.
        var buffer = [UInt8](repeating: 0, count: 4096)
        var request: [UInt8] = []
        while !isStopped, !request.containsHeadEnd {
            guard readable(fd) else { continue }
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return }
            request += buffer[0..<n]
        }
        let body = Array(#"{"applinks":{"details":[]}}"#.utf8)
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        guard send(fd, head, head.utf8.count, Int32(MSG_NOSIGNAL)) > 0 else { return }
        for byte in body {
            let next = Date().addingTimeInterval(1)
            while !isStopped, Date() < next { usleep(50_000) }
            if isStopped { return }
            var b = byte
            if send(fd, &b, 1, Int32(MSG_NOSIGNAL)) != 1 { return }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate var containsHeadEnd: Bool {
        guard count >= 4 else { return false }
        for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 {
            return true
        }
        return false
    }
}
