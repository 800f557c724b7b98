import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small server written in Python (Debian's python3), started by a test: the script is written
/// into a private directory, started with that directory, a host and a port (0 = pick one), and
/// reports the port it bound by writing `port` into the directory. It can be stopped and started
/// again on the same port, which is how tests make a receiver "go down and come back".
final class ScriptServer: @unchecked Sendable {
    let directory: URL
    private let script: URL
    /// Extra environment for the script; set before `start()`.
    var environment: [String: String]
    private let lock = NSLock()
    private var process: Process?
    private(set) var port: Int
    /// The loopback address it binds (127.0.0.1 unless a test needs two servers on one port).
    let host: String

    init(name: String, source: String, environment: [String: String] = [:], host: String = "127.0.0.1",
         port: Int = 0) throws {
        self.host = host
        self.port = port
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("aasa-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        script = directory.appendingPathComponent("\(name).py")
        try Data(source.utf8).write(to: script)
        self.environment = environment
    }

    /// Debian's interpreter first: that is where python3-aiosmtpd lives (a pyenv python may not have it).
    static var python: String {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
    }

    /// Waits up to `timeout` for the port file: generous, as Python importing aiosmtpd on a slow,
    /// loaded machine must not fail a test.
    func start(timeout: Duration = .seconds(60)) throws {
        lock.lock()
        defer { lock.unlock() }
        guard process == nil else { return }
        let portFile = directory.appendingPathComponent("port")
        try? FileManager.default.removeItem(at: portFile)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.python)
        p.arguments = [script.path, directory.path, host, String(port)]
        var env = ProcessInfo.processInfo.environment
        env["PYTHONUNBUFFERED"] = "1"
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let log = directory.appendingPathComponent("server.log")
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        try? handle.close()  // the child holds its own copy
        process = p
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOf: portFile, encoding: .utf8),
               let bound = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                port = bound
                return
            }
            if !p.isRunning { break }
            usleep(20_000)
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        if p.isRunning { p.terminate(); p.waitUntilExit() }
        process = nil
        throw ScriptServerError(message: "\(script.lastPathComponent) did not start: \(output.suffix(2000))")
    }

    /// Stops the server (SIGTERM, then SIGKILL); the port is kept for the next `start()`.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard let p = process else { return }
        process = nil
        if p.isRunning {
            kill(p.processIdentifier, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(5)
            while p.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        }
        p.waitUntilExit()
    }

    var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return process?.isRunning ?? false
    }

    func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        stop()
        removeFiles()
    }
}

struct ScriptServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Polls `condition` until it holds or the deadline passes (no blind sleeps in tests). Meant for
/// what must happen, so the default deadline is generous: a passing test never reaches it.
public func waitUntil(timeout: Duration = .seconds(60), poll: Duration = .milliseconds(20),
                      _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        usleep(UInt32(poll.components.attoseconds / 1_000_000_000_000) + UInt32(poll.components.seconds * 1_000_000))
    }
}
