import Foundation
import Notify
import Store
import Testing
import TestSupport
import Vocabulary

/// Every provider kind through the real outbox, against a real HTTP server that checks each provider's
/// required fields and answers the provider's way: accepted, refused, rate-limited with Retry-After,
/// or failing once with a 503. Retries, giving up and the channel's latest delivery follow.
@Suite struct ProviderDeliveryTests {
    static let links = NotificationLinks(baseURL: "https://monitor.example.test")

    static func configuration() -> DeliveryConfiguration {
        DeliveryConfiguration(mail: nil, links: links, webhookPolicy: WebhookAddressPolicy(allowPrivateAddresses: true),
                              webhookTimeoutSeconds: 30, retry: RetryPolicy(initialDelay: .milliseconds(200), maximumDelay: .milliseconds(500)))
    }

    static let template = #"{"summary": "{{summary}}", "severity": "{{severity}}", "findings": {{findings_json}}}"#

    /// One channel per provider, each pointed at the receiver's emulation of that provider.
    static func specs(_ r: TestProviderReceiver) -> [ChannelSpec] {
        [ChannelSpec(kind: .pagerduty, target: r.url(for: "pagerduty"), credential: "R0123456789abcdef0123456789abcde"),
         ChannelSpec(kind: .opsgenie, target: r.url(for: "opsgenie"), credential: "eb243592-faa2-4ba2-a551-1afdf565c889"),
         ChannelSpec(kind: .teams, target: r.url(for: "teams")),
         ChannelSpec(kind: .discord, target: r.url(for: "discord")),
         ChannelSpec(kind: .googleChat, target: r.url(for: "google-chat")),
         ChannelSpec(kind: .mattermost, target: r.url(for: "mattermost")),
         ChannelSpec(kind: .telegram, target: r.url(for: "telegram"), credential: "123456:ABC-def", recipient: "-1001234567890"),
         ChannelSpec(kind: .ntfy, target: r.url(for: "ntfy"), credential: "tk_test"),
         ChannelSpec(kind: .customWebhook, target: r.url(for: "custom"), template: template)]
    }

    static func opened() -> NotificationEvent {
        NotificationEvent(kind: .alertOpened, occurredAt: Date(), domainHost: "shop.example", alertID: 9, rule: "origin-failing",
                          severity: .critical, title: "the file is unreachable",
                          findings: [.init(code: "http-status", severity: .error, message: "The server answered \"503\" <b>.")],
                          openedAt: Date())
    }

    static func resolved() -> NotificationEvent {
        var event = opened()
        event.kind = .alertResolved
        event.resolvedAt = Date()
        return event
    }

