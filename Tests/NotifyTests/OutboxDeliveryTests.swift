import Vocabulary
import Foundation
import Notify
import Store
import Testing
import TestSupport

/// The outbox against a real PostgreSQL, a real SMTP server and a real HTTP receiver.
@Suite struct OutboxDeliveryTests {
    static let links = NotificationLinks(baseURL: "https://monitor.example.test")

    /// Short backoff so retries happen within a test; loopback receivers allowed explicitly. Long
    /// send timeouts: no test here wants one, and on a slow, loaded machine a Python server's
    /// answer must not become a timed-out attempt.
    static func configuration(smtp: TestSMTP?, retry: RetryPolicy = RetryPolicy(initialDelay: .milliseconds(200), maximumDelay: .milliseconds(500)),
                              threads: Int = 2, pollInterval: Duration = .seconds(1)) -> DeliveryConfiguration {
        DeliveryConfiguration(mail: smtp.map { MailSettings(url: $0.url, from: "alerts@monitor.example.test", timeoutSeconds: 30, allowPrivateServer: true) },
                              links: links, webhookPolicy: WebhookAddressPolicy(allowPrivateAddresses: true),
                              webhookTimeoutSeconds: 30, retry: retry, threads: threads, pollInterval: pollInterval)
    }

    static func event(severity: AlertSeverity = .critical, title: String = "the file is unreachable") -> NotificationEvent {
        NotificationEvent(kind: .alertOpened, occurredAt: Date(), domainHost: "shop.example", severity: severity, title: title,
                          findings: [.init(code: "http-status", severity: .error, message: "The server answered 503.")],
                          openedAt: Date())
    }

