import Foundation
import Notify
import Store
import Testing
import TestSupport

@Suite struct WebhookSenderTests {
    let links = NotificationLinks(baseURL: "https://monitor.example.test")
    /// Tests opt in to loopback receivers; production's default policy refuses them.
    let sender = WebhookSender(policy: WebhookAddressPolicy(allowPrivateAddresses: true),
                               links: NotificationLinks(baseURL: "https://monitor.example.test"))

    @Test func signedEventArrivesAndVerifiesIndependently() throws {
        let receiver = try TestWebhookReceiver()
        let secret = WebhookSecret.generate()
        #expect(secret.text.hasPrefix("whsec_"))
        let result = sender.send(SampleEvents.broken(), url: receiver.url, format: .event, secret: secret,
                                 messageID: "msg_2fUJtV9jsxkR")
        #expect(result.verdict == .delivered, "\(result)")
        #expect(result.responseCode == 200)

        let request = try #require(receiver.waitForRequests(1).first)
        #expect(request.method == "POST")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["webhook-id"] == "msg_2fUJtV9jsxkR")
        let timestamp = try #require(request.headers["webhook-timestamp"].flatMap(Int.init))
        #expect(abs(Double(timestamp) - Date().timeIntervalSince1970) < 300)
        let signature = try #require(request.headers["webhook-signature"])
        #expect(signature.hasPrefix("v1,"))
        // Verified by Python's hmac, not by our own code: "id.timestamp.body" with the decoded key.
        #expect(try PythonHMAC.standardWebhooksSignature(secret: secret.text, id: "msg_2fUJtV9jsxkR",
                                                         timestamp: timestamp, body: request.body) == signature)

        let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        #expect(json["type"] as? String == "alert.opened")
        #expect(json["timestamp"] as? String == "2027-01-15T08:00:00Z")
        let data = try #require(json["data"] as? [String: Any])
        #expect((data["domain"] as? [String: Any])?["host"] as? String == "xn--bcher-kva.example")
        #expect((data["domain"] as? [String: Any])?["name"] as? String == "bücher.example")
        #expect(data["rule"] as? String == "origin-unreachable")
        #expect(data["severity"] as? String == "critical")
        #expect((data["alert"] as? [String: Any])?["id"] as? Int == 42)
        #expect((data["alert"] as? [String: Any])?["opened_at"] as? String == "2027-01-15T08:00:00Z")
        #expect((data["findings"] as? [[String: Any]])?.first?["code"] as? String == "http-status")
        #expect((data["diff_summary"] as? [String])?.count == 1)
        #expect((data["links"] as? [String: String])?["domain"] == "https://monitor.example.test/domains/xn--bcher-kva.example")
    }

    @Test func slackPayloadHasTextAndBlocks() throws {
        let receiver = try TestWebhookReceiver()
        let result = sender.send(SampleEvents.broken(), url: receiver.url, format: .slack,
                                 secret: WebhookSecret.generate(), messageID: "msg_slack")
        #expect(result.verdict == .delivered)
        let request = try #require(receiver.waitForRequests(1).first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        let text = try #require(json["text"] as? String)
        #expect(text.contains("FAILING bücher.example"))
        let blocks = try #require(json["blocks"] as? [[String: Any]])
        #expect(blocks.first?["type"] as? String == "header")
        let section = try #require((blocks.last?["text"] as? [String: Any])?["text"] as? String)
        #expect(section.contains("<https://monitor.example.test/domains/xn--bcher-kva.example|Open bücher.example in aasa-monitor>"))
        #expect(section.contains("503 &lt;b&gt;."))
    }

    @Test func statusCodesBecomeVerdicts() throws {
        let receiver = try TestWebhookReceiver()
        let secret = WebhookSecret.generate()
        try receiver.respond(with: 500)
        let failed = sender.send(SampleEvents.broken(), url: receiver.url, format: .event, secret: secret, messageID: "m1")
        #expect(failed.verdict == .retry)
        #expect(failed.responseCode == 500)
        #expect(failed.reply == "test receiver says 500")
        try receiver.respond(with: 410)
        let gone = sender.send(SampleEvents.broken(), url: receiver.url, format: .event, secret: secret, messageID: "m1")
        #expect(gone.verdict == .gone)
        #expect(gone.responseCode == 410)
        try receiver.respond(with: 302)
        #expect(sender.send(SampleEvents.broken(), url: receiver.url, format: .event, secret: secret, messageID: "m1").verdict == .retry)
        #expect(receiver.waitForRequests(3).count == 3)
    }

    @Test func downReceiverAndTimeoutAreRetries() throws {
        let receiver = try TestWebhookReceiver()
        let secret = WebhookSecret.generate()
        receiver.stop()
        let down = sender.send(SampleEvents.broken(), url: receiver.url, format: .event, secret: secret, messageID: "m2")
        #expect(down.verdict == .retry)
        #expect(down.responseCode == nil)
        #expect(down.error?.contains("curl error 7") == true, "\(down)")
        try receiver.start()
        try receiver.delay(seconds: 3)
        let slow = WebhookSender(policy: WebhookAddressPolicy(allowPrivateAddresses: true), links: links, timeoutSeconds: 1)
        let timedOut = slow.send(SampleEvents.broken(), url: receiver.url, format: .event, secret: secret, messageID: "m2")
        #expect(timedOut.verdict == .retry)
        #expect(timedOut.error?.contains("curl error 28") == true, "\(timedOut)")
    }

    @Test func loopbackIsRefusedWithoutTheOptIn() throws {
        let receiver = try TestWebhookReceiver()
        let strict = WebhookSender(policy: WebhookAddressPolicy(), links: links)
        let result = strict.send(SampleEvents.broken(), url: receiver.url, format: .event,
                                 secret: WebhookSecret.generate(), messageID: "m3")
        #expect(result.verdict == .retry)
        #expect(result.error?.contains("loopback") == true, "\(result)")
        #expect(receiver.requests().isEmpty)
        #expect(throws: WebhookAddressPolicy.Refusal.self) { try WebhookAddressPolicy.parse("ftp://example.com/x") }
        #expect(throws: WebhookAddressPolicy.Refusal.self) { try WebhookAddressPolicy().target(for: "http://[::ffff:10.1.2.3]/") }
        #expect(throws: WebhookAddressPolicy.Refusal.self) { try WebhookAddressPolicy().target(for: "http://169.254.169.254/") }
    }

    @Test func secretRoundTripsAndRejectsShortKeys() {
        let secret = WebhookSecret.generate()
        #expect(WebhookSecret(secret.text) == secret)
        #expect(WebhookSecret("whsec_" + Data(repeating: 1, count: 16).base64EncodedString()) == nil)
        #expect(WebhookSecret("not-a-secret") == nil)
        #expect(WebhookSecret.generate() != secret)
    }
}

/// Computes a Standard Webhooks signature with Python's hmac module, as a receiver would.
enum PythonHMAC {
    static func standardWebhooksSignature(secret: String, id: String, timestamp: Int, body: [UInt8]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hmac-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bodyFile = dir.appendingPathComponent("body")
        try Data(body).write(to: bodyFile)
        let script = """
        import base64, hashlib, hmac, sys
        secret, msg_id, ts, path = sys.argv[1:5]
        key = base64.b64decode(secret.split("_", 1)[1])
        body = open(path, "rb").read()
        mac = hmac.new(key, msg_id.encode() + b"." + ts.encode() + b"." + body, hashlib.sha256).digest()
        print("v1," + base64.b64encode(mac).decode())
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "/usr/bin/env")
        p.arguments = (p.executableURL?.path == "/usr/bin/env" ? ["python3"] : []) + ["-c", script, secret, id, String(timestamp), bodyFile.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
