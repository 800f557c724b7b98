import Vocabulary
/// What one attempt to deliver produced. The outbox turns it into the next state: delivered,
/// retry later, give up, or stop and disable the channel.
public struct DeliveryResult: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        case delivered
        /// Worth another try later: timeouts, refused connections, 5xx, 429, 4xx SMTP replies.
        case retry
        /// The provider refused this message (a 4xx other than 408/410/425/429): sending it again
        /// changes nothing, so the delivery gives up at once, with the provider's words. The channel
        /// stays enabled: the next event may be taken (or show the same refusal on the channel's row).
        case refused
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
    /// How long the receiver asked us to wait before the next try (Retry-After, or the body's
    /// retry_after); nil to follow the retry policy's backoff.
    public var retryAfterSeconds: Double?
}
