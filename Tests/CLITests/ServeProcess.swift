import Foundation
import Glibc

/// `aasa-monitor serve` started as a real process on port 0: waits for its "listening on" line,
/// answers HTTP GETs over a real socket, and is stopped with SIGTERM (killed if a test fails first).
final class ServeProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let process = Process()
    private let scratch: ScratchDirectory
    private let stdoutURL: URL
    private let stderrURL: URL

    init(arguments: [String], environment: [String: String] = [:]) throws {
        scratch = try ScratchDirectory()
        stdoutURL = scratch.url.appendingPathComponent("stdout")
        stderrURL = scratch.url.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = try BuiltCommand.executableURL()
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0"] + arguments
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "DATABASE_URL")
        merged.removeValue(forKey: "AASA_MONITOR_DATA_DIR")
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var standardError: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// The port from the "aasa-monitor listening on http://127.0.0.1:PORT" line.
    func waitForPort(timeout: Duration = .seconds(120)) throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let output = (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
            if let line = output.split(separator: "\n").first(where: { $0.contains("listening on http://") }),
               let colon = line.lastIndex(of: ":"), let port = Int(line[line.index(after: colon)...]) {
                return port
            }
            guard process.isRunning else {
                throw Failure(description: "serve exited with \(process.terminationStatus) before listening:\n\(standardError)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure(description: "serve did not report its port within \(timeout):\n\(standardError)")
    }

    /// SIGTERM, then the exit status once it has finished shutting down.
    func terminate(timeout: Duration = .seconds(60)) throws -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else { throw Failure(description: "serve did not stop within \(timeout) of SIGTERM") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return process.terminationStatus
    }
}

/// One HTTP/1.1 request (GET unless told) over a fresh TCP connection to 127.0.0.1 (Connection: close, read to EOF).
struct PlainHTTPResponse {
    var status: Int
    var body: String

    static func get(port: Int, path: String, headers: [String] = [], method: String = "GET", body: String = "") throws -> PlainHTTPResponse {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServeProcess.Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        // Only ends a wait for an answer that must come: generous for a slow, loaded machine.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw ServeProcess.Failure(description: "connect to port \(port): errno \(errno)") }
        let extra = headers.map { $0 + "\r\n" }.joined()
        let length = body.isEmpty ? "" : "Content-Length: \(body.utf8.count)\r\n"
        let request = Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\(extra)\(length)\r\n\(body)".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw ServeProcess.Failure(description: "send: errno \(errno)")
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n"), let statusLine = text.split(separator: "\r\n").first else {
            throw ServeProcess.Failure(description: "no HTTP response: \(text.prefix(200))")
        }
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw ServeProcess.Failure(description: "bad status line \(statusLine)") }
        return PlainHTTPResponse(status: status, body: String(text[headEnd.upperBound...]))
    }
}