    @Test func oneEventReachesEveryChannelOnceAndEachAttemptIsLogged() throws {
        try TestPostgres.withDatabase { db in
            let smtp = try TestSMTP()
            let receiver = try TestWebhookReceiver()
            let email = try ChannelSetup.add(kind: .email, target: "ops@example.test", in: db)
            #expect(email.secret == nil)
            let hook = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db)
            let secretText = try #require(hook.secret)
            let secret = try #require(WebhookSecret(secretText))

            #expect(try db.enqueueNotification(Self.event()) == 2)
            let deliverer = OutboxDeliverer(store: db, configuration: Self.configuration(smtp: smtp))
            #expect(try deliverer.drain() == 2)

            let deliveries = try db.deliveries()
            #expect(deliveries.count == 2)
            #expect(deliveries.allSatisfy { $0.state == .sent && $0.sentAt != nil && $0.attempts == 1 })
            let hookDelivery = try #require(deliveries.first { $0.channelID == hook.channel.id })
            let mailDelivery = try #require(deliveries.first { $0.channelID == email.channel.id })

            let request = try #require(receiver.waitForRequests(1).first)
            #expect(request.headers["webhook-id"] == hookDelivery.idempotencyID)
            let timestamp = try #require(request.headers["webhook-timestamp"].flatMap(Int.init))
            #expect(request.headers["webhook-signature"] == secret.signature(id: hookDelivery.idempotencyID, timestamp: timestamp, body: request.body))
            #expect(try PythonHMAC.standardWebhooksSignature(secret: secretText, id: hookDelivery.idempotencyID,
                                                             timestamp: timestamp, body: request.body) == request.headers["webhook-signature"])
            let mail = try #require(smtp.waitForMessages(1).first)
            #expect(try ParsedMail(mail.data).header("Message-ID") == "<\(mailDelivery.idempotencyID)@monitor.example.test>")

            let hookLog = try db.deliveryAttempts(deliveryID: hookDelivery.id)
            #expect(hookLog.count == 1)
            #expect(hookLog.first?.succeeded == true)
            #expect(hookLog.first?.responseCode == 200)
            let mailLog = try db.deliveryAttempts(deliveryID: mailDelivery.id)
            #expect(mailLog.first?.responseCode == 250)
            #expect(mailLog.first?.response?.contains("queued") == true)
            // Nothing left: a second pass sends nothing again.
            #expect(try deliverer.drain() == 0)
            #expect(receiver.requests().count == 1)
            #expect(smtp.messages().count == 1)
        }
    }

    @Test func serversDownForSeveralRetriesThenBackDeliverExactlyOnceWithTheSameID() throws {
        try TestPostgres.withDatabase { db in
            let smtp = try TestSMTP()
            let receiver = try TestWebhookReceiver()
            _ = try ChannelSetup.add(kind: .email, target: "ops@example.test", in: db)
            _ = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db)
            smtp.stop()
            receiver.stop()
            for i in 0..<3 { try db.enqueueNotification(Self.event(title: "outage \(i)")) }

            let worker = DeliveryWorker(database: db, configuration: Self.configuration(smtp: smtp), log: { _ in })
            worker.start()
            defer { worker.stop() }
            // Down for several attempts each.
            #expect(try waitUntil(timeout: .seconds(60)) { try db.deliveries().allSatisfy { $0.attempts >= 3 } })
            #expect(try db.deliveries().allSatisfy { $0.state == .pending && $0.lastError?.contains("curl error 7") == true })
            try smtp.start()
            try receiver.start()
            #expect(try waitUntil(timeout: .seconds(60)) { try db.deliveries().allSatisfy { $0.state == .sent } })

            let deliveries = try db.deliveries()
            let requests = receiver.requests()
            let mails = smtp.messages()
            #expect(requests.count == 3)
            #expect(mails.count == 3)
            let allIDs = Set(deliveries.map(\.idempotencyID))
            #expect(Set(requests.compactMap { $0.headers["webhook-id"] }).isSubset(of: allIDs))
            #expect(Set(requests.compactMap { $0.headers["webhook-id"] }).count == 3)
            let messageIDs = try mails.map { try ParsedMail($0.data).header("Message-ID") ?? "" }
            #expect(Set(messageIDs).count == 3)
            for d in deliveries {
                let log = try db.deliveryAttempts(deliveryID: d.id)
                #expect(log.count == d.attempts)
                #expect(log.last?.succeeded == true)
                #expect(log.dropLast().allSatisfy { !$0.succeeded && $0.error?.isEmpty == false })
            }
        }
    }

    @Test func a500IsRetriedWithTheSameWebhookID() throws {
        try TestPostgres.withDatabase { db in
            let receiver = try TestWebhookReceiver()
            try receiver.respond(with: 500)
            _ = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db)
            try db.enqueueNotification(Self.event())
            let worker = DeliveryWorker(database: db, configuration: Self.configuration(smtp: nil), log: { _ in })
            worker.start()
            defer { worker.stop() }
            #expect(receiver.waitForRequests(3, timeout: .seconds(60)).count >= 3)
            try receiver.respond(with: 200)
            #expect(try waitUntil(timeout: .seconds(60)) { try db.deliveries().first?.state == .sent })
            let delivery = try #require(try db.deliveries().first)
            let requests = receiver.requests()
            #expect(Set(requests.compactMap { $0.headers["webhook-id"] }) == [delivery.idempotencyID])
            #expect(requests.filter { $0.answeredStatus == 200 }.count == 1)
            let log = try db.deliveryAttempts(deliveryID: delivery.id)
            #expect(log.count == requests.count)
            #expect(log.dropLast().allSatisfy { $0.responseCode == 500 && $0.error == "HTTP 500" })
            #expect(log.last?.responseCode == 200)
        }
    }

    @Test func a410DisablesTheChannelAndSaysWhy() throws {
        try TestPostgres.withDatabase { db in
            let receiver = try TestWebhookReceiver()
            try receiver.respond(with: 410)
            let hook = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db)
            try db.enqueueNotification(Self.event())
            try OutboxDeliverer(store: db, configuration: Self.configuration(smtp: nil)).drain()

            let channel = try #require(try db.channel(id: hook.channel.id))
            #expect(!channel.enabled)
            #expect(channel.disabledReason?.contains("410 Gone") == true)
            let delivery = try #require(try db.deliveries().first)
            #expect(delivery.state == .failed)
            #expect(delivery.lastError == "HTTP 410")
            #expect(receiver.requests().count == 1)
            // A disabled channel gets no new rows; enabling it again clears the reason.
            #expect(try db.enqueueNotification(Self.event()) == 0)
            let enabled = try #require(try db.updateChannel(id: channel.id, ChannelSettings(name: "", target: channel.target, enabled: true,
                                                                                         minSeverity: .info, domainIDs: [])))
            #expect(enabled.enabled && enabled.disabledReason == nil)
        }
    }

    @Test func givesUpAfterTheHorizonWithAVisibleFailedState() throws {
        try TestPostgres.withDatabase { db in
            let receiver = try TestWebhookReceiver()
            try receiver.respond(with: 503)
            _ = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db)
            // A two-second horizon stands in for the default 24 hours.
            try db.enqueueNotification(Self.event(), horizon: .seconds(2))
            let worker = DeliveryWorker(database: db, configuration: Self.configuration(smtp: nil), log: { _ in })
            worker.start()
            defer { worker.stop() }
            #expect(try waitUntil(timeout: .seconds(60)) { try db.deliveries().first?.state == .failed })
            let delivery = try #require(try db.deliveries().first)
            // A failed attempt before the horizon is always retried (the last retry falls on the
            // horizon itself), so the first attempt leads to a second unless a machine so slow that
            // the whole two seconds passed before it ended made that first attempt the last.
            let firstAttempt = try #require(try db.deliveryAttempts(deliveryID: delivery.id).first)
            if firstAttempt.attemptedAt < delivery.giveUpAt {
                #expect(delivery.attempts >= 2)
            }
            #expect(delivery.lastError == "HTTP 503")
            #expect(try db.deliveryCounts()[.failed] == 1)
            // Failed is final: nothing is sent after it.
            let sent = receiver.requests().count
            #expect(sent == delivery.attempts)
            try receiver.respond(with: 200)
            #expect(try OutboxDeliverer(store: db, configuration: Self.configuration(smtp: nil)).drain() == 0)
        }
    }

    @Test func severityFilterAndTestNotificationBypass() throws {
        try TestPostgres.withDatabase { db in
            let receiver = try TestWebhookReceiver()
            let pager = try ChannelSetup.add(kind: .webhook, target: receiver.url + "/pager", minSeverity: .critical, in: db)
            let everything = try ChannelSetup.add(kind: .slack, target: receiver.url + "/slack", in: db)
            #expect(try db.enqueueNotification(Self.event(severity: .warning)) == 1)
            #expect(try db.enqueueNotification(Self.event(severity: .critical)) == 2)
            #expect(try db.deliveries(channelID: pager.channel.id).count == 1)
            #expect(try db.deliveries(channelID: everything.channel.id).count == 2)
            _ = try ChannelSetup.sendTest(channelID: pager.channel.id, in: db)
            try OutboxDeliverer(store: db, configuration: Self.configuration(smtp: nil)).drain()
            let requests = receiver.waitForRequests(4)
            #expect(requests.filter { $0.path == "/hook/pager" }.count == 2)
            let test = try #require(requests.first { $0.path == "/hook/pager" && $0.bodyText.contains("\"type\":\"test\"") })
            #expect(test.headers["webhook-signature"]?.hasPrefix("v1,") == true)
            #expect(requests.filter { $0.path == "/hook/slack" }.allSatisfy { $0.bodyText.contains("\"blocks\"") })
        }
    }

    @Test func aNotifyWakesAnIdleWorkerWithoutWaitingForThePoll() throws {
        try TestPostgres.withDatabase { db in
            let receiver = try TestWebhookReceiver()
            _ = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db)
            // A poll interval far longer than the wait below: only LISTEN/NOTIFY can deliver in time.
            let worker = DeliveryWorker(database: db, configuration: Self.configuration(smtp: nil, pollInterval: .seconds(600)), log: { _ in })
            worker.start()
            defer { worker.stop() }
            #expect(try waitUntil { try db.secondsUntilNextDelivery() == nil })
            // The worker's listener must be LISTENing before the row is written, or the delivery below
            // would come from the wake-up it gives itself after LISTEN (rows may have arrived meanwhile),
            // not from the NOTIFY: wait for its session to have run the LISTEN (no fixed sleep, which a
            // loaded machine can outlast).
            #expect(try waitUntil {
                try db.value("""
                    SELECT count(*)::int FROM pg_stat_activity
                    WHERE datname = current_database() AND application_name = 'aasa-monitor listener'
                      AND state = 'idle' AND query LIKE 'LISTEN %'
                    """) as Int == 1
            }, "the delivery worker's listener never ran LISTEN")
            // A short pause so the senders are likely asleep too (not relied on: a sender still awake
            // would deliver just as well).
            usleep(300_000)
            try db.withTransaction { tx in _ = try tx.enqueueNotification(Self.event()) }
            #expect(receiver.waitForRequests(1).count == 1)
        }
    }

    @Test func competingWorkersSendEachRowOnce() throws {
        try TestPostgres.withDatabase(poolSize: 10) { db in
            let receiver = try TestWebhookReceiver()
            _ = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db)
            for i in 0..<40 { try db.enqueueNotification(Self.event(title: "event \(i)")) }
            let a = DeliveryWorker(database: db, configuration: Self.configuration(smtp: nil, threads: 3), log: { _ in })
            let b = DeliveryWorker(database: db, configuration: Self.configuration(smtp: nil, threads: 3), log: { _ in })
            a.start()
            b.start()
            defer { a.stop(); b.stop() }
            #expect(try waitUntil(timeout: .seconds(60)) { try db.deliveryCounts()[.sent] == 40 })
            let ids = receiver.requests().compactMap { $0.headers["webhook-id"] }
            #expect(ids.count == 40)
            #expect(Set(ids).count == 40)
        }
    }

    @Test func aWorkerThatDiesMidSendLosesItsRowsToAnotherAfterTheLease() throws {
        try TestPostgres.withDatabase { db in
            let receiver = try TestWebhookReceiver()
            _ = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db)
            try db.enqueueNotification(Self.event())
            // A worker claims the row and dies before recording anything (kill -9 mid-send).
            let lease = Duration.seconds(1)
            let beforeClaim = ContinuousClock.now
            let claimed = try db.claimDueDeliveries(limit: 10, lease: lease, worker: "dead-worker")
            #expect(claimed.count == 1)
            let dead = try #require(claimed.first)
            // While the lease holds, nobody else takes the row. (Only provable while it can still
            // hold: on a machine so slow that the whole lease passed in between, "other" may take it.
            // Its own lease is as short, so a claim it rightly got that late expires too.)
            let other = try db.claimDueDeliveries(limit: 10, lease: lease, worker: "other")
            if ContinuousClock.now - beforeClaim < lease {
                #expect(other.isEmpty, "a leased row was claimed again")
            }
            let worker = DeliveryWorker(database: db, configuration: Self.configuration(smtp: nil), log: { _ in })
            worker.start()
            defer { worker.stop() }
            #expect(try waitUntil(timeout: .seconds(60)) { try db.deliveries().first?.state == .sent })
            let delivery = try #require(try db.deliveries().first)
            #expect(delivery.attempts == 2 + other.count)
            #expect(delivery.idempotencyID == dead.idempotencyID)
            #expect(receiver.requests().compactMap { $0.headers["webhook-id"] } == [dead.idempotencyID])
        }
    }

    /// The database is down just as a sent webhook's attempt is recorded (a PostgreSQL restart in the
    /// fault campaign): the deliverer records it once the database answers, within its lease, so the
    /// row is not sent a second time when the lease runs out.
    @Test func aSentAttemptIsRecordedOnceTheDatabaseIsBackNotSentAgain() throws {
        try TestPostgres.withDatabase { db in
            let receiver = try TestWebhookReceiver()
            _ = try ChannelSetup.add(kind: .webhook, target: receiver.url, in: db)
            try db.enqueueNotification(Self.event())
            let store = OutageAtRecording(database: db, failures: 2)
            var configuration = Self.configuration(smtp: nil)
            configuration.lease = .seconds(60)
            #expect(try OutboxDeliverer(store: store, configuration: configuration).deliverDueBatch() == 1)
            #expect(store.refused == 2)
            let delivery = try #require(try db.deliveries().first)
            #expect(delivery.state == .sent && delivery.attempts == 1)
            #expect(try OutboxDeliverer(store: db, configuration: configuration).deliverDueBatch() == 0)
            #expect(receiver.requests().compactMap { $0.headers["webhook-id"] } == [delivery.idempotencyID])
        }
    }

    @Test func domainFilterSendsOnlyThatDomainsEvents() throws {
        try TestPostgres.withDatabase { db in
            func register(_ host: String) throws -> Int64 {
                switch try db.createDomain(DomainDraft(host: host, displayName: host, wildcard: false, intervalSeconds: 3600,
                                                       badgeEnabled: false, appIDs: [], watchedURLs: [])) {
                case .created(let id), .alreadyRegistered(let id): return id
                }
            }
            let shop = try register("shop.example")
            let blog = try register("blog.example")
            let receiver = try TestWebhookReceiver()
            let shopOnly = try ChannelSetup.add(kind: .webhook, target: receiver.url, domainIDs: [shop], in: db)
            #expect(shopOnly.channel.domainIDs == [shop])
            var onShop = Self.event()
            onShop.domainID = shop
            var onBlog = Self.event()
            onBlog.domainID = blog
            onBlog.domainHost = "blog.example"
            #expect(try db.enqueueNotification(onShop) == 1)
            #expect(try db.enqueueNotification(onBlog) == 0)
            // Widening the filter to both domains (and back to all) takes effect for the next event.
            var changes = ChannelSettings(shopOnly.channel)
            changes.domainIDs = [shop, blog]
            #expect(try db.updateChannel(id: shopOnly.channel.id, changes)?.domainIDs == [shop, blog])
            #expect(try db.enqueueNotification(onBlog) == 1)
            changes.domainIDs = [blog]
            #expect(try db.updateChannel(id: shopOnly.channel.id, changes)?.domainIDs == [blog])
            #expect(try db.enqueueNotification(onShop) == 0)
            changes.domainIDs = []
            #expect(try db.updateChannel(id: shopOnly.channel.id, changes)?.domainIDs == [])
            #expect(try db.enqueueNotification(onShop) == 1)
        }
    }
}

/// The real database, except that recording a delivery attempt fails the first `failures` times, as
/// it does while PostgreSQL restarts.
private final class OutageAtRecording: AlertStore, @unchecked Sendable {
    private let database: Database
    private let lock = NSLock()
    private var failuresLeft: Int
    private(set) var refused = 0

    init(database: Database, failures: Int) {
        self.database = database
        failuresLeft = failures
    }

    func query(_ sql: SQL, _ parameters: [any SQLEncodable]) throws -> QueryResult {
        if sql.text.contains("INSERT INTO delivery_attempts") {
            let fail = lock.withLock {
                guard failuresLeft > 0 else { return false }
                failuresLeft -= 1
                refused += 1
                return true
            }
            if fail { throw DatabaseError.connectionLost(message: "server closed the connection unexpectedly") }
        }
        return try database.query(sql, parameters)
    }
}
