import Glibc

/// Where access log lines go. Lines look like
/// `127.0.0.1 "GET /healthz HTTP/1.1" 200 2 0.081ms` (remote, request, status, body bytes, duration
/// from the request's last byte to its response being queued).
public enum HTTPAccessLog: Sendable {
    case standardError
    /// An open file descriptor the server writes to (it does not close it).
    case fileDescriptor(Int32)
    /// Batches of lines, each ending in a newline; called on an event-loop thread, keep it quick.
    case custom(@Sendable (String) -> Void)
    case disabled
}

/// One event loop's access log: lines are appended to a buffer and written in batches (when it
/// grows past a few KB, and at every timer tick), so logging costs no system call per request.
struct AccessLogBuffer {
    private let sink: HTTPAccessLog
    private var buffer: [UInt8] = []
    private static let flushThreshold = 16 << 10

    init(sink: HTTPAccessLog) {
        self.sink = sink
        if case .disabled = sink {} else { buffer.reserveCapacity(AccessLogBuffer.flushThreshold + 1024) }
    }

    var isEnabled: Bool {
        if case .disabled = sink { return false }
        return true
    }

    mutating func record(remote: String, method: HTTPMethod, target: String, version: HTTPVersion,
                         status: Int, bytes: Int, nanoseconds: UInt64) {
        guard isEnabled else { return }
        buffer.append(contentsOf: remote.utf8)
        buffer.append(contentsOf: [32, 34])
        buffer.append(contentsOf: method.rawValue.utf8)
        buffer.append(32)
        // The target is client data: keep the line one line and printable.
        for c in target.utf8.prefix(2048) { buffer.append(c < 32 || c == 34 || c == 127 ? 63 : c) }
        buffer.append(contentsOf: version == .http1_1 ? AccessLogBuffer.http11 : AccessLogBuffer.http10)
        appendDecimal(status, to: &buffer)
        buffer.append(32)
        appendDecimal(bytes, to: &buffer)
        buffer.append(32)
        let micros = Int(nanoseconds / 1000)
        appendDecimal(micros / 1000, to: &buffer)
        buffer.append(46)
        let fraction = micros % 1000
        buffer.append(UInt8(48 + fraction / 100))
        buffer.append(UInt8(48 + (fraction / 10) % 10))
        buffer.append(UInt8(48 + fraction % 10))
        buffer.append(contentsOf: AccessLogBuffer.millisecondsSuffix)
        if buffer.count >= AccessLogBuffer.flushThreshold { flush() }
    }

    /// Like `record`, for a request that could not be parsed (no method or target known).
    mutating func recordRejected(remote: String, status: Int, nanoseconds: UInt64) {
        guard isEnabled else { return }
        buffer.append(contentsOf: remote.utf8)
        buffer.append(contentsOf: Array(" \"-\" ".utf8))
        appendDecimal(status, to: &buffer)
        buffer.append(contentsOf: Array(" 0 0.000ms\n".utf8))
        if buffer.count >= AccessLogBuffer.flushThreshold { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        switch sink {
        case .standardError: write(all: 2)
        case .fileDescriptor(let fd): write(all: fd)
        case .custom(let body): body(String(decoding: buffer, as: UTF8.self))
        case .disabled: break
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func write(all fd: Int32) {
        buffer.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, base + offset, raw.count - offset)
                if n > 0 { offset += n } else if n == -1 && errno == EINTR { continue } else { return }
            }
        }
    }

    private static let http11: [UInt8] = Array(" HTTP/1.1\" ".utf8)
    private static let http10: [UInt8] = Array(" HTTP/1.0\" ".utf8)
    private static let millisecondsSuffix: [UInt8] = Array("ms\n".utf8)
}
