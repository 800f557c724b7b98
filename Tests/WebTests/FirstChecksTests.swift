import Foundation
import Registry
@testable import Store
import Testing
import TestSupport
import TextEncoding
import Vocabulary
@testable import Web

/// An import's first checks as the dashboard shows them, and "check now" for a whole app, through the
/// pages and the API on a real PostgreSQL (issue #31).
@Suite(.serialized) struct FirstChecksTests {
    static let entitlements = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>com.apple.developer.associated-domains</key>
        <array><string>applinks:shop.example</string><string>applinks:www.shop.example</string><string>webcredentials:shop.example</string></array>
        </dict></plist>
        """

    /// Leases `host` alone and stores a passing check of it, as a worker would.
    func check(_ db: Database, _ host: String) throws {
        try db.execute("UPDATE domains SET next_check_at = now() - interval '1 second', first_check_queued_at = NULL WHERE host = $1", host)
        let lease = try #require(try db.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "web-test").first { $0.host.ascii == host })
        let record = CheckRecord(domainID: lease.id, attemptKey: lease.attemptKey, startedAt: Date(), finishedAt: Date(), verdict: .pass,
                                 version: StoredBody(.apple, sha256: String(repeating: "c", count: 64), bytes: [1]), changed: true,
                                 latencyMilliseconds: 9, findings: [], transport: CheckTransport(), expectations: ExpectationResults(),
                                 summaryJSON: "{}", eventsJSON: "[]", consecutiveFailures: 0, nextCheckAt: Date().addingTimeInterval(3600),
                                 streaks: nil, alertChanges: [])
        guard case .recorded = try db.record(record) else { throw Failure.notRecorded }
    }
    enum Failure: Error { case notRecorded }

    /// While imported domains wait for their first check, the overview says how far the checks are
    /// ("Checking new domains: 1 of 3 checked, 2 to go."); once every domain has a verdict it says nothing.
    @Test func theOverviewShowsTheFirstChecksProgress() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            let report = try DomainRegistry(store: db).importList("one.example\ntwo.example\nthree.example")
            #expect(report.added.count == 3)
            #expect(try db.firstCheckProgress() == FirstCheckProgress(waiting: 3, total: 3))
            #expect(client.get("/").bodyText.contains("Checking new domains: 0 of 3 checked, 3 to go."))

            try check(db, "two.example")
            #expect(try db.firstCheckProgress() == FirstCheckProgress(waiting: 2, total: 3))
            let page = client.get("/").bodyText
            #expect(page.contains("Checking new domains: 1 of 3 checked, 2 to go."), "\(page)")

            try check(db, "one.example")
            try check(db, "three.example")
            let done = client.get("/").bodyText
            #expect(!done.contains("Checking new domains"), "\(done)")
            #expect(done.contains("two.example"))
        }
    }

    /// "Check now" on an app requests a check of every domain it claims, in one statement, from the
    /// app page's button and from `POST /api/v1/apps/{id}/check`; a domain of no app is left alone.
    @Test func checkNowOnAnAppRequestsEveryDomainOfIt() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let client = WebClient(app: app)
            client.setUpAdmin()
            #expect(client.get("/apps/new").status == 200)
            let created = client.post("/apps", [("entitlements", Self.entitlements), ("apple_app_ids", "ABCDE12345.com.example.shop"),
                                                ("name", "Shop")])
            #expect(created.status == 303, "\(created.bodyText)")
            let appID: Int64 = try db.value("SELECT id FROM apps WHERE name = 'Shop'")
            _ = try DomainRegistry(store: db).importList("other.example")
            func requested() throws -> [String] {
                try db.rows("SELECT host FROM domains WHERE check_requested_at IS NOT NULL ORDER BY host").map { try $0.decode("host") }
            }
            // The registration's own first checks ran; nothing is requested now.
            try db.execute("UPDATE domains SET check_requested_at = NULL")

            let page = client.get("/apps/\(appID)").bodyText
            #expect(page.contains("action=\"/apps/\(appID)/check\""), "the app page has the button")
            let pressed = client.post("/apps/\(appID)/check")
            #expect(pressed.status == 303)
            #expect(client.get("/apps/\(appID)").bodyText.contains("Check requested for 2 domains of Shop"))
            #expect(try requested() == ["shop.example", "www.shop.example"])

            try db.execute("UPDATE domains SET check_requested_at = NULL")
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "ci", tokenHash: token.digest, userID: nil, role: .admin)
            let viewerToken = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "ro", tokenHash: viewerToken.digest, userID: nil, role: .readOnly)
            func post(_ target: String, _ bearer: String) -> (status: Int, body: [String: Any]) {
                let r = app.respond(WebRequest(method: "POST", target: target, headers: [("Authorization", "Bearer " + bearer)], body: []))
                return (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:])
            }
            #expect(post("/api/v1/apps/Shop/check", viewerToken.value).status == 403)
            #expect(try requested().isEmpty)
            let accepted = post("/api/v1/apps/Shop/check", token.value)
            #expect(accepted.status == 202)
            #expect(accepted.body["checks_requested"] as? Int == 2, "\(accepted.body)")
            #expect(accepted.body["status_url"] as? String == "/api/v1/apps/\(appID)")
            #expect(try requested() == ["shop.example", "www.shop.example"])
            #expect(post("/api/v1/apps/999/check", token.value).status == 404)
        }
    }
}
