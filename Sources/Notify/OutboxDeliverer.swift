import Foundation
import Store

/// Sends claimed outbox rows and records each attempt. Stateless apart from its configuration;
/// any number of threads and processes may run it against one database.
public struct OutboxDeliverer: Sendable {
    /// Only the outbox: claiming due rows and recording attempts.
    public let store: any AlertStore & Sendable
    public let configuration: DeliveryConfiguration

    public init(store: some AlertStore & Sendable, configuration: DeliveryConfiguration) {
        self.store = store
        self.configuration = configuration
    }

    /// Claims up to one batch of due rows, sends them one after another and records the outcomes.
    /// Returns how many rows it handled (0 when nothing was due).
    /// `onlyID` limits it to one delivery (a test notification sent from the CLI).
    @discardableResult
    public func deliverDueBatch(onlyID: Int64? = nil) throws -> Int {
        let claimed = try claimDue(onlyID: onlyID)
        try deliver(claimed)
        return claimed.count
    }

    /// Leases up to one batch of due rows to this worker (`deliverDueBatch`'s first half).
    public func claimDue(onlyID: Int64? = nil) throws -> [ClaimedDelivery] {
        try store.claimDueDeliveries(limit: configuration.batchSize, lease: configuration.lease,
                                     worker: configuration.workerName, onlyID: onlyID)
    }

    /// Sends claimed rows one after another and records the outcomes (`deliverDueBatch`'s second half).
    public func deliver(_ claimed: [ClaimedDelivery]) throws {
        for delivery in claimed {
            let started = ContinuousClock.now
            let (outcome, result) = attempt(delivery)
            try store.recordDeliveryAttempt(deliveryID: delivery.id, outcome: outcome, responseCode: result.responseCode,
                                               response: result.reply, error: result.error,
                                               duration: ContinuousClock.now - started)
        }
    }

    /// Delivers everything due now, batch after batch, until nothing is left (for `channel test`
    /// and tests). Returns the number of attempts made.
    @discardableResult
    public func drain() throws -> Int {
        var total = 0
        while true {
            let n = try deliverDueBatch()
            if n == 0 { return total }
            total += n
        }
    }

    /// One send, and what the outbox should do about it.
    func attempt(_ delivery: ClaimedDelivery) -> (AttemptOutcome, DeliveryResult) {
        let channel = delivery.channel
        guard channel.enabled else {
            let why = "the channel is disabled" + (channel.disabledReason.map { ": \($0)" } ?? "")
            return (.giveUp(disableChannelBecause: nil), DeliveryResult(verdict: .retry, error: why))
        }
        let result = send(delivery)
        switch result.verdict {
        case .delivered:
            return (.delivered, result)
        case .retry:
            // The receiver's own Retry-After wins over our backoff (a day at most; the horizon caps it too).
            let delay = result.retryAfterSeconds.map { min($0, 86_400) }
                ?? configuration.retry.delaySeconds(afterAttempt: delivery.attempts)
            return (.retry(delaySeconds: delay), result)
        case .refused:
            return (.giveUp(disableChannelBecause: nil), result)
        case .gone:
            let reason = "The receiver answered 410 Gone on \(UTCTimestamp.iso8601(Date())); the channel was disabled. "
                + "Check the URL and enable the channel again."
            return (.giveUp(disableChannelBecause: reason), result)
        }
    }

    func send(_ delivery: ClaimedDelivery) -> DeliveryResult {
        let channel = delivery.channel
        switch channel.kind {
        case .email:
            guard let mail = configuration.mail else {
                return DeliveryResult(verdict: .retry, error: "email is not configured: set SMTP_URL and SMTP_FROM, or the SMTP settings")
            }
            return MailSender(settings: mail, links: configuration.links)
                .send(delivery.event, to: channel.target, deliveryKey: delivery.idempotencyID)
        case .webhook, .slack:
            let sender = WebhookSender(policy: configuration.webhookPolicy, links: configuration.links,
                                       timeoutSeconds: configuration.webhookTimeoutSeconds)
            return sender.send(delivery.event, url: channel.target, format: channel.kind == .slack ? .slack : .event,
                               secret: channel.secret.flatMap(WebhookSecret.init), messageID: delivery.idempotencyID)
        case .pagerduty, .opsgenie, .teams, .discord, .googleChat, .mattermost, .telegram, .ntfy, .customWebhook:
            let http = HTTPDelivery(policy: configuration.webhookPolicy, timeoutSeconds: configuration.webhookTimeoutSeconds)
            return ProviderPayloads.send(ProviderInput(event: delivery.event, channel: channel, links: configuration.links,
                                                       deliveryKey: delivery.idempotencyID), through: http)
        }
    }
}
