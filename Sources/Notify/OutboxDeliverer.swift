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
        let claimedAt = ContinuousClock.now
        let claimed = try claimDue(onlyID: onlyID)
        try deliver(claimed, claimedAt: claimedAt)
        return claimed.count
    }

    /// Leases up to one batch of due rows to this worker (`deliverDueBatch`'s first half).
    public func claimDue(onlyID: Int64? = nil) throws -> [ClaimedDelivery] {
        try store.claimDueDeliveries(limit: configuration.batchSize, lease: configuration.lease,
                                     worker: configuration.workerName, onlyID: onlyID)
    }

    /// Sends claimed rows one after another and records the outcomes (`deliverDueBatch`'s second half).
    /// `claimedAt` is when their lease began (a row leased at its insert was leased a moment before
    /// this call: now is close enough for the few seconds' margin `record` keeps before the lease ends).
    public func deliver(_ claimed: [ClaimedDelivery], claimedAt: ContinuousClock.Instant = .now) throws {
        for delivery in claimed {
            let started = ContinuousClock.now
            let (outcome, result) = attempt(delivery)
            try record(delivery, outcome, result, duration: ContinuousClock.now - started,
                       leaseEnds: claimedAt + configuration.lease)
        }
    }

    /// Records an attempt that has happened. A database outage at this moment must not lose the record:
    /// the row's lease would run out and another process would send it again, a second copy at a
    /// receiver that had already accepted the first (the fault campaign's PostgreSQL restarts,
    /// docs/benchmarks.md, Fault campaign). So it is tried again every second while this process still holds the
    /// row (until a few seconds before its lease ends), and thrown only then. A statement the server
    /// refuses is thrown at once: trying it again would not change its answer.
    private func record(_ delivery: ClaimedDelivery, _ outcome: AttemptOutcome, _ result: DeliveryResult, duration: Duration,
                        leaseEnds: ContinuousClock.Instant) throws {
        while true {
            do {
                try store.recordDeliveryAttempt(deliveryID: delivery.id, outcome: outcome, responseCode: result.responseCode,
                                                response: result.reply, error: result.error, duration: duration)
                return
            } catch let error as DatabaseError where error.isConnectionProblem {
                guard ContinuousClock.now + Self.recordRetryPause + .seconds(5) < leaseEnds else { throw error }
                Thread.sleep(forTimeInterval: Double(Self.recordRetryPause.components.seconds))
            }
        }
    }

    static let recordRetryPause = Duration.seconds(1)

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
