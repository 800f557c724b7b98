// The processes the campaign runs and watches: aasa-monitor's serve and workers, the slow-drip upstream.
import Foundation
import Glibc

/// A process's memory from /proc/PID/status, in kB: VmRSS (now) and VmHWM (its peak).
struct ProcessMemory {
    var rss = 0, peak = 0

    init?(pid: Int32) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })   // "VmRSS:\t   1234 kB"
            guard parts.count >= 2, let kB = Int(parts[1]) else { continue }
            if parts[0] == "VmRSS:" { rss = kB } else if parts[0] == "VmHWM:" { peak = kB }
        }
    }
}

/// The 1-minute load average, from /proc/loadavg.
func loadAverage() -> Double {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return Double(text.split(separator: " ").first ?? "") ?? 0
}

/// Starts aasa-monitor subcommands with their output in `logs/NAME.out` and `.err`.
struct Launcher {
    var binary: URL
    var logs: URL
    var environment: [String: String]

    func launch(_ name: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        for suffix in ["out", "err"] {
            let file = logs.appendingPathComponent("\(name).\(suffix)")
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            let handle = try FileHandle(forWritingTo: file)
            if suffix == "out" { process.standardOutput = handle } else { process.standardError = handle }
        }
        try process.run()
        return process
    }
}

/// A plain-HTTP upstream for the fleet's `drip…` hosts (nginx terminates TLS in front of it). While its
/// mode file says `drip` it answers 200 with a Content-Length of 100,000 and sends one byte a second, so
/// a fetch runs into its timeout; otherwise it answers the good file at once. It exits when its parent does.
final class DripServer {
    let port: Int
    private let process: Process
    private let modeFile: URL

    init(directory: URL, goodFile: [UInt8]) throws {
        modeFile = directory.appendingPathComponent("drip-mode")
        let good = directory.appendingPathComponent("drip-good.json")
        try Data(goodFile).write(to: good)
        try Data().write(to: modeFile)
        let script = """
            import os, sys, threading, time
            from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
            mode_file, good = sys.argv[1], open(sys.argv[2], 'rb').read()
            parent = os.getppid()
            class Handler(BaseHTTPRequestHandler):
                def log_message(self, *args): pass
                def do_GET(self):
                    try: mode = open(mode_file).read().strip()
                    except OSError: mode = ''
                    if mode != 'drip':
                        self.send_response(200); self.send_header('Content-Type', 'application/json')
                        self.send_header('Content-Length', str(len(good))); self.end_headers(); self.wfile.write(good); return
                    self.send_response(200); self.send_header('Content-Type', 'application/json')
                    self.send_header('Content-Length', '100000'); self.end_headers()
                    try:
                        for _ in range(100000):
                            self.wfile.write(b' '); self.wfile.flush(); time.sleep(1)
                    except OSError: pass
            class Server(ThreadingHTTPServer):
                daemon_threads = True
                request_queue_size = 128
            server = Server(('127.0.0.1', 0), Handler)
            print(server.server_address[1], flush=True)
            def watch():
                while os.getppid() == parent: time.sleep(1)
                os._exit(0)
            threading.Thread(target=watch, daemon=True).start()
            server.serve_forever()
            """
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, modeFile.path, good.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw CampaignError("the drip server did not start")
        }
        self.port = port
    }

    func drip(_ on: Bool) throws { try Data((on ? "drip" : "").utf8).write(to: modeFile) }

    func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }
}

struct CampaignError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
