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
}
