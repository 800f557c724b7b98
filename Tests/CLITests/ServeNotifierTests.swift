import Foundation
import Store
import TestSupport
import Testing

@Suite struct ServeNotifierTests {
    /// `serve` runs the delivery worker: rows queued while it was down are sent when it starts,
    /// and rows queued while it runs are sent at once (NOTIFY), each exactly once.
    @Test func serveDeliversTheOutbox() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let receiver = try TestWebhookReceiver()
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        _ = try db.createChannel(NewChannel(kind: .webhook, target: receiver.url, secret: nil))
        func event(_ title: String) -> NotificationEvent {
            NotificationEvent(kind: .alertOpened, occurredAt: Date(), domainHost: "shop.example", severity: .critical, title: title)
        }
        try db.enqueueNotification(event("queued before serve started"))

        let serve = try ServeProcess(arguments: ["--port", "0"],
                                     environment: ["DATABASE_URL": database.url, "AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS": "1"])
        _ = try serve.waitForPort()
        #expect(receiver.waitForRequests(1).count == 1, "\(serve.standardError)")
        try db.enqueueNotification(event("queued while serve runs"))
        #expect(receiver.waitForRequests(2).count == 2, "\(serve.standardError)")
        #expect(try serve.terminate() == 0)
        #expect(try db.deliveryCounts()[.sent] == 2)
        #expect(Set(receiver.requests().compactMap { $0.headers["webhook-id"] }).count == 2)
    }

    /// With no dashboard address set, a message's links lead to the port `serve` listens on (here a
    /// free one), for the notifier's alerts and for a test sent from the dashboard alike; they led to
    /// :8080 whatever the port (issue #31).
    @Test func linksLeadToThePortServeListensOn() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let receiver = try TestWebhookReceiver()
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        let channel = try db.createChannel(NewChannel(kind: .webhook, target: receiver.url, secret: nil))
        let created = try BuiltCommand.run(["token", "create", "links", "--database-url", database.url])
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(created.status == 0, "\(created.stderr)")
        let serve = try ServeProcess(arguments: ["--port", "0", "--no-crawl"],
                                     environment: ["DATABASE_URL": database.url, "AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS": "1",
                                                   "AASA_MONITOR_BASE_URL": ""])
        let port = try serve.waitForPort()
        func links(_ request: TestWebhookReceiver.Request) -> [String: String] {
            let envelope = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
            return (envelope?["data"] as? [String: Any])?["links"] as? [String: String] ?? [:]
        }
        try db.enqueueNotification(NotificationEvent(kind: .alertOpened, occurredAt: Date(), domainHost: "shop.example",
                                                     severity: .critical, title: "broken"))
        let alert = try #require(receiver.waitForRequests(1).first, "\(serve.standardError)")
        #expect(links(alert)["domain"] == "http://127.0.0.1:\(port)/domains/shop.example")
        #expect(links(alert)["alerts"] == "http://127.0.0.1:\(port)/alerts")

        let test = try PlainHTTPResponse.get(port: port, path: "/api/v1/channels/\(channel.id)/test",
                                             headers: ["Authorization: Bearer \(token)"], method: "POST")
        #expect(test.status == 200, "\(test.body)")
        let sent = receiver.waitForRequests(2)
        #expect(sent.count == 2)
        #expect(sent.last.map(links)?["alerts"] == "http://127.0.0.1:\(port)/alerts")
        #expect(try serve.terminate() == 0)
    }
}
