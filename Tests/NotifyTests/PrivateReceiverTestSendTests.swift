import Foundation
import Notify
import Store
import Testing
import TestSupport
import Vocabulary

/// "Send test" on a receiver on this machine, with a notifier running beside the dashboard (as in
/// `serve`): the person who pressed it gets the answer now, with the settings as they are now, and a
/// setting changed on the page applies to the notifier's next message (issue #31: "Queued", tests
/// waiting behind the first one's backoff, and a refusal while the page showed "allowed").
@Suite(.serialized) struct PrivateReceiverTestSendTests {
    /// The notifier as `serve` starts it: the settings read from the database, re-read by `reload`.
    static func notifier(_ db: Database) throws -> DeliveryWorker {
        let read = { @Sendable () throws -> DeliveryConfiguration in
            var configuration = try NotificationSettings.deliveryConfiguration(environment: [:], database: db)
            configuration.retry = RetryPolicy(initialDelay: .seconds(60), maximumDelay: .seconds(60))
            configuration.pollInterval = .milliseconds(200)
            return configuration
        }
        let worker = DeliveryWorker(database: db, configuration: try read(), reload: read, log: { _ in })
        worker.start()
        return worker
    }

    @Test func aTestIsAnsweredByWhoSentItWithTheSettingsOfNow() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let receiver = try TestWebhookReceiver()
            let channel = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db).channel
            let worker = try Self.notifier(db)
            defer { worker.stop() }
            // Refused at once, every time: none is left to the notifier ("Queued") or to its backoff.
            for _ in 0..<5 {
                let outcome = try ChannelSetup.testNow(channelID: channel.id, in: db, environment: [:])
                #expect(outcome.attempt != nil, "\(outcome.summary)")
                #expect(outcome.summary.contains("refused address 127.0.0.1"), "\(outcome.summary)")
            }
            #expect(receiver.requests().isEmpty)
            // Allowed on the page: the next test is delivered at once.
            try db.setSetting(NotificationSettings.Key.allowPrivateReceivers, "true")
            let delivered = try ChannelSetup.testNow(channelID: channel.id, in: db, environment: [:])
            #expect(delivered.delivered, "\(delivered.summary)")
            #expect(receiver.requests().count == 1)
        }
    }

    /// The notifier sends with the settings of the moment it sends: allowing private receivers
    /// applies to the next alert, not half a minute later (the settings were re-read every 30 s).
    @Test func theNotifierSendsWithTheSettingsOfTheMoment() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let receiver = try TestWebhookReceiver()
            _ = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db)
            let worker = try Self.notifier(db)
            defer { worker.stop() }
            try db.setSetting(NotificationSettings.Key.allowPrivateReceivers, "true")
            try db.enqueueNotification(NotificationEvent(kind: .alertOpened, occurredAt: Date(), domainHost: "shop.example",
                                                         severity: .critical, title: "broken"))
            let received = receiver.waitForRequests(1, timeout: .seconds(20))
            let errors = try db.deliveries().map { $0.lastError ?? "" }
            #expect(received.count == 1, "\(errors)")
        }
    }

    /// A test row is held by its sender from the start: a notifier's claim passes it by, its sender's takes it.
    @Test func aTestRowIsLeasedToItsSender() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let channel = try ChannelSetup.add(kind: .webhook, target: "https://hooks.example.com/x", in: db).channel
            let id = try ChannelSetup.sendTest(channelID: channel.id, in: db, leasedTo: "dashboard-1")
            #expect(try db.claimDueDeliveries(limit: 10, lease: .seconds(60), worker: "notifier-2").isEmpty)
            #expect(try db.claimDueDeliveries(limit: 10, lease: .seconds(60), worker: "dashboard-1").isEmpty, "only by its id")
            #expect(try db.claimDueDeliveries(limit: 10, lease: .seconds(60), worker: "notifier-2", onlyID: id).isEmpty)
            #expect(try db.claimDueDeliveries(limit: 10, lease: .seconds(60), worker: "dashboard-1", onlyID: id).map(\.id) == [id])
        }
    }

    /// A URL on this machine is accepted with a warning while private receivers are refused.
    @Test func aPrivateURLGetsAWarningAtEntry() {
        let loopback = ChannelSetup.privateReceiverWarning(kind: .webhook, target: "http://127.0.0.1:9000/hook", allowsPrivate: false)
        #expect(loopback == "127.0.0.1 is in loopback 127.0.0.0/8, and receivers on this machine or a private network are refused: "
                + "nothing is delivered to this channel until an admin allows private receivers (Settings → Channels → Private receivers).")
        #expect(ChannelSetup.privateReceiverWarning(kind: .ntfy, target: "http://localhost:8080/alerts", allowsPrivate: false)?
                    .hasPrefix("localhost is this machine") == true)
        #expect(ChannelSetup.privateReceiverWarning(kind: .discord, target: "https://[::1]/x", allowsPrivate: false) != nil)
        #expect(ChannelSetup.privateReceiverWarning(kind: .webhook, target: "http://192.168.1.5/x", allowsPrivate: false)?.contains("private 192.168.0.0/16") == true)
        #expect(ChannelSetup.privateReceiverWarning(kind: .webhook, target: "http://127.0.0.1:9000/hook", allowsPrivate: true) == nil)
        #expect(ChannelSetup.privateReceiverWarning(kind: .webhook, target: "https://hooks.example.com/x", allowsPrivate: false) == nil)
        #expect(ChannelSetup.privateReceiverWarning(kind: .email, target: "ops@127.0.0.1", allowsPrivate: false) == nil)
    }
}
