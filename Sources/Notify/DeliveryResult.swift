import Vocabulary
/// What one attempt to deliver produced. The outbox turns it into the next state: delivered,
/// retry later, or stop and disable the channel.
public struct DeliveryResult: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        case delivered
        /// Worth another try later: timeouts, refused connections, 5xx, 4xx SMTP replies.
        case retry
        /// The receiver said it is gone for good (HTTP 410): disable the channel.
        case gone
    }

    public var verdict: Verdict
    /// HTTP status or SMTP reply code; nil when no answer arrived.
    public var responseCode: Int?
    /// The SMTP server's last reply line, or the start of the HTTP body.
    public var reply: String?
    /// Our own words for what went wrong (curl's error text, "HTTP 500", "refused address").
    public var error: String?

    public init(verdict: Verdict, responseCode: Int? = nil, reply: String? = nil, error: String? = nil) {
        self.verdict = verdict
        self.responseCode = responseCode
        self.reply = reply
        self.error = error
    }
}
