import Vocabulary
import Foundation
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
        switch HTTPDelivery(policy: policy, timeoutSeconds: timeoutSeconds).post(url: request.url, headers: request.headers, body: request.body) {
        case .notSent(let why), .failed(let why):
            return DeliveryResult(verdict: .retry, error: why)
        case .answered(let code, let headers, let body):
            let reply = String(decoding: body.prefix(300), as: UTF8.self)
            return DeliveryResult(verdict: Self.verdict(forStatus: code), responseCode: code,
                                  reply: reply.isEmpty ? nil : reply,
                                  error: (200..<300).contains(code) ? nil : "HTTP \(code)",
                                  retryAfterSeconds: code == 429 ? ProviderAnswer.retryAfter(headers["retry-after"], now: Date()) : nil)
        }
    }

    /// 2xx delivered; 410 Gone disables the channel (the receiver asked us to stop); anything
    /// else, including other 4xx and every 3xx (not followed), is retried until the horizon (a 429's
    /// Retry-After is honoured). Our own receivers may be restarted or fixed within the day, so unlike
    /// the providers' (`ProviderAnswer`) a 4xx here is not taken as final.
    static func verdict(forStatus code: Int) -> DeliveryResult.Verdict {
        if (200..<300).contains(code) { return .delivered }
        if code == 410 { return .gone }
        return .retry
    }
}
