import Testing
import Foundation
@testable import Store
import Registry
import Vocabulary
import TestSupport
@testable import Web

@Suite(.serialized) struct DomainFlowTests {
    static let app = "ABCDE12345.com.example.app"

    func adminClient(_ db: Database) -> WebClient {
        let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
        client.setUpAdmin()
        return client
    }

    @Test func registerRefusesBadInputBesideTheFieldAndKeepsIt() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = adminClient(db)
            #expect(client.get("/domains/new").status == 200)
            let cases: [(String, String)] = [
                ("https://example.com", "without \"https://\""),
                ("example.com/path", "without the path \"/path\""),
                ("example.com:8443", "Remove the port \":8443\""),
                ("10.0.0.1", "is an IP address"),
                ("[::1]", "is an IP address"),
                ("exa mple.com", "cannot contain"),
                ("", "Enter a host name"),
            ]
            for (host, message) in cases {
                let r = client.post("/domains", [("host", host), ("interval", "60")])
                #expect(r.status == 422, "\(host)")
                #expect(r.bodyText.contains(HTML.escape(message)), "\(host): \(r.bodyText.prefix(0))")
                #expect(r.bodyText.contains("aria-invalid=\"true\" aria-describedby=\"err-host\""))
            }
            let r = client.post("/domains", [("host", "bücher.example"), ("appid", "abcde12345.com.x"), ("service", "applinks"),
                                              ("appid", Self.app), ("service", "webcredentials"),
                                              ("url", "https://other.example/x"), ("expect", "browser"), ("interval", "7")])
            #expect(r.status == 422)
            let text = r.bodyText
            #expect(text.contains("must be upper-case: ABCDE12345"))
            #expect(text.contains("is not on bücher.example"))
            #expect(text.contains("Choose one of the offered intervals"))
            // What was typed is still there.
            #expect(text.contains("value=\"bücher.example\""))
            #expect(text.contains("value=\"abcde12345.com.x\""))
            #expect(text.contains("value=\"https://other.example/x\""))
            #expect(try db.listDomains().isEmpty)
        }
    }

    /// A refused submit shows every app-ID row as sent: an empty row keeps the service chosen for it
    /// (the second row came back as "Universal links", issue #31), and a message goes beside the row
    /// it is about, whatever empty rows come before it.
    @Test func aRefusedSubmitKeepsEveryAppIDRowsService() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = adminClient(db)
            client.get("/domains/new")
            func services(_ page: String) -> [String] {
                (1...6).compactMap { n -> String? in
                    guard let start = page.range(of: "aria-label=\"Service for app ID \(n)\">"),
                          let end = page[start.upperBound...].range(of: "</select>") else { return nil }
                    let options = page[start.upperBound..<end.lowerBound]
                    guard let selected = options.range(of: "\" selected>") else { return "" }
                    let value = options[..<selected.lowerBound]
                    return String(value[value.index(after: value.lastIndex(of: "\"") ?? value.startIndex)...])
                }
            }
            // The new form: two empty rows, Universal links then Shared web credentials.
            #expect(services(client.get("/domains/new").bodyText) == ["applinks", "webcredentials"])
            // Row 1 filled, row 2 left empty with its default: refused for the host, both come back as sent.
            let host = client.post("/domains", [("host", "exa mple.com"), ("appid", Self.app), ("service", "applinks"),
                                                 ("appid", ""), ("service", "webcredentials"), ("interval", "60")])
            #expect(host.status == 422)
            #expect(services(host.bodyText) == ["applinks", "webcredentials"])
            // An empty first row with App Clips, then a bad ID: the message is beside row 2, row 1 keeps App Clips.
            let bad = client.post("/domains", [("host", "shop.example"), ("appid", ""), ("service", "appclips"),
                                                ("appid", "abcde12345.com.x"), ("service", "activitycontinuation"), ("interval", "60")])
            #expect(bad.status == 422)
            let text = bad.bodyText
            #expect(services(text) == ["appclips", "activitycontinuation"])
            #expect(text.contains("aria-label=\"App ID 2\" aria-invalid=\"true\" aria-describedby=\"err-appid.1\""))
            #expect(text.contains("id=\"err-appid.1\">The Team ID"))
            #expect(!text.contains("err-appid.0"))
            // Every row filled: one empty row is added to fill.
            let full = client.post("/domains", [("host", "exa mple.com"), ("appid", Self.app), ("service", "webcredentials")])
            #expect(services(full.bodyText) == ["webcredentials", "applinks"])
            #expect(try db.listDomains().isEmpty)
        }
    }

    @Test func registerChecksNowAndThePageFollowsTheFirstCheck() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = adminClient(db)
            client.get("/domains/new")
            let r = client.post("/domains", [("host", "  *.Bücher.example "), ("appid", Self.app), ("service", "applinks"),
                                              ("url", "https://bücher.example/product/1"), ("expect", Self.app),
                                              ("url", "https://bücher.example/help"), ("expect", "browser"),
                                              ("interval", "15"), ("badge", "on")])
            #expect(r.status == 303, "\(r.bodyText)")
            let location = try #require(r.header("Location"))
            let id = try #require(Int64(location.replacingOccurrences(of: "/domains/", with: "")))
            let domain = try #require(try db.domain(id: id))
            #expect(domain.host == "xn--bcher-kva.example" && domain.displayName == "bücher.example" && domain.wildcard)
            #expect(domain.intervalSeconds == 900 && domain.badgeEnabled)
            #expect(domain.checkRequestedAt != nil)
            #expect(try db.appIDExpectations(domainID: id) == [AppIDExpectation(service: .applinks, appID: Self.app)])
            #expect(try db.watchedURLs(domainID: id).map(\.expectedAppID) == [Self.app, nil])

            let page = client.get(location)
            #expect(page.status == 200)
            #expect(page.bodyText.contains("data-poll=\"/domains/\(id)/status\""))
            #expect(page.bodyText.contains("Not checked yet"))
            #expect(client.get("/domains/\(id)/status").bodyText.contains("\"checking\":true"))
            let overview = client.get("/")
            #expect(overview.bodyText.contains("bücher.example"))
            #expect(overview.bodyText.contains("state-checking"))
            // Registering it again says so.
            client.get("/domains/new")
            let again = client.post("/domains", [("host", "*.xn--bcher-kva.example"), ("interval", "60")])
            #expect(again.status == 409)
            #expect(again.bodyText.contains("already registered"))

            // The first check lands: the page shows the verdict, findings, the file with the marked line.
            let body = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/product/*"}]}]}}"#.utf8)
            let finding = Finding(code: "content-type-not-json", severity: .warning, location: SourceLocation(pointer: "/applinks/details/0/appIDs"),
                                  message: "Served as text/html; serve it as application/json.", hint: "Set the Content-Type header.", affects: "iOS 14+")
            let transport = CheckTransport(
                wellKnown: TransportFacts(location: .wellKnown, url: "https://xn--bcher-kva.example/.well-known/apple-app-site-association",
                                          status: 200, headers: ["content-type": "text/html"], decodedSize: 120,
                                          tls: TLSFacts(trusted: true, issuer: "Test CA", notAfter: Date(timeIntervalSince1970: 1_893_456_000))),
                cdn: TransportFacts(location: .cdn, url: "https://app-site-association.cdn-apple.com/a/v1/xn--bcher-kva.example", status: 404))
            try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date().addingTimeInterval(-60), finishedAt: Date().addingTimeInterval(-59),
                                           verdict: .warn, originBody: body, transport: transport, findings: [finding],
                                           latencyMilliseconds: 42, changed: true))
            #expect(client.get("/domains/\(id)/status").bodyText.contains("\"checking\":false"))
            let checked = client.get(location).bodyText
            #expect(checked.contains("Works, with 1 warning"))
            #expect(checked.contains("content-type-not-json"))
            #expect(checked.contains("affects iOS 14+"))
            #expect(checked.contains("class=\"line marked\" data-note=\"content-type-not-json\""))
            #expect(checked.contains("Apple CDN"))
            #expect(checked.contains("Test CA"))
            #expect(!checked.contains("data-poll"))

            // The file changes: a new version, the diff shows the watched URL that changed outcome.
            let changed = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/help/*"}]}]}}"#.utf8)
            try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date(), finishedAt: Date(), verdict: .pass, originBody: changed,
                                           transport: transport, latencyMilliseconds: 50, changed: true))
            let diffPage = client.get(location).bodyText
            #expect(diffPage.contains("Changes between versions"))
            #expect(diffPage.contains("https://bücher.example/product/1</code>: opens \(Self.app) → <strong>stays in the browser"))
            #expect(diffPage.contains("rule removed"))
            #expect(diffPage.contains("class=\"del\">-"))
            #expect(diffPage.contains("new version"))

            // Check now, edit, delete.
            try db.execute("UPDATE domains SET check_requested_at = NULL WHERE id = $1", id)
            client.get(location)
            #expect(client.post("/domains/\(id)/check").header("Location") == "/domains/\(id)")
            #expect(client.get("/domains/\(id)").bodyText.contains("Check requested; it starts within seconds."))
            #expect(try db.domain(id: id)?.checkRequestedAt != nil)
            #expect(client.get("/domains/\(id)/edit").bodyText.contains("value=\"https://bücher.example/help\""))
            let saved = client.post("/domains/\(id)/edit", [("appid", Self.app), ("service", "webcredentials"), ("interval", "60")])
            #expect(saved.status == 303)
            #expect(try db.appIDExpectations(domainID: id).map(\.service) == [.webcredentials])
            #expect(try db.watchedURLs(domainID: id).isEmpty)
            #expect(client.get("/domains/\(id)/delete").bodyText.contains("cannot be undone"))
            #expect(try db.domain(id: id) != nil)   // GET never deletes
            #expect(client.post("/domains/\(id)/delete").status == 303)
            #expect(try db.domain(id: id) == nil)
            #expect(client.get(location).status == 404)
        }
    }

    @Test func overviewFiltersSearchesSortsAndPages() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = adminClient(db)
            for i in 0..<60 {
                guard case .created(let id) = try db.createDomain(DomainDraft(host: "site\(i).example", displayName: "site\(i).example",
                    wildcard: false, intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: [])) else { continue }
                try db.execute("UPDATE domains SET check_requested_at = NULL WHERE id = $1", id)
                if i % 3 == 0 {
                    try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date(), finishedAt: Date(), verdict: i % 2 == 0 ? .fail : .pass,
                                                   originBody: nil, findings: [Finding(code: "x", severity: .error, message: "Boom \(i)")],
                                                   latencyMilliseconds: 10 + i, changed: true))
                }
            }
            let all = client.get("/").bodyText
            #expect(all.contains("60 domains · page 1 of 2"))
            #expect(all.contains("rel=\"next\""))
            // Worst first: failing rows lead.
            let firstRow = try #require(all.range(of: "<tbody>")).upperBound
            #expect(all[firstRow...].prefix(400).contains("state-failing"))
            let failing = client.get("/?state=failing").bodyText
            #expect(failing.contains("10 domains · page 1 of 1"))
            #expect(failing.contains("Boom 0"))
            #expect(!failing.contains("state-passing\">Passing</span></td>"))
            let search = client.get("/?q=site1").bodyText
            #expect(search.contains("11 domains"))        // site1, site10…site19
            #expect(client.get("/?q=%25").bodyText.contains("No domain matches"))   // % is literal
            let page2 = client.get("/?sort=host&page=2").bodyText
            #expect(page2.contains("page 2 of 2") && page2.contains("rel=\"prev\""))
            #expect(client.get("/?page=99").bodyText.contains("No domain matches"))
        }
    }

    @Test func readOnlyUsersCannotRegisterCheckOrDelete() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let admin = adminClient(db)
            admin.get("/settings")
            admin.post("/users", [("email", "v@example.com"), ("password", "viewer passphrase"), ("role", "viewer")])
            guard case .created(let id) = try db.createDomain(DomainDraft(host: "a.example", displayName: "a.example", wildcard: false,
                intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: [])) else { Issue.record("not created"); return }
            let viewer = WebClient(app: admin.app)
            _ = viewer.logIn(email: "v@example.com", password: "viewer passphrase")
            let page = viewer.get("/domains/\(id)").bodyText
            #expect(!page.contains("Check now"))
            #expect(viewer.get("/domains/new").status == 403)
            #expect(viewer.post("/domains", [("host", "b.example"), ("interval", "60")]).status == 403)
            #expect(viewer.post("/domains/\(id)/delete").status == 403)
            #expect(viewer.post("/domains/\(id)/check").status == 403)
            #expect(try db.domain(id: id) != nil)
            #expect(try db.domain(host: "b.example") == nil)
        }
    }

    @Test func urlTesterShowsTheDecidingRule() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = adminClient(db)
            client.get("/tester")
            let file = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/help/*","exclude":true},{"/":"/*"}]}]}}"#
            let opens = client.post("/tester", [("url", "https://example.com/shop/1"), ("domain", ""), ("aasa", file)]).bodyText
            #expect(opens.contains("Opens <code>ABCDE12345.com.example.app</code>"))
            #expect(opens.contains("class=\"decider\""))
            let excluded = client.post("/tester", [("url", "https://example.com/help/x"), ("domain", ""), ("aasa", file)]).bodyText
            #expect(excluded.contains("No app opens this URL"))
            #expect(excluded.contains("matches and excludes"))
            let bad = client.post("/tester", [("url", "example.com"), ("domain", ""), ("aasa", file)])
            #expect(bad.status == 422 && bad.bodyText.contains("starting with https://"))
            let unreadable = client.post("/tester", [("url", "https://example.com/"), ("domain", ""), ("aasa", "{nope")])
            #expect(unreadable.status == 422 && unreadable.bodyText.contains("cannot be read"))
        }
    }

    /// With no domain chosen and no file pasted, the tester asks the URL's own registered domain (or
    /// the wildcard registration above it), on the page and in the API; it asked the user to choose
    /// one (issue #31).
    @Test func theTesterTakesTheDomainFromTheURLsHost() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = adminClient(db)
            let registry = DomainRegistry(store: db)
            func file(_ path: String) -> [UInt8] {
                Array(#"{"applinks":{"details":[{"appIDs":["\#(Self.app)"],"components":[{"/":"\#(path)"}]}]}}"#.utf8)
            }
            for (host, path) in [("shop.example", "/p/*"), ("*.wild.example", "/w/*"), ("other.example", "/o/*")] {
                let id = try registry.register(Registration(host: host, intervalMinutes: 60))
                try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date(), finishedAt: Date(), verdict: .pass, originBody: file(path),
                                               latencyMilliseconds: 20, changed: true))
            }
            let shop = try #require(try db.domainID(host: "shop.example", wildcard: false))
            let wild = try #require(try db.domainID(host: "wild.example", wildcard: true))
            client.get("/tester")
            let page = client.post("/tester", [("url", "https://shop.example/p/1"), ("domain", ""), ("aasa", "")])
            #expect(page.status == 200, "\(page.bodyText)")
            #expect(page.bodyText.contains("Opens <code>\(Self.app)</code>"))
            #expect(page.bodyText.contains("<option value=\"\(shop)\" selected>shop.example</option>"))
            let below = client.post("/tester", [("url", "https://www.wild.example/w/1"), ("domain", ""), ("aasa", "")]).bodyText
            #expect(below.contains("Opens <code>\(Self.app)</code>") && below.contains("<option value=\"\(wild)\" selected>"))
            // A chosen domain still decides; an unregistered host without a file is asked for one.
            let chosen = client.post("/tester", [("url", "https://shop.example/p/1"), ("domain", String(wild)), ("aasa", "")]).bodyText
            #expect(!chosen.contains("Opens <code>"))
            let unknown = client.post("/tester", [("url", "https://nowhere.example/p/1"), ("domain", ""), ("aasa", "")])
            #expect(unknown.status == 422 && unknown.bodyText.contains("Choose a registered domain or paste a file."))

            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
            let answer = client.app.respond(WebRequest(method: "POST", target: "/api/v1/test-url",
                                                       headers: [("Authorization", "Bearer " + token.value), ("Content-Type", "application/json")],
                                                       body: Array(#"{"url": "https://shop.example/p/2"}"#.utf8)))
            #expect(answer.status == 200, "\(answer.bodyText)")
            let body = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            #expect(body?["opens"] as? String == Self.app)
            #expect((body?["source"] as? String)?.contains("shop.example") == true)
        }
    }

    /// The form takes a watched URL's Android outcome beside Apple's: refused beside its field with
    /// what was typed kept, stored, and shown again on the edit form.
    @Test func theFormTakesAWatchedURLsAndroidOutcome() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = adminClient(db)
            client.get("/domains/new")
            let refused = client.post("/domains", [("host", "shop.example"), ("url", "https://shop.example/p/1"), ("expect", "browser"),
                                                    ("android_expect", "shop app"), ("interval", "60")])
            #expect(refused.status == 422)
            #expect(refused.bodyText.contains(HTML.escape("Write the Android package the URL must open, or \"nothing\".")), "\(refused.bodyText)")
            #expect(refused.bodyText.contains("aria-describedby=\"err-android_expect.0\"") && refused.bodyText.contains("value=\"shop app\""))
            let r = client.post("/domains", [("host", "shop.example"),
                                              ("url", "https://shop.example/p/1"), ("expect", "browser"), ("android_expect", "com.example.shop"),
                                              ("url", "https://shop.example/p/2"), ("expect", "browser"), ("android_expect", ""),
                                              ("interval", "60")])
            #expect(r.status == 303, "\(r.bodyText)")
            let id = Int64(try #require(try db.listDomains().first?.id))
            #expect(try db.watchedURLs(domainID: id).map(\.android) == [.opensPackage("com.example.shop"), nil])
            let edit = client.get("/domains/\(id)/edit").bodyText
            #expect(edit.contains("name=\"android_expect\" value=\"com.example.shop\""), "\(edit)")
        }
    }
}
