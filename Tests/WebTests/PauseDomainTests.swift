import Fetch
import Foundation
import Monitor
import Outbound
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Web

/// Pausing a domain from its page and resuming it through the API, checked by the real pipeline
/// against the HTTPS test fleet and real PostgreSQL: while paused the fleet's access log shows no
/// request for the host, the pages and the API say "Paused", and its open alert neither resolves nor
/// changes (even for a check that was running when it was paused); resumed, it is due at once and
/// its next check resolves the alert.
@Suite(.serialized) struct PauseDomainTests {
    static let host = "paused.fleet.test"
    static let good = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.shop"], "components": [{"/": "/*"}]}]}}"#

    /// The fleet's default site serves `text` for every unknown name under fleet.test.
    func serve(_ fleet: TestTLSFleet, _ text: String) throws {
        try fleet.deploy(text, at: "/.well-known/apple-app-site-association")
    }

    /// Leases what is due (nothing is made due here) and runs it through the pipeline: one scheduler
    /// round. Returns how many domains it took.
    func checkDue(_ pipeline: CheckPipeline) async throws -> Int {
        let db = pipeline.database
        let leased = try db.leaseDueDomains(limit: 10, lease: .seconds(60), worker: "pause")
        let histories = try db.domainHistories(domainIDs: leased.map(\.id))
        for domain in leased { _ = try await pipeline.run(domain, expectations: Expectations(rows: []), history: histories[domain.id]) }
        return leased.count
    }

    func makeDue(_ db: Database) throws {
        try db.execute("UPDATE domains SET next_check_at = now() - interval '1 second'")
    }

    func openAlerts(_ db: Database, _ id: Int64) throws -> [Int64] {
        try db.rows("SELECT id FROM alerts WHERE domain_id = $1 AND state = 'open' ORDER BY id", id).map { try $0.decode("id") }
    }

    func ownRequests(_ fleet: TestTLSFleet, after count: Int) -> [FleetRequest] {
        fleet.requests().dropFirst(count).filter { $0.host == Self.host }
    }

    @Test func aPausedDomainMakesNoRequestKeepsItsAlertAndResumesDueAtOnce() async throws {
        try await TestTLSFleet.with { fleet in
            try serve(fleet, "not json")
            let fetcher = try Fetcher(FetchConfiguration(
                policy: OutboundPolicy(allowPrivateAddresses: true), cdnBase: fleet.cdnBase, checkCDN: false,
                rootLocation: .whenWellKnownFails, compareUserAgents: false, extraCAFile: fleet.caFile,
                connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
                connectTimeout: .seconds(30), totalTimeout: .seconds(60)))
            defer { fetcher.shutdown() }
            try await TestPostgres.withDatabase { (db: Database) async throws in
                let app = WebApp(database: db, configuration: TestApp.configuration)
                let client = WebClient(app: app)
                client.setUpAdmin()
                let token = SecretToken.generate(prefix: "aasa_")
                _ = try db.createAPIToken(name: "pause", tokenHash: token.digest, userID: nil, role: .admin)
                func api(_ method: String, _ body: String? = nil) -> (status: Int, json: [String: Any]) {
                    var headers: [(name: String, value: String)] = [("Authorization", "Bearer " + token.value)]
                    if body != nil { headers.append(("Content-Type", "application/json")) }
                    let r = app.respond(WebRequest(method: method, target: "/api/v1/domains/\(Self.host)", headers: headers,
                                                   body: Array((body ?? "").utf8)))
                    return (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:])
                }
                let pipeline = CheckPipeline(database: db, fetcher: fetcher)

                // Two failing checks open an alert.
                client.get("/domains/new")
                #expect(client.post("/domains", [("host", Self.host), ("interval", "60")]).status == 303)
                let id = try #require(try db.domain(host: Self.host)?.id)
                #expect(try await checkDue(pipeline) == 1)
                try makeDue(db)
                #expect(try await checkDue(pipeline) == 1)
                let alerts = try openAlerts(db, id)
                #expect(!alerts.isEmpty, "two failing checks open an alert")
                #expect(api("GET").json["paused"] as? Bool == false)
                #expect(!client.get("/domains/\(id)").bodyText.contains("Resume"))

                // A check is running when the domain is paused from its page (CSRF form, admin):
                // its result is dropped, so neither a check nor an alert change is written.
                try makeDue(db)
                let running = try db.leaseDueDomains(limit: 10, lease: .seconds(60), worker: "pause")
                #expect(running.map(\.id) == [id])
                client.get("/domains/\(id)")
                #expect(client.post("/domains/\(id)/pause", csrf: .some(nil)).status == 403)
                #expect(try db.domain(id: id)?.paused == false)
                #expect(client.post("/domains/\(id)/pause").status == 303)
                #expect(try db.domain(id: id)?.paused == true)
                try serve(fleet, Self.good)
                let checksBefore: Int = try db.value("SELECT count(*)::int FROM checks WHERE domain_id = $1", id)
                let repeatsBefore: Int = try db.value("SELECT count(*)::int FROM check_repeats WHERE domain_id = $1", id)
                let histories = try db.domainHistories(domainIDs: [id])
                let dropped = try await pipeline.run(try #require(running.first), expectations: Expectations(rows: []), history: histories[id])
                #expect(dropped.outcome == .superseded, "\(dropped.outcome)")
                #expect(try db.value("SELECT count(*)::int FROM checks WHERE domain_id = $1", id) == checksBefore)
                #expect(try db.value("SELECT count(*)::int FROM check_repeats WHERE domain_id = $1", id) == repeatsBefore)
                #expect(try openAlerts(db, id) == alerts, "the open alert stays as it is")

                // Paused: due or asked for, it is never leased, and the fleet sees no request for it.
                let logged = fleet.requests().count
                try makeDue(db)
                #expect(try await checkDue(pipeline) == 0)
                #expect(client.post("/domains/\(id)/check").status == 303)
                #expect(try await checkDue(pipeline) == 0)
                #expect(ownRequests(fleet, after: logged).isEmpty, "\(ownRequests(fleet, after: logged))")
                #expect(try openAlerts(db, id) == alerts)

                // Shown as paused: the overview, the domain page (with Resume, no Check now), the API.
                let overview = client.get("/").bodyText
                #expect(overview.contains(#"<span class="pill paused""#), "\(overview)")
                let page = client.get("/domains/\(id)").bodyText
                #expect(page.contains("Paused: not checked until resumed") && page.contains("action=\"/domains/\(id)/resume\""))
                #expect(!page.contains("action=\"/domains/\(id)/check\""))
                let read = api("GET")
                #expect(read.json["paused"] as? Bool == true && read.json["state"] as? String != "checking", "\(read.json)")
                let listed = ((try? JSONSerialization.jsonObject(with: Data(app.respond(WebRequest(
                    method: "GET", target: "/api/v1/domains", headers: [("Authorization", "Bearer " + token.value)])).body)))
                    as? [String: Any])?["domains"] as? [[String: Any]]
                #expect(listed?.first?["paused"] as? Bool == true)

                // Resumed through the API (and left as it is by a change of something else): due at
                // once, checked by the next round, and its alert resolves on the good file.
                try db.execute("UPDATE domains SET next_check_at = now() + interval '1 hour' WHERE id = $1", id)
                #expect(api("PATCH", #"{"badge": true}"#).json["paused"] as? Bool == true)
                let resumed = api("PATCH", #"{"paused": false}"#)
                #expect(resumed.status == 200 && resumed.json["paused"] as? Bool == false, "\(resumed.json)")
                #expect(api("PATCH", #"{"paused": "no"}"#).status == 400)
                #expect(try await checkDue(pipeline) == 1, "a resumed domain is due at once")
                #expect(!ownRequests(fleet, after: logged).isEmpty)
                #expect(try openAlerts(db, id).isEmpty, "the resumed domain's check resolves its alert")
                #expect(!client.get("/").bodyText.contains(#"<span class="pill paused""#))
            }
        }
    }
}
