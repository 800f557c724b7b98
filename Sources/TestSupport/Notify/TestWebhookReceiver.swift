import Foundation

/// A real HTTP server of the test suite's own that records every request it receives (method,
/// path, headers, body, arrival time) and answers with a status the test chooses: 200 by default,
/// 500 or 410 on request, or nothing at all when stopped ("down"). Restarts on the same port.
public final class TestWebhookReceiver: Sendable {
    public struct Request: Sendable, Equatable {
        public var method: String
        public var path: String
        /// Lower-cased names.
        public var headers: [String: String]
        public var body: [UInt8]
        public var receivedAt: Date
        public var answeredStatus: Int

        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    private let server: ScriptServer

    /// Starts the receiver on `host` (a loopback address, 127.0.0.1 by default) and `port` (0: a free one).
    /// Two receivers on one port and two loopback addresses tell which address a sender connected to.
    public init(host: String = "127.0.0.1", port: Int = 0) throws {
        server = try ScriptServer(name: "webhook-receiver", source: Self.python, host: host, port: port)
        try FileManager.default.createDirectory(at: server.directory.appendingPathComponent("records"),
                                                withIntermediateDirectories: true)
        try server.start()
    }

    public var port: Int { server.port }
    public var host: String { server.host }
    /// The URL to register as a webhook (any path works; it is recorded).
    public var url: String { "http://\(server.host):\(port)/hook" }
    /// The receiver as an HTTP proxy, for a test that proves a sender ignores proxy settings: a
    /// request sent through it is recorded (a tunnel request as method CONNECT) and refused.
    public var proxyURL: String { "http://\(server.host):\(port)" }

    /// Status for the requests that follow (200, 500, 410, …).
    public func respond(with status: Int) throws {
        try Data(String(status).utf8).write(to: server.directory.appendingPathComponent("status"))
    }

    /// Answer only after `seconds` (to make the sender time out).
    public func delay(seconds: Double) throws {
        try Data(String(seconds).utf8).write(to: server.directory.appendingPathComponent("delay"))
    }

    /// Down: the port refuses connections until `start()`.
    public func stop() { server.stop() }
    public func start() throws { try server.start() }

    /// Stops the server and removes its directory (deinit does the same; this is for owners that
    /// never go away, such as a benchmark's top-level code).
    public func shutDown() {
        server.stop()
        server.removeFiles()
    }

    /// Every request received so far, in arrival order.
    public func requests() -> [Request] { Self.records(in: server.directory) }

    /// The requests a script server of ours recorded with `write_record`, in arrival order.
    static func records(in directory: URL) -> [Request] {
        let dir = directory.appendingPathComponent("records")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        return names.compactMap { name -> Request? in
            guard let data = try? Data(contentsOf: dir.appendingPathComponent(name)),
                  let record = try? JSONDecoder().decode(Record.self, from: data) else { return nil }
            return Request(method: record.method, path: record.path, headers: record.headers,
                           body: Array(Data(base64Encoded: record.body) ?? Data()),
                           receivedAt: Date(timeIntervalSince1970: record.received_at), answeredStatus: record.status)
        }
    }

    /// Waits (polling, with a deadline) until at least `count` requests arrived; returns them.
    @discardableResult
    public func waitForRequests(_ count: Int, timeout: Duration = .seconds(60)) -> [Request] {
        var latest: [Request] = []
        _ = waitUntil(timeout: timeout) {
            latest = requests()
            return latest.count >= count
        }
        return latest
    }

    private struct Record: Decodable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: String
        var received_at: Double
        var status: Int
    }

    static let python = parentWatchdogPython + """

import base64, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

directory, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])

def setting(name, default):
    try:
        with open(os.path.join(directory, name)) as f:
            return type(default)(f.read().strip())
    except (OSError, ValueError):
        return default

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        received = time.time()
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        status = setting("status", 200)
        delay = setting("delay", 0.0)
        if delay > 0:
            time.sleep(delay)
        write_record(directory, {
            "method": self.command, "path": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": base64.b64encode(body).decode("ascii"),
            "received_at": received, "status": status,
        })
        reply = b"ok" if status < 300 else b"test receiver says %d" % status
        self.send_response(status)
        self.send_header("content-type", "text/plain")
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    do_PUT = do_POST

    def do_CONNECT(self):
        # A client that obeys a proxy setting asks for a tunnel: record it, then refuse it.
        write_record(directory, {
            "method": self.command, "path": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": "", "received_at": time.time(), "status": 403,
        })
        self.send_response(403)
        self.send_header("content-length", "0")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True

    def log_message(self, format, *args):
        pass

class Server(ThreadingHTTPServer):
    allow_reuse_address = True
    daemon_threads = True
    request_queue_size = 128

server = Server((host, port), Handler)
write_port(directory, server.server_address[1])
server.serve_forever()
"""
}
