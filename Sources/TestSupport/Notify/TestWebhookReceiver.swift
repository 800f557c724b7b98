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

    static let python = recordingHTTPServerPython + """

class Handler(RecordingHandler):
    def do_POST(self):
        received, headers, body = self.read_request()
        status = setting("status", 200)
        delay = setting("delay", 0.0)
        if delay > 0:
            time.sleep(delay)
        self.record(received, headers, body, status)
        self.answer(status, b"ok" if status < 300 else b"test receiver says %d" % status, "text/plain")

    do_PUT = do_POST

    def do_CONNECT(self):
        # A client that obeys a proxy setting asks for a tunnel: record it, then refuse it.
        self.record(time.time(), {k.lower(): v for k, v in self.headers.items()}, b"", 403)
        self.close_connection = True
        self.answer(403, b"", extra=[("connection", "close")])

serve(Handler)
"""
}
