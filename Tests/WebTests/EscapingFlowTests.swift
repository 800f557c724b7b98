import Testing
import Foundation
@testable import Store
import Vocabulary
import TestSupport
@testable import Web

/// `<script>` typed into every field a person can fill, and served in every part of a crawled file
/// and its transport, comes back escaped on every page that shows it.
@Suite(.serialized) struct EscapingFlowTests {
    static let script = "<script>alert(1)</script>"

    @Test func scriptInUserInputAndCrawledContentIsEscapedEverywhere() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            let s = Self.script
            // Refused input is echoed back escaped.
            client.get("/domains/new")
            let refused = client.post("/domains", [("host", s), ("appid", s), ("service", "applinks"), ("url", s), ("expect", s), ("interval", "60")])
            #expect(refused.status == 422)
            #expect(!refused.bodyText.contains(s))
            #expect(refused.bodyText.contains("&lt;script&gt;"))
            // Accepted input that carries markup.
            client.get("/domains/new")
            let ok = client.post("/domains", [("host", "evil.example"), ("url", "https://evil.example/" + s), ("expect", "browser"), ("interval", "60")])
            #expect(ok.status == 303)
            let id = try #require(try db.domain(host: "evil.example")?.id)
            let file = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.<script>alert(1)</script>"],"components":[{"/":"/<script>alert(1)</script>","comment":"<script>alert(1)</script>"}]}],"<script>alert(1)</script>":{"apps":[]}}"#
            let findings = [Finding(code: s, severity: .error, location: SourceLocation(pointer: "/" + s), message: s, hint: s, affects: s)]
            let transport = CheckTransport(wellKnown: TransportFacts(
                location: .wellKnown, url: "https://evil.example/" + s, status: 200, headers: ["content-type": s],
                tls: TLSFacts(trusted: false, issuer: s), failure: FetchFailure(kind: .other, message: s)))
            try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date(timeIntervalSinceNow: -5), finishedAt: Date(timeIntervalSinceNow: -5),
                                           verdict: .fail, originBody: Array(#"{"applinks":{"details":[]}}"#.utf8), transport: transport,
                                           findings: findings, latencyMilliseconds: 10, changed: true))
            try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date(), finishedAt: Date(), verdict: .fail, originBody: Array(file.utf8),
                                           transport: transport, findings: findings, latencyMilliseconds: 10, changed: true))
            try db.execute("""
                INSERT INTO alerts (domain_id, rule, severity, summary) VALUES ($1, $2, 'critical', $2)
                """, id, s)
            client.get("/settings")
            #expect(client.post("/users", [("email", s + "@example.com"), ("password", "viewer passphrase"), ("role", "viewer")]).status == 303)
            client.get("/settings")
            _ = client.post("/tokens", [("name", s)])

            var pages = ["/", "/?q=" + PercentEncoding.encode(s), "/domains/\(id)", "/domains/\(id)/edit", "/alerts", "/settings",
                         "/tester?domain=\(id)", "/export/domains.json"]
            pages.append("/domains/\(id)/delete")
            for page in pages {
                let r = client.get(page)
                #expect(r.status == 200, "\(page)")
                #expect(!r.bodyText.contains("<script>alert"), "\(page) lets markup through")
            }
            client.get("/tester")
            let tested = client.post("/tester", [("url", "https://evil.example/" + s), ("domain", String(id)), ("aasa", "")])
            #expect(tested.status == 200 || tested.status == 422)   // answered or refused, never raw
            #expect(!tested.bodyText.contains("<script>alert"))
            #expect(tested.bodyText.contains("&lt;script&gt;"))
            // The raw file is served as text, never as HTML.
            let sha = SHA256.hex(Array(file.utf8))
            let raw = client.get("/versions/\(sha)")
            #expect(raw.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(raw.header("X-Content-Type-Options") == "nosniff")
        }
    }
}
