import Vocabulary
import CCurl
import Foundation
import Outbound
import Store

/// POSTs a notification to a webhook URL, signed the Standard Webhooks way. Blocking: call it from
/// a worker thread. Never throws: every outcome is a `DeliveryResult` the outbox records.
public struct WebhookSender: Sendable {
    public var policy: WebhookAddressPolicy
    public var links: NotificationLinks
    public var timeoutSeconds: Int

    public init(policy: WebhookAddressPolicy, links: NotificationLinks, timeoutSeconds: Int = 10) {
        self.policy = policy
        self.links = links
        self.timeoutSeconds = timeoutSeconds
    }

    public struct Request: Sendable {
        public var url: String
        public var body: [UInt8]
        public var headers: [(String, String)]
    }

    /// `messageID` is the outbox row's stable id: the same `webhook-id` on every retry lets the
    /// receiver drop repeats. The timestamp is the attempt's (receivers reject stale ones).
    public func request(for event: NotificationEvent, url: String, format: WebhookPayload.Format,
                        secret: WebhookSecret?, messageID: String, now: Date) -> Request {
        let body = WebhookPayload.body(for: event, format: format, links: links)
        let timestamp = Int(now.timeIntervalSince1970)
        var headers = [
            ("content-type", "application/json"),
            ("user-agent", "aasa-monitor-webhook/1"),
            ("webhook-id", messageID),
            ("webhook-timestamp", String(timestamp)),
        ]
        // A channel without a secret (a Slack incoming webhook needs none) is sent unsigned.
        if let secret { headers.append(("webhook-signature", secret.signature(id: messageID, timestamp: timestamp, body: body))) }
        return Request(url: url, body: body, headers: headers)
    }

    public func send(_ event: NotificationEvent, url: String, format: WebhookPayload.Format,
                     secret: WebhookSecret?, messageID: String, now: Date = Date()) -> DeliveryResult {
        send(request(for: event, url: url, format: format, secret: secret, messageID: messageID, now: now))
    }

    public func send(_ request: Request) -> DeliveryResult {
        let target: (url: OutboundURL, pin: PinnedConnection)
        do {
            target = try policy.target(for: request.url)
        } catch {
            return DeliveryResult(verdict: .retry, error: error.description)
        }
        let transfer: BlockingTransfer
        do {
            // Pinned to the addresses the policy judged, under the name curl connects with; a
            // rebinding DNS answer is never consulted, and the socket guard refuses any other address.
            transfer = try BlockingTransfer(target.url, pinnedTo: target.pin, responseLimit: 4096)
            try transfer.easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
            // A redirect could point anywhere, including this machine: never follow one.
            try transfer.easy.set(CURLOPT_FOLLOWLOCATION, 0)
            try transfer.easy.set(CURLOPT_CONNECTTIMEOUT, min(5, timeoutSeconds))
            try transfer.easy.set(CURLOPT_TIMEOUT, timeoutSeconds)
            try transfer.easy.set(CURLOPT_HTTPHEADER, list: request.headers.map { "\($0.0): \($0.1)" } + ["Expect:"])
            try transfer.setPostBody(request.body)
        } catch {
            return DeliveryResult(verdict: .retry, error: "\(error)")
        }
        do {
            try transfer.perform()
        } catch {
            return DeliveryResult(verdict: .retry, error: "\(error)")
        }
        let code = transfer.responseCode
        let reply = String(decoding: transfer.responseBody.prefix(300), as: UTF8.self)
        return DeliveryResult(verdict: Self.verdict(forStatus: code), responseCode: code,
                              reply: reply.isEmpty ? nil : reply,
                              error: (200..<300).contains(code) ? nil : "HTTP \(code)")
    }

    /// 2xx delivered; 410 Gone disables the channel (the receiver asked us to stop); anything
    /// else, including other 4xx and every 3xx (not followed), is retried until the horizon.
    static func verdict(forStatus code: Int) -> DeliveryResult.Verdict {
        if (200..<300).contains(code) { return .delivered }
        if code == 410 { return .gone }
        return .retry
    }
}
