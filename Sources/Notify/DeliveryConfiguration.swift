import Foundation

/// How the outbox is delivered: the senders' settings, the retry schedule and the worker's shape.
public struct DeliveryConfiguration: Sendable {
    /// Nil when email is not configured: email deliveries then fail their attempts with a clear error.
    public var mail: MailSettings?
    public var links: NotificationLinks
    public var webhookPolicy: WebhookAddressPolicy
    public var webhookTimeoutSeconds: Int
    public var retry: RetryPolicy
    /// Sending threads; each claims its own rows, so a slow receiver holds up one thread only.
    public var threads: Int
    /// Rows one thread claims at a time.
    public var batchSize: Int
    /// Longest idle sleep when no NOTIFY arrives (the fallback if LISTEN is unavailable).
    public var pollInterval: Duration
    /// How long a claim lasts; a worker that dies mid-send loses its rows to others after this.
    public var lease: Duration
    /// Written into `deliveries.leased_by`, to see who holds what.
    public var workerName: String

    public init(mail: MailSettings?, links: NotificationLinks, webhookPolicy: WebhookAddressPolicy = WebhookAddressPolicy(),
                webhookTimeoutSeconds: Int = 10, retry: RetryPolicy = RetryPolicy(), threads: Int = 4,
                batchSize: Int = 8, pollInterval: Duration = .seconds(5), lease: Duration = .seconds(120),
                workerName: String = DeliveryConfiguration.defaultWorkerName()) {
        self.mail = mail
        self.links = links
        self.webhookPolicy = webhookPolicy
        self.webhookTimeoutSeconds = webhookTimeoutSeconds
        self.retry = retry
        self.threads = max(1, threads)
        self.batchSize = max(1, batchSize)
        self.pollInterval = pollInterval
        self.lease = lease
        self.workerName = workerName
    }

    public static func defaultWorkerName() -> String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
    }
}
