import ArgumentParser
import Foundation
import Glibc
import Monitor
import Store
import TextEncoding

/// `--log-format`: the lines `serve` and `worker` write to standard error, as text (the default) or
/// as one JSON object per line for log shippers (Loki, Elasticsearch, CloudWatch, journald's JSON).
enum LogFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}

struct LogOptions: ParsableArguments {
    @Option(name: .customLong("log-format"),
            help: "text, or json: one object per line (time, level, event, message; domain and check_id on check events). Default: env AASA_MONITOR_LOG_FORMAT, else text.")
    var format: LogFormat?

    var resolved: LogFormat {
        get throws {
            if let format { return format }
            guard let text = ProcessInfo.processInfo.environment["AASA_MONITOR_LOG_FORMAT"], !text.isEmpty else { return .text }
            guard let format = LogFormat(rawValue: text.lowercased()) else {
                throw ValidationError("AASA_MONITOR_LOG_FORMAT must be text or json, not \(text)")
            }
            return format
        }
    }
}

/// Where the process's log lines go. In JSON mode standard error becomes a pipe read by one thread,
/// so every line — whichever module wrote it, the HTTP access log included — leaves as one JSON
/// object on the real standard error; the events this type writes itself (a check that changed
/// something, a failed check) carry their fields (`domain`, `check_id`, …) as members.
final class EventLog: @unchecked Sendable {
    let format: LogFormat
    /// The real standard error (a duplicate of fd 2 taken before the pipe replaced it).
    private let output: Int32
    /// Serialises whole lines from the reader thread and from `event`.
    private let lock = NSLock()
    private var reader: Thread?
    private let drained = DispatchSemaphore(value: 0)

    private init(format: LogFormat, output: Int32) {
        self.format = format
        self.output = output
    }

    /// Text: nothing changes. JSON: fd 2 is redirected into a pipe whose lines are re-encoded.
    static func start(_ format: LogFormat) -> EventLog {
        guard format == .json else { return EventLog(format: .text, output: 2) }
        let saved = dup(2)
        var fds: [Int32] = [0, 0]
        guard saved >= 0, pipe(&fds) == 0, dup2(fds[1], 2) >= 0 else {
            // Cannot redirect: still JSON for our own events, on the real standard error.
            return EventLog(format: .json, output: 2)
        }
        close(fds[1])
        // Only fd 2 is for children; the pipe's read end and the saved descriptor stay ours.
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(saved, F_SETFD, FD_CLOEXEC)
        let log = EventLog(format: .json, output: saved)
        let readEnd = fds[0]
        let thread = Thread {
            log.pump(readEnd)
            log.drained.signal()
        }
        thread.name = "log-json"
        thread.start()
        log.reader = thread
        return log
    }

    /// Before the process exits: fd 2 goes back to the real standard error, which closes the pipe, and
    /// the lines still in it are written out, so the last ones ("stopping …") are not lost.
    func finish() {
        guard reader != nil else { return }
        reader = nil
        dup2(output, 2)
        // Bounded: should any other process hold the pipe open, exiting beats waiting for it.
        _ = drained.wait(timeout: .now() + 5)
    }

    /// Reads lines written to fd 2 until every writer is gone, and writes each as an object.
    private func pump(_ fd: Int32) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            pending += chunk[0..<n]
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if !line.isEmpty { write(Self.object(wrapping: line, at: Date())) }
            }
        }
        if !pending.isEmpty { write(Self.object(wrapping: String(decoding: pending, as: UTF8.self), at: Date())) }
    }

    /// A structured event, written in JSON mode only: in text mode the modules' own lines say it.
    func event(_ event: String, level: String = "info", message: String, domain: String? = nil, checkID: Int64? = nil,
               fields: [(String, JSONField)] = []) {
        guard format == .json else { return }
        var members: [(String, JSONField)] = []
        if let domain { members.append(("domain", .string(domain))) }
        if let checkID { members.append(("check_id", .integer(Int(checkID)))) }
        write(Self.object(time: Date(), level: level, event: event, message: message, members: members + fields))
    }

    /// The scheduler's observer: one event per check that changed something (it has a check id in
    /// the history). A check that could not be made is already the scheduler's own error line.
    func checkFinished(_ domain: LeasedDomain, _ result: Result<CheckPipeline.Result, any Error>) {
        guard case .success(let r) = result, case .recorded(let checkID?, _, let deliveries) = r.outcome else { return }
        let verdict = r.step.check.verdict.rawValue
        event("check.changed", message: "\(domain.host): \(verdict)", domain: domain.host.ascii, checkID: checkID,
              fields: [("verdict", .string(verdict)), ("deliveries", .integer(deliveries))])
    }

    private func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        lock.lock()
        defer { lock.unlock() }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }

    enum JSONField {
        case string(String), integer(Int)
        var json: String {
            switch self {
            case .string(let s): EventLog.quoted(s)
            case .integer(let n): String(n)
            }
        }
    }

    static func object(time: Date, level: String, event: String, message: String, members: [(String, JSONField)]) -> String {
        var parts = ["\"time\":\(quoted(timestamp(time)))", "\"level\":\(quoted(level))", "\"event\":\(quoted(event))"]
        parts += members.map { "\(quoted($0.0)):\($0.1.json)" }
        parts.append("\"message\":\(quoted(message))")
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// A line some module wrote as text: the access log's fields pulled out, a `scheduler:`-style
    /// prefix as the event, the level read from the words (`error:`, `failed`, `warning`).
    static func object(wrapping line: String, at time: Date) -> String {
        if let access = line.wholeMatch(of: #/(\S+) "(\S+) (\S*) HTTP/1\.[01]" (\d{3}) (\d+) ([0-9.]+)ms/#) {
            let status = Int(access.4) ?? 0
            return object(time: time, level: status >= 500 ? "error" : "info", event: "http.request", message: line, members: [
                ("remote", .string(String(access.1))), ("method", .string(String(access.2))), ("target", .string(String(access.3))),
                ("status", .integer(status)), ("bytes", .integer(Int(access.5) ?? 0)), ("duration_ms", .string(String(access.6))),
            ])
        }
        var event = "log", message = line
        if let prefix = line.firstMatch(of: #/^([a-z][a-z0-9-]*): /#) {
            event = String(prefix.1)
            message = String(line[prefix.range.upperBound...])
            if event == "aasa-monitor" { event = "log" }
        }
        var members: [(String, JSONField)] = []
        if let failed = message.firstMatch(of: #/^checking (\S+) failed: /#) { members.append(("domain", .string(String(failed.1)))) }
        let lower = message.lowercased()
        let level = lower.hasPrefix("error") || lower.contains("failed") ? "error" : (lower.hasPrefix("warning") ? "warning" : "info")
        return object(time: time, level: level, event: event, message: message, members: members)
    }

    /// RFC 3339 in UTC with milliseconds, as log shippers parse it.
    static func timestamp(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(millis / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(millis % 1000))
    }

    static func quoted(_ text: String) -> String { JSONStringLiteral.quoted(text) }
}
