import Outbound
import Vocabulary
import Fetch
import Foundation
import Monitor
import Store
import Testing
import TestSupport
@testable import Web

/// A valid file that lacks an app ID the owner expects, checked by the real pipeline: every surface
/// that shows a domain's state says failing and why, not "passing". Real PostgreSQL and the HTTPS
/// test fleet; the pages through the app's request handler.
@Suite(.serialized) struct DomainStateSurfacesTests {
    static let shop = "ABCDE12345.shop"
    static let expected = "ABCDE12345.com.example.app"
    static let host = "surfaces.fleet.test"
    static let missing = "App ID ABCDE12345.com.example.app is missing from applinks."
    static let failingCell = #"<td data-label="State"><span class="pill state-failing">"#
    static let passingCell = #"<td data-label="State"><span class="pill state-passing">"#

    /// The fleet's default site serves this valid file for every unknown name under fleet.test.
    func serve(_ fleet: TestTLSFleet, _ text: String) throws {
        try fleet.deploy(text, at: "/.well-known/apple-app-site-association")
    }

    /// One scheduler round through the real check pipeline.
    func checkDue(_ pipeline: CheckPipeline) async throws -> Int {
        let db = pipeline.database
        try db.execute("UPDATE domains SET next_check_at = now() - interval '1 second'")
        let leased = try db.leaseDueDomains(limit: 10, lease: .seconds(60), worker: "surfaces")
        let expectations = Dictionary(grouping: try db.expectations(domainIDs: leased.map(\.id)), by: \.domainID)
        let histories = try db.domainHistories(domainIDs: leased.map(\.id))
        for domain in leased {
            _ = try await pipeline.run(domain, expectations: Expectations(rows: expectations[domain.id] ?? []), history: histories[domain.id])
        }
        return leased.count
    }

    func api(_ app: WebApp, _ target: String, token: String) -> [String: Any] {
        let r = app.respond(WebRequest(method: "GET", target: target, headers: [("Authorization", "Bearer " + token)]))
        return (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:]
    }

    @Test func overviewAPIMetricsBadgeAndPageSayFailingWhenAnExpectedAppIDIsMissing() async throws {
        try await TestTLSFleet.with { fleet in
            try serve(fleet, #"{"applinks": {"details": [{"appIDs": ["\#(Self.shop)"], "components": [{"/": "/*"}]}]}}"#)
            let fetcher = try Fetcher(FetchConfiguration(
                policy: OutboundPolicy(allowPrivateAddresses: true), cdnBase: fleet.cdnBase, checkCDN: false,
                rootLocation: .whenWellKnownFails, compareUserAgents: false, extraCAFile: fleet.caFile,
                connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
                // Generous: a slow, loaded machine must not turn the good file into a failed check.
                connectTimeout: .seconds(30), totalTimeout: .seconds(60)))
            defer { fetcher.shutdown() }
            try await TestPostgres.withDatabase { (db: Database) async throws in
                let app = WebApp(database: db, configuration: TestApp.configuration)
                let client = WebClient(app: app)
                client.setUpAdmin()
                let token = SecretToken.generate(prefix: "aasa_")
                _ = try db.createAPIToken(name: "surfaces", tokenHash: token.digest, userID: nil, role: .admin)

                client.get("/domains/new")
                #expect(client.post("/domains", [("host", Self.host), ("appid", Self.shop), ("service", "applinks"),
                                                 ("appid", Self.expected), ("service", "applinks"), ("interval", "60"),
                                                 ("badge", "on")]).status == 303)
                let id = try #require(try db.domain(host: Self.host)?.id)
                #expect(try await checkDue(CheckPipeline(database: db, fetcher: fetcher)) == 1)
                // The file itself is fine: the check's verdict is the file's.
                let fileVerdict: Verdict = try db.value("SELECT verdict FROM checks WHERE domain_id = $1", id)
                #expect(fileVerdict != .fail)

                // Overview: the failing pill, the reason, the failing filter and its count.
                let overview = client.get("/").bodyText
                // (The filter cards show every state's pill; the table cell is the domain's.)
                #expect(overview.contains(Self.failingCell) && !overview.contains(Self.passingCell), "\(overview)")
                #expect(overview.contains(Self.missing))
                #expect(client.get("/?state=failing").bodyText.contains(Self.host))
                #expect(!client.get("/?state=passing").bodyText.contains("/domains/\(id)\""))

                // The JSON API's list and read.
                let list = api(app, "/api/v1/domains", token: token.value)["domains"] as? [[String: Any]]
                #expect(list?.first?["state"] as? String == "failing")
                #expect(list?.first?["reason"] as? String == Self.missing)
                let read = api(app, "/api/v1/domains/\(id)", token: token.value)
                #expect(read["state"] as? String == "failing" && read["reason"] as? String == Self.missing, "\(read)")

                // /metrics' per-state count and the badge.
                let metrics = client.get("/metrics").bodyText
                #expect(metrics.contains("aasa_domains{verdict=\"fail\"} 1") && !metrics.contains("aasa_domains{verdict=\"pass\"}"), "\(metrics)")
                #expect(metrics.contains("# TYPE aasa_domains_unmet_expectations gauge\naasa_domains_unmet_expectations 1\n"), "\(metrics)")
                let badge = client.get("/badge/\(Self.host).svg").bodyText
                #expect(badge.contains("app links: failing"), "the domain is watched for both platforms: \(badge)")

                // The domain page's sentence agrees with the state.
                let page = client.get("/domains/\(id)").bodyText
                #expect(page.contains("but not what you expect") && page.contains("\(Self.expected) is missing from applinks"))
                #expect(!page.contains("Devices cannot use this file"))
                // Its timeline labels the check failing, like the banner, with the expectation it missed
                // and the file's own verdict in the tooltip.
                let timeline = try #require(page.range(of: "id=\"timeline\"").map { String(page[$0.upperBound...]) })
                #expect(timeline.contains("The file itself: \(DomainState(verdict: fileVerdict).label)\">Failing · 1 expectation unmet")
                        && timeline.contains(Self.missing), "\(timeline)")

                // Dropping the expectation in the edit form shows at once, before the next check.
                client.get("/domains/\(id)/edit")
                #expect(client.post("/domains/\(id)/edit", [("host", Self.host), ("appid", Self.shop), ("service", "applinks"),
                                                            ("interval", "60"), ("badge", "on")]).status == 303)
                #expect(!client.get("/").bodyText.contains(Self.failingCell))
                #expect(api(app, "/api/v1/domains/\(id)", token: token.value)["state"] as? String != "failing")
                #expect(!client.get("/badge/\(Self.host).svg").bodyText.contains("failing"))
                #expect(client.get("/metrics").bodyText.contains("\naasa_domains_unmet_expectations 0\n"))

                // ...and so does adding it back over the API.
                let patch = app.respond(WebRequest(method: "PATCH", target: "/api/v1/domains/\(id)",
                    headers: [("Authorization", "Bearer " + token.value), ("Content-Type", "application/json")],
                    body: Array(#"{"app_ids": [{"service": "applinks", "app_id": "\#(Self.expected)"}]}"#.utf8)))
                #expect(patch.status == 200)
                let patched = (try? JSONSerialization.jsonObject(with: Data(patch.body))) as? [String: Any] ?? [:]
                #expect(patched["state"] as? String == "failing" && patched["reason"] as? String == Self.missing, "\(patched)")
                let after = client.get("/metrics").bodyText
                #expect(after.contains("aasa_domains{verdict=\"fail\"} 1") && after.contains("\naasa_domains_unmet_expectations 1\n"), "\(after)")
            }
        }
    }
}
