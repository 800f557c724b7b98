import Foundation
import Monitor
import Store
import Testing
import TestSupport
@testable import Web

/// "Check now" and registration put the domain at the head of the crawler queue and wake every
/// sleeping crawler through the scheduler's NOTIFY channel; a GET never does either.
@Suite(.serialized) struct CheckNowWakeUpTests {
    static let app = "ABCDE12345.com.example.app"

    /// The notifications on the scheduler's channel that arrive within `timeout` (returns at the
    /// first). Generous by default, for wake-ups that must come; only the app sends on this channel,
    /// so the short "nothing arrives" windows cannot catch a stray one however slow the machine.
    func wakeUps(_ listener: NotificationListener, timeout: Duration = .seconds(60)) -> [DatabaseNotification] {
        let deadline = ContinuousClock.now + timeout
        var seen: [DatabaseNotification] = []
        while ContinuousClock.now < deadline, seen.isEmpty {
            if case .notifications(let list) = listener.wait(timeout: deadline - ContinuousClock.now) {
                seen += list.filter { $0.channel == DomainScheduler.checkNowChannel }
            }
        }
        return seen
    }

    @Test func pageAndAPIWakeTheCrawlersAndPageLoadsDoNot() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let listener = db.makeListener()
            try listener.listen(DomainScheduler.checkNowChannel)
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()

            client.get("/domains/new")
            let created = client.post("/domains", [("host", "wake.example"), ("appid", Self.app), ("service", "applinks"),
                                                    ("interval", "60")])
            #expect(created.status == 303)
            #expect(wakeUps(listener).count == 1, "registration must wake the crawlers for the first check")
            let id: Int64 = try #require(try db.listDomains().first.map { Int64($0.id) })

            // The crawler took the first check; nothing is requested any more.
            try db.execute("UPDATE domains SET check_requested_at = NULL WHERE id = $1", id)
            // Loading pages (including the check URL itself) requests nothing and wakes nobody.
            #expect(client.get("/domains/\(id)").status == 200)
            #expect(client.get("/domains/\(id)/check").status == 405)
            #expect(client.get("/domains/\(id)/status").status == 200)
            #expect(try db.domain(id: id)?.checkRequestedAt == nil)
            #expect(wakeUps(listener, timeout: .milliseconds(300)).isEmpty)

            // Without the CSRF token the button does nothing either.
            #expect(client.post("/domains/\(id)/check", csrf: .some(nil)).status == 403)
            #expect(try db.domain(id: id)?.checkRequestedAt == nil)

            client.get("/domains/\(id)")
            #expect(client.post("/domains/\(id)/check").status == 303)
            #expect(try db.domain(id: id)?.checkRequestedAt != nil)
            #expect(wakeUps(listener).count == 1, "check now must wake the crawlers")

            // The requested domain is leased ahead of one that has been due for an hour.
            guard case .created(let routine) = try db.createDomain(DomainDraft(host: "routine.example", displayName: "routine.example",
                wildcard: false, intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: [])) else {
                Issue.record("routine.example not created"); return
            }
            try db.execute("UPDATE domains SET check_requested_at = NULL, next_check_at = now() - interval '1 hour' WHERE id = $1", routine)
            let leased = try db.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "test")
            #expect(leased.map(\.id) == [id])

            // The API's check-now does the same.
            try db.execute("UPDATE domains SET check_requested_at = NULL, lease_until = NULL WHERE id = $1", id)
            _ = wakeUps(listener, timeout: .milliseconds(300))
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "ci", tokenHash: token.digest, userID: nil, role: .admin)
            let api = client.send(WebRequest(method: "POST", target: "/api/v1/domains/\(id)/check",
                                             headers: [("Authorization", "Bearer \(token.value)")], remoteAddress: "127.0.0.1"))
            #expect(api.status == 202, "\(api.bodyText)")
            #expect(try db.domain(id: id)?.checkRequestedAt != nil)
            #expect(wakeUps(listener).count == 1, "the API's check now must wake the crawlers")
        }
    }
}