    static func json(_ request: TestProviderReceiver.Request) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] ?? [:]
    }

    @Test func everyProviderTakesAnAlertAndItsResolution() throws {
        try TestPostgres.withDatabase { db in
            let receiver = try TestProviderReceiver()
            let channels = try Self.specs(receiver).map { try ChannelSetup.add($0, in: db).channel }
            let deliverer = OutboxDeliverer(store: db, configuration: Self.configuration())
            // Queued per channel, as the alert transaction's fan-out would (without an alert row to point at).
            for channel in channels { _ = try db.enqueueTestNotification(channelID: channel.id, event: Self.opened()) }
            #expect(try deliverer.drain() == 9)
            for channel in channels { _ = try db.enqueueTestNotification(channelID: channel.id, event: Self.resolved()) }
            #expect(try deliverer.drain() == 9)
            let deliveries = try db.deliveries()
            #expect(deliveries.count == 18)
            for d in deliveries {
                #expect(d.state == .sent && d.attempts == 1, "channel \(d.channelID): \(d.lastError ?? "")")
            }
            let requests = receiver.requests()
            #expect(requests.count == 18)
            #expect(requests.allSatisfy { (200..<300).contains($0.answeredStatus) }, "\(requests.map { ($0.path, $0.answeredStatus) })")

            // PagerDuty: trigger, then resolve with the same dedup_key.
            let pd = requests.filter { $0.path.hasPrefix("/pagerduty/") }.map(Self.json)
            #expect(pd.map { $0["event_action"] as? String } == ["trigger", "resolve"])
            #expect(pd[0]["dedup_key"] as? String == "aasa-monitor-alert-9" && pd[1]["dedup_key"] as? String == "aasa-monitor-alert-9")
            // Opsgenie: create with an alias, then close by that alias.
            let genie = requests.filter { $0.path.hasPrefix("/opsgenie/") }
            #expect(genie.map(\.path) == ["/opsgenie/v2/alerts", "/opsgenie/v2/alerts/aasa-monitor-alert-9/close?identifierType=alias"])
            #expect(Self.json(genie[0])["alias"] as? String == "aasa-monitor-alert-9")
            // Google Chat: both in the alert's thread.
            #expect(requests.filter { $0.path.hasPrefix("/google-chat/") }.allSatisfy { $0.path.contains("threadKey=aasa-monitor-alert-9") })
            // ntfy: the token as a bearer; Telegram: the chat id; the custom webhook: the template, signed.
            #expect(requests.first { $0.path.hasPrefix("/ntfy/") }?.headers["authorization"] == "Bearer tk_test")
            #expect(Self.json(try #require(requests.first { $0.path.hasPrefix("/telegram/") }))["chat_id"] as? String == "-1001234567890")
            let custom = try #require(requests.first { $0.path.hasPrefix("/custom/") })
            #expect(Self.json(custom)["severity"] as? String == "critical")
            #expect(custom.headers["webhook-signature"]?.hasPrefix("v1,") == true)
            // The answers are logged per attempt, as the provider gave them.
            let pdChannel = try #require(try db.channels().first { $0.kind == .pagerduty })
            let pdDelivery = try #require(try db.deliveries(channelID: pdChannel.id, limit: 1).first)
            let attempt = try #require(try db.deliveryAttempts(deliveryID: pdDelivery.id).first)
            #expect(attempt.responseCode == 202)
            #expect(attempt.response?.contains("Event processed") == true)
        }
    }

    /// What each provider's refusal says, as it reaches the delivery's last error.
    static let refusals: [ChannelKind: String] = [
        .pagerduty: "PagerDuty refused the message (HTTP 400): Invalid Routing Key",
        .opsgenie: "Opsgenie refused the message (HTTP 422): Key format is not valid!",
        .teams: "Microsoft Teams refused the message (HTTP 400): The workflow's trigger is disabled.",
        .discord: "Discord refused the message (HTTP 404): Unknown Webhook",
        .googleChat: "Google Chat refused the message (HTTP 400): Invalid JSON payload received.",
        .mattermost: "Mattermost refused the message (HTTP 400): Invalid webhook.",
        .telegram: "Telegram refused the message (HTTP 400): Bad Request: chat not found",
        .ntfy: "ntfy refused the message (HTTP 403): forbidden",
        .customWebhook: "The webhook refused the message (HTTP 400): the receiver refused the message",
    ]

    @Test func aRefusalGivesUpAtOnceWithTheProvidersWordsAndTheChannelStaysOn() throws {
        try TestPostgres.withDatabase { db in
            let receiver = try TestProviderReceiver(scenario: .refuse)
            for spec in Self.specs(receiver) {
                _ = try db.enqueueTestNotification(channelID: try ChannelSetup.add(spec, in: db).channel.id, event: Self.opened())
            }
            #expect(try OutboxDeliverer(store: db, configuration: Self.configuration()).drain() == 9)
            for channel in try db.channels() {
                let latest = try #require(try db.deliveries(channelID: channel.id, limit: 1).first)
                #expect(latest.state == .failed && latest.attempts == 1, "\(channel.kind)")
                #expect(latest.lastError == Self.refusals[channel.kind], "\(channel.kind): \(latest.lastError ?? "")")
                #expect(channel.enabled, "a refusal gives up the message, not the channel")
            }
            // Given up is final: nothing more is sent.
            #expect(try OutboxDeliverer(store: db, configuration: Self.configuration()).drain() == 0)
            #expect(receiver.requests().count == 9)
        }
    }

    @Test func aRateLimitIsRetriedAfterTheProvidersRetryAfter() throws {
        try TestPostgres.withDatabase { db in
            var pending: [(ChannelKind, Int64, TestProviderReceiver)] = []
            let deliverer = OutboxDeliverer(store: db, configuration: Self.configuration())
            for kind in Self.specs(try TestProviderReceiver()).map(\.kind) {
                // A receiver per provider: each refuses its own first request.
                let receiver = try TestProviderReceiver(scenario: .rateLimitOnce, retryAfterSeconds: 2)
                let spec = try #require(Self.specs(receiver).first { $0.kind == kind })
                let channel = try ChannelSetup.add(spec, in: db).channel
                let id = try db.enqueueTestNotification(channelID: channel.id, event: Self.opened())
                #expect(try deliverer.deliverDueBatch(onlyID: id) == 1)
                let delivery = try #require(try db.delivery(id: id))
                let attempt = try #require(try db.deliveryAttempts(deliveryID: id).last)
                #expect(delivery.state == .pending && attempt.responseCode == 429, "\(kind)")
                #expect(delivery.lastError?.contains("rate limiting (HTTP 429)") == true, "\(kind): \(delivery.lastError ?? "")")
                // Our backoff here is 0.2 s; the provider asked for 2 s, and the next try waits for that.
                #expect(delivery.nextAttemptAt.timeIntervalSince(attempt.attemptedAt) >= 1.9, "\(kind)")
                pending.append((kind, id, receiver))
            }
            for (kind, id, receiver) in pending {
                #expect(try waitUntil(timeout: .seconds(60)) {
                    try deliverer.deliverDueBatch(onlyID: id)
                    return try db.delivery(id: id)?.state == .sent
                }, "\(kind)")
                #expect(try db.delivery(id: id)?.attempts == 2)
                #expect(receiver.requests().map(\.answeredStatus).first == 429)
            }
        }
    }

    @Test func a5xxIsRetriedUntilTheProviderTakesIt() throws {
        try TestPostgres.withDatabase { db in
            let deliverer = OutboxDeliverer(store: db, configuration: Self.configuration())
            for kind in Self.specs(try TestProviderReceiver()).map(\.kind) {
                let receiver = try TestProviderReceiver(scenario: .failOnce)
                let spec = try #require(Self.specs(receiver).first { $0.kind == kind })
                let channel = try ChannelSetup.add(spec, in: db).channel
                let id = try db.enqueueTestNotification(channelID: channel.id, event: Self.opened())
                #expect(try deliverer.deliverDueBatch(onlyID: id) == 1)
                let first = try #require(try db.delivery(id: id))
                #expect(first.state == .pending && first.lastError?.hasPrefix("HTTP 503") == true, "\(kind): \(first.lastError ?? "")")
                #expect(try waitUntil(timeout: .seconds(60)) {
                    try deliverer.deliverDueBatch(onlyID: id)
                    return try db.delivery(id: id)?.state == .sent
                }, "\(kind)")
                #expect(receiver.requests().map(\.answeredStatus).count == 2)
            }
        }
    }

    @Test func aPrivateReceiverIsRefusedWithTheReasonUnlessAnAdminAllowsIt() throws {
        try TestPostgres.withDatabase { db in
            let receiver = try TestProviderReceiver()
            let channel = try ChannelSetup.add(ChannelSpec(kind: .discord, target: receiver.url(for: "discord")), in: db).channel
            let strict = try NotificationSettings.deliveryConfiguration(environment: [:], database: db)
            let id = try ChannelSetup.sendTest(channelID: channel.id, in: db)
            #expect(try OutboxDeliverer(store: db, configuration: strict).deliverDueBatch(onlyID: id) == 1)
            let refused = try #require(try db.delivery(id: id))
            #expect(refused.lastError?.contains("refused address 127.0.0.1: loopback") == true)
            #expect(refused.lastError?.contains("AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS=1") == true)
            #expect(receiver.requests().isEmpty)
            // The admin's setting (the settings page writes it) allows it, like the environment does.
            try db.setSetting(NotificationSettings.Key.allowPrivateReceivers, "true")
            let allowed = try NotificationSettings.deliveryConfiguration(environment: [:], database: db)
            let second = try ChannelSetup.sendTest(channelID: channel.id, in: db)
            _ = try OutboxDeliverer(store: db, configuration: allowed).deliverDueBatch(onlyID: second)
            #expect(try db.delivery(id: second)?.state == .sent)
            #expect(try NotificationSettings.allowsPrivateReceivers(environment: ["AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS": "1"], database: db))
        }
    }
}
