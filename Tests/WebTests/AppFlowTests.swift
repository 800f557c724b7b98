import AASA
import AssetLinks
import Foundation
import Monitor
import Notify
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Web

/// Apps through the pages and the API, on a real PostgreSQL: the import's preview writes nothing,
/// confirming registers everything, and the app page's matrix follows the domains' checks.
@Suite(.serialized) struct AppFlowTests {
    static let app = "ABCDE12345.com.example.shop"
    static let entitlements = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>com.apple.developer.associated-domains</key>
        \t<array>
        \t\t<string>applinks:shop.example</string>
        \t\t<string>webcredentials:shop.example</string>
        \t\t<string>applinks:dev.shop.example?mode=developer</string>
        \t</array>
        </dict>
        </plist>
        """

    func adminClient(_ db: Database) -> WebClient {
        let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
        client.setUpAdmin()
        return client
    }

    /// /metrics as a scraper gets it from a server started with `token` as its metrics token.
    static func scrape(_ db: Database, token: String) -> String {
        var configuration = TestApp.configuration
        configuration.metricsToken = token
        return WebApp(database: db, configuration: configuration)
            .respond(WebRequest(method: "GET", path: "/metrics", headers: [("Authorization", "Bearer \(token)")])).bodyText
    }

    /// Stores a changed check of `domainID` as a worker would, with these findings and expectation results.
    func recordCheck(_ db: Database, domainID: Int64, at: Date, findings: [Finding], missing: [Service: [String]],
                     alerts: [AlertChange] = [], android: AndroidResult? = nil, androidFile: [UInt8]? = nil) throws {
        // Only this domain is due, so the lease takes it and leaves the others alone.
        try db.execute("""
            UPDATE domains SET check_requested_at = NULL,
              next_check_at = CASE WHEN id = $1 THEN now() - interval '1 second' ELSE now() + interval '1 hour' END
            """, domainID)
        let lease = try #require(try db.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "app-test").first { $0.id == domainID })
        let file = Array(#"{"applinks":{"details":[]}}"#.utf8)
        let results = ExpectationResults(missingAppIDs: missing)
        var record = CheckRecord(
            domainID: domainID, attemptKey: lease.attemptKey, startedAt: at, finishedAt: at, verdict: Verdict(findings: findings),
            version: StoredBody(.apple, sha256: SHA256.hex(file + Array("\(at.timeIntervalSince1970)".utf8)), bytes: file), changed: true,
            latencyMilliseconds: 20, findings: findings, transport: CheckTransport(), expectations: results, summaryJSON: "{}",
            eventsJSON: "[]", consecutiveFailures: 0, nextCheckAt: at.addingTimeInterval(3600), streaks: nil, alertChanges: alerts)
        record.android = android
        record.androidVersion = androidFile.map { StoredBody(.android, sha256: SHA256.hex($0), bytes: $0) }
        // The domain's and each platform's state as the pipeline judges them (DomainVerdict).
        let judged = DomainVerdict(fileVerdict: Verdict(findings: findings), findings: findings, expectations: results, android: android)
        record.domainVerdict = judged.verdict
        record.reason = judged.reason
        record.platformStates = judged.platformStates
        record.domainExpectations = results
        guard case .recorded = try db.record(record) else { throw CheckError.notRecorded }
    }
    enum CheckError: Error { case notRecorded }

    @Test func importPreviewsThenRegistersAndTheMatrixFollowsTheChecks() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = adminClient(db)
            #expect(client.get("/apps/new").status == 200)
            let fields = [("entitlements", Self.entitlements), ("apple_app_ids", Self.app), ("name", "Shop")]
            let preview = client.post("/apps/preview", fields)
            #expect(preview.status == 200, "\(preview.bodyText)")
            let page = preview.bodyText
            #expect(page.contains("Register Shop?"))
            #expect(page.contains("dev.shop.example") && page.contains("developer mode: origin only"))
            #expect(page.contains("Universal links (applinks)") && page.contains("Password autofill (webcredentials)"))
            #expect(try db.apps().isEmpty && db.listDomains().isEmpty, "the preview writes nothing")

            // Malformed input: the line and the reason, beside the field, and nothing written.
            let refused = client.post("/apps/preview", [("entitlements", Self.entitlements.replacingOccurrences(of: "applinks:shop.example<", with: "applinks:shop.example:8443<")),
                                                        ("apple_app_ids", Self.app)])
            #expect(refused.status == 422)
            #expect(refused.bodyText.contains("id=\"err-entitlements\"") && refused.bodyText.contains("line 7: "))

            let created = client.post("/apps", fields)
            #expect(created.status == 303, "\(created.bodyText)")
            let app = try #require(try db.app(name: "Shop"))
            #expect(created.headers.contains { $0.name == "Location" && $0.value == "/apps/\(app.id)" })
            #expect(try db.listDomains().count == 2)

            let shop = try #require(try db.domainID(host: "shop.example", wildcard: false))
            let dev = try #require(try db.domainID(host: "dev.shop.example", wildcard: false))
            var show = client.get("/apps/\(app.id)").bodyText
            #expect(show.contains("id=\"app-matrix\"") && show.contains("0 of 3 links healthy"))

            // shop.example passes; dev.shop.example's CDN copy fails, which a developer-mode link ignores.
            let t0 = Date(timeIntervalSince1970: 1_800_000_000)
            try recordCheck(db, domainID: shop, at: t0, findings: [], missing: [:])
            try recordCheck(db, domainID: dev, at: t0, findings: [FindingDefinition.cdnFailure.finding(at: nil, "Apple's CDN answered 404.")], missing: [:])
            show = client.get("/apps/\(app.id)").bodyText
            #expect(show.contains("3 of 3 links healthy"), "\(show)")

            // The app ID leaves shop.example's applinks: that cell fails with the reason, the others stay.
            try recordCheck(db, domainID: shop, at: t0.addingTimeInterval(600), findings: [], missing: [.applinks: [Self.app]])
            show = client.get("/apps/\(app.id)").bodyText
            #expect(show.contains("2 of 3 links healthy"))
            #expect(show.contains("App ID \(Self.app) is missing from applinks."), "the domain page's words")
            #expect(show.contains("data-service=\"applinks\" data-state=\"failing\""))
            #expect(show.contains("data-service=\"webcredentials\" data-state=\"passing\""))
            // Since when: the failing cell since the check that broke it, the others since the first.
            let broke = DisplayTime.dateTime(t0.addingTimeInterval(600)), first = DisplayTime.dateTime(t0)
            #expect(show.contains("Universal links (applinks) broken on shop.example since \(broke)."), "\(show)")
            #expect(show.contains("data-platform=\"apple\" data-service=\"applinks\" data-state=\"failing\" data-since=\"\(broke)\""))
            #expect(show.contains("data-platform=\"apple\" data-service=\"webcredentials\" data-state=\"passing\" data-since=\"\(first)\""))

            // A long failure keeps its start: 35 more changed checks (past any fixed window of
            // history), read once through the stored runs and once from the whole history.
            for i in 1...35 {
                try recordCheck(db, domainID: shop, at: t0.addingTimeInterval(600 + Double(i) * 60), findings: [], missing: [.applinks: [Self.app]])
            }
            #expect(client.get("/apps/\(app.id)").bodyText.contains("data-state=\"failing\" data-since=\"\(broke)\""))
            #expect(try db.value("SELECT count(*) FROM app_link_runs WHERE app_id = $1", app.id) as Int64 == 3)
            try db.execute("DELETE FROM app_link_runs")
            #expect(client.get("/apps/\(app.id)").bodyText.contains("data-state=\"failing\" data-since=\"\(broke)\""))

            // The list and /metrics count each link as the page judges it: dev.shop.example's domain
            // fails (its CDN copy), but this app's developer-mode link never reads the CDN.
            let list = client.get("/apps").bodyText
            #expect(list.contains("href=\"/apps/\(app.id)\"") && list.contains("2 of 3 links passing"), "\(list)")
            // With a metrics token, a series per app; without one, no app's name: the links summed over apps.
            let metrics = Self.scrape(db, token: "scrape-secret")
            #expect(metrics.contains("aasa_app_domains{app=\"Shop\",platform=\"apple\",service=\"applinks\",state=\"failing\"} 1"), "\(metrics)")
            #expect(metrics.contains("aasa_app_open_alerts{app=\"Shop\"} "))
            let open = client.get("/metrics").bodyText
            #expect(!open.contains("Shop") && !open.contains("app=") && !open.contains("aasa_app_open_alerts"), "\(open)")
            #expect(open.contains("aasa_app_domains{platform=\"apple\",service=\"applinks\",state=\"failing\"} 1"), "\(open)")
            #expect(open.contains("aasa_app_domains{platform=\"apple\",service=\"applinks\",state=\"passing\"} 1"))
            #expect(open.contains("aasa_app_domains{platform=\"apple\",service=\"webcredentials\",state=\"passing\"} 1"))
            #expect(metrics.contains("aasa_app_domains{app=\"Shop\",platform=\"apple\",service=\"applinks\",state=\"passing\"} 1"))
            #expect(metrics.contains("aasa_app_domains{app=\"Shop\",platform=\"apple\",service=\"webcredentials\",state=\"passing\"} 1"))

            #expect(client.post("/apps/\(app.id)/delete").status == 303)
            #expect(try db.apps().isEmpty)
            #expect(try db.appIDExpectations(domainID: shop).isEmpty, "the app's expectations go with it")
        }
    }

    @Test func theAPIPreviewsRegistersReadsAndDeletes() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            WebClient(app: app).setUpAdmin()
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
            func call(_ method: String, _ target: String, _ json: String = "") -> (status: Int, body: [String: Any], raw: String) {
                let r = app.respond(WebRequest(method: method, target: target, headers: [("Authorization", "Bearer " + token.value),
                                                                                          ("Content-Type", "application/json")], body: Array(json.utf8)))
                return (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:], String(decoding: r.body, as: UTF8.self))
            }
            let body = #"{"name": "Shop", "apple_app_ids": ["\#(Self.app)"], "apple_domains": ["applinks:shop.example", "applinks:*.shop.example"], "android_package": "com.example.shop", "android_hosts": ["shop.example"], "fingerprints": [{"fingerprint": "\#(String(repeating: "ab", count: 32))", "role": "upload"}]"#
            let preview = call("POST", "/api/v1/apps", body + #", "preview": true}"#)
            #expect(preview.status == 200)
            #expect((preview.body["domains"] as? [[String: Any]])?.map { $0["host"] as? String } == ["shop.example", "*.shop.example"])
            #expect(try db.apps().isEmpty)

            let bad = call("POST", "/api/v1/apps", #"{"apple_app_ids": ["x"], "apple_domains": ["applinks:shop.example"]}"#)
            #expect(bad.status == 400)
            #expect(((bad.body["error"] as? [String: Any])?["field"] as? String) == "apple_app_ids[0]")

            let created = call("POST", "/api/v1/apps", body + "}")
            #expect(created.status == 201)
            let id = try #require(created.body["id"] as? Int)
            let cells = (created.body["domains"] as? [[String: Any]])?.flatMap { ($0["cells"] as? [[String: Any]]) ?? [] } ?? []
            #expect(Set(cells.compactMap { $0["platform"] as? String }) == ["apple", "android"])
            #expect((created.body["fingerprints"] as? [[String: Any]])?.first?["role"] as? String == "upload")
            // Keys, nesting and the members left out, to the byte: a key and its role, a link's cell.
            let key = #""fingerprints":[{"fingerprint":"\#(Array(repeating: "AB", count: 32).joined(separator: ":"))","role":"upload"}]"#
            #expect(preview.raw.contains(key) && created.raw.contains(key), "\(preview.raw)\n\(created.raw)")
            #expect(created.raw.contains(#"{"cells":[{"declared_as":"shop.example","developer_mode":false,"managed_mode":false,"platform":"android","service":"applinks","state":"checking"},{"declared_as":"applinks:shop.example","developer_mode":false,"managed_mode":false,"platform":"apple","service":"applinks","state":"checking"}],"domain_id":1,"host":"shop.example"}"#), "\(created.raw)")
            #expect(call("POST", "/api/v1/apps", body + "}").status == 409)
            #expect((call("GET", "/api/v1/apps").body["apps"] as? [[String: Any]])?.first?["domain_count"] as? Int == 2)
            #expect(call("GET", "/api/v1/apps/\(id)").status == 200)
            #expect(call("DELETE", "/api/v1/apps/\(id)").status == 204)
            #expect(call("GET", "/api/v1/apps/\(id)").status == 404)
        }
    }

    /// An app claiming more domains than a page holds: the matrix shows one page of domains at a time
    /// (issue #17: a thousand links made a 755 KB page), while the summary counts every link and names
    /// the first broken one wherever it is, the open alerts are every domain's, and the API's first
    /// page holds as many domains as the page's, with the cursor of the next.
    /// The review's 455-byte binary plist bomb (issue #30: 2^24 strings once Foundation read it; the
    /// entitlements fuzz target's seed) is refused by the form and the API alike: both hand the file
    /// to the app registry, which reads it with the one entitlements reader.
    @Test func aSharedReferenceBombIsRefusedByTheFormAndTheAPI() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let bomb = try Data(contentsOf: root.appendingPathComponent("Fuzz/EntitlementsFuzz/seeds/bomb-shared-array-chain.bplist"))
        let carried = "base64:" + bomb.base64EncodedString()
        let refusal = "The binary property list expands to more than 10000 values once read"
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let client = WebClient(app: app)
            client.setUpAdmin()
            #expect(client.get("/apps/new").status == 200, "the form's page, and its CSRF token")
            let form = client.post("/apps/preview", [("entitlements", carried), ("apple_app_ids", Self.app), ("name", "Bomb")])
            #expect(form.bodyText.contains(refusal) && form.bodyText.contains("id=\"err-entitlements\""), "\(form.bodyText)")

            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
            let json = #"{"name": "Bomb", "apple_app_ids": ["\#(Self.app)"], "entitlements": "\#(carried)", "preview": true}"#
            let api = app.respond(WebRequest(method: "POST", target: "/api/v1/apps", headers: [("Authorization", "Bearer " + token.value),
                                                                                             ("Content-Type", "application/json")], body: Array(json.utf8)))
            #expect((400..<500).contains(api.status) && String(decoding: api.body, as: UTF8.self).contains(refusal),
                    "\(api.status) \(String(decoding: api.body, as: UTF8.self))")
            #expect(try db.apps().isEmpty)
        }
    }

    @Test func theMatrixIsPagedAndTheSummaryCountsEveryPage() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let client = WebClient(app: app)
            client.setUpAdmin()
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
            let count = AppMatrix.domainsPerPage + 10
            let hosts = (0..<count).map { String(format: "s%03d.example", $0) }
            let body = #"{"name": "Platform", "apple_app_ids": ["\#(Self.app)"], "apple_domains": [\#(hosts.map { "\"applinks:\($0)\"" }.joined(separator: ","))]}"#
            let created = app.respond(WebRequest(method: "POST", target: "/api/v1/apps", headers: [("Authorization", "Bearer " + token.value),
                                                 ("Content-Type", "application/json")], body: Array(body.utf8)))
            #expect(created.status == 201, "\(created.bodyText)")
            let appID: Int64 = try db.value("SELECT id FROM apps WHERE name = 'Platform'")
            // The one broken link is on the second page.
            let broken: Int64 = try db.value("SELECT id FROM domains WHERE host = $1", hosts[count - 3])
            let error = Finding(code: "http-status", severity: .error, location: SourceLocation(pointer: ""), message: "Served 404.")
            try recordCheck(db, domainID: broken, at: Date().addingTimeInterval(-600), findings: [error], missing: [:],
                            alerts: [AlertChange(event: AlertEvent(kind: .opened, key: AlertKey(rule: .originInvalid), severity: .critical,
                                                                       summary: "The file is not served.", at: Date()),
                                                 domainHost: hosts[count - 3])])

            func matrixHosts(_ html: String) -> [String] {
                html.components(separatedBy: "<th scope=\"row\" class=\"host\">").dropFirst().compactMap {
                    $0.split(separator: ">").dropFirst().first.map { String($0.prefix { $0 != "<" }) }
                }
            }
            let first = client.get("/apps/\(appID)").bodyText
            #expect(matrixHosts(first) == Array(hosts.prefix(AppMatrix.domainsPerPage)))
            #expect(first.contains("0 of \(count) links healthy. Universal links (applinks) broken on \(hosts[count - 3]) since"), "\(first)")
            #expect(first.contains("\(count) domains · page 1 of 2") && first.contains("href=\"/apps/\(appID)?page=2\""))
            #expect(first.contains("The file is not served."), "the open alert of a domain on another page")
            let second = client.get("/apps/\(appID)?page=2").bodyText
            #expect(matrixHosts(second) == Array(hosts.dropFirst(AppMatrix.domainsPerPage)))
            #expect(second.contains("data-state=\"failing\"") && second.contains("href=\"/apps/\(appID)?page=1\""))

            let read = app.respond(WebRequest(method: "GET", target: "/api/v1/apps/\(appID)", headers: [("Authorization", "Bearer " + token.value)]))
            let detail = (try JSONSerialization.jsonObject(with: Data(read.body))) as? [String: Any]
            let domains = detail?["domains"] as? [[String: Any]]
            #expect(domains?.count == AppMatrix.domainsPerPage && detail?["domain_count"] as? Int == count)
            #expect(detail?["next_after"] as? Int == (domains?.last?["domain_id"] as? Int), "\(detail ?? [:])")
        }
    }

    static let package = "com.example.shop"
    static let signing = String(repeating: "AB:", count: 31) + "AB"

    static func assetLinks(_ fingerprints: [String]) -> [UInt8] {
        Array("""
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "\(package)", "sha256_cert_fingerprints": [\(fingerprints.map { "\"\($0)\"" }.joined(separator: ","))]},
              "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/admin/*", "exclude": true}, {"/": "*"}]}}}]
            """.utf8)
    }

    /// Android's cells come from the checks' stored Android results, judged for the app's package and
    /// keys; its watched URLs are the pipeline's own judgement stored with the check (one judgement for
    /// the page, the API and the alerts), never the matcher run again on the stored file.
    @Test func androidCellsAndWatchedURLsFollowTheStoredAndroidChecks() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = adminClient(db)
            client.get("/apps/new")
            let created = client.post("/apps", [("name", "Shop"), ("android_package", Self.package), ("fingerprints", Self.signing),
                                                ("android_hosts", "shop.example"),
                                                ("watched_urls", "https://shop.example/products/1\nhttps://shop.example/admin/users")])
            #expect(created.status == 303, "\(created.bodyText)")
            let app = try #require(try db.app(name: "Shop"))
            let shop = try #require(try db.domainID(host: "shop.example", wildcard: false))
            var show = client.get("/apps/\(app.id)").bodyText
            #expect(show.contains("data-platform=\"android\" data-service=\"applinks\" data-state=\"checking\""), "\(show)")

            // As the pipeline stores a check: the watched URLs judged by AndroidWatchedURLs for the app's keys.
            func android(granted: [String], file: [UInt8]) -> AndroidResult {
                let urls = ["https://shop.example/products/1", "https://shop.example/admin/users"].map { WatchedURL(url: $0, expected: .opensApp(Self.package)) }
                return AndroidResult(verdict: granted.isEmpty ? .fail : .pass, serves: true, identities: [
                    AndroidIdentityResult(packageName: Self.package, expectedFingerprints: [Self.signing], named: !granted.isEmpty, grantedFingerprints: granted),
                ], watchedURLs: AndroidWatchedURLs.evaluate(urls, file: AssetLinksReader.read(file).file, keys: [Self.package: [Self.signing]]))
            }
            let t0 = Date(timeIntervalSince1970: 1_800_000_000)
            try recordCheck(db, domainID: shop, at: t0, findings: [], missing: [:], android: android(granted: [Self.signing], file: Self.assetLinks([Self.signing])),
                            androidFile: Self.assetLinks([Self.signing]))
            show = client.get("/apps/\(app.id)").bodyText
            // A watched URL that does not open the app fails its Android link, as it fails the domain's
            // Android side (DomainVerdict.androidState) and an Apple link with its watched URLs (issue #29).
            #expect(show.contains("0 of 1 links healthy"), "\(show)")
            #expect(show.contains("data-platform=\"android\" data-service=\"applinks\" data-state=\"failing\" data-since=\"\(DisplayTime.dateTime(t0))\""))
            #expect(show.contains("watched URL https://shop.example/admin/users stays in the browser on Android 15+, expected: opens com.example.shop."))
            #expect(!show.contains("not monitored yet"))
            // The matcher on the stored file: the products page opens the app, /admin is excluded.
            #expect(show.contains("<td class=\"mono\">https://shop.example/products/1</td><td data-label=\"Apple\">—</td><td data-label=\"Android\"><span class=\"ok\">✓ opens com.example.shop</span>"), "\(show)")
            #expect(show.contains("<td class=\"mono\">https://shop.example/admin/users</td><td data-label=\"Apple\">—</td><td data-label=\"Android\"><span class=\"bad\">✗ stays in the browser</span>"))

            // The key leaves the file: the cell fails with that reason now, still since the first failing check.
            let t1 = t0.addingTimeInterval(600)
            let rotated = Self.assetLinks([String(repeating: "CD:", count: 31) + "CD"])
            try recordCheck(db, domainID: shop, at: t1, findings: [], missing: [:], android: android(granted: [], file: rotated), androidFile: rotated)
            show = client.get("/apps/\(app.id)").bodyText
            #expect(show.contains("data-platform=\"android\" data-service=\"applinks\" data-state=\"failing\" data-since=\"\(DisplayTime.dateTime(t0))\""))
            // In the words the check's own finding uses (AndroidCheckEvaluation.identityFindings), as the domain page says it.
            let notGranted = "https://shop.example/.well-known/assetlinks.json grants nothing to com.example.shop; its App Links do not verify."
            #expect(show.contains(notGranted))
            #expect(show.contains("Android App Links broken on shop.example since \(DisplayTime.dateTime(t0))."))
            #expect(show.contains("<td class=\"mono\">https://shop.example/products/1</td><td data-label=\"Apple\">—</td><td data-label=\"Android\"><span class=\"bad\">✗ stays in the browser</span>"))

            // The page shows what the check stored, not a second judgement of the file: a stored
            // outcome the file alone would not give is what the page says.
            let t2 = t1.addingTimeInterval(600)
            var judged = android(granted: [], file: rotated)
            judged.watchedURLs[0].reason = "The stored judgement."
            try recordCheck(db, domainID: shop, at: t2, findings: [], missing: [:], android: judged, androidFile: rotated)
            show = client.get("/apps/\(app.id)").bodyText
            #expect(show.contains("The stored judgement."), "\(show)")
            let metrics = Self.scrape(db, token: "scrape-secret")
            #expect(metrics.contains("aasa_app_domains{app=\"Shop\",platform=\"android\",service=\"applinks\",state=\"failing\"} 1"), "\(metrics)")

            // The API says the same.
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
            let r = WebApp(database: db, configuration: TestApp.configuration)
                .respond(WebRequest(method: "GET", target: "/api/v1/apps/\(app.id)", headers: [("Authorization", "Bearer " + token.value)], body: []))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
            let watched = try #require(json["watched_urls"] as? [[String: Any]])
            #expect(watched.first?["android"] as? String == "stays in the browser" && watched.first?["android_meets_expectation"] as? Bool == false)
            let cell = (json["domains"] as? [[String: Any]])?.first.flatMap { ($0["cells"] as? [[String: Any]])?.first }
            #expect(cell?["state"] as? String == "failing" && cell?["reason"] as? String == notGranted)
            // A judged cell to the byte: its reason, and since when as an ISO 8601 date.
            let raw = String(decoding: r.body, as: UTF8.self)
            #expect(raw.contains(#""reason":"\#(notGranted)","service":"applinks","since":"20"#) && raw.contains(#"Z","state":"failing"}"#),
                    "\(raw)")
        }
    }

    /// An app is edited through the form (filled from the stored app, previewed before it is written)
    /// and through PATCH, and addressed by its name in page URLs and the API.
    @Test func editThroughTheFormWithAPreviewAndThroughTheAPIByName() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = adminClient(db)
            client.get("/apps/new")
            #expect(client.post("/apps", [("name", "Shop"), ("apple_app_ids", Self.app),
                                          ("apple_domains", "applinks:shop.example\napplinks:old.example")]).status == 303)
            let id = try #require(try db.app(name: "Shop")).id
            #expect(client.get("/apps/Shop").bodyText.contains("id=\"app-matrix\""), "a page URL by name")
            #expect(client.get("/apps/Nope").status == 404)

            let form = client.get("/apps/Shop/edit").bodyText
            #expect(form.contains("<h1>Edit Shop</h1>") && form.contains("action=\"/apps/\(id)/edit/preview\""))
            #expect(form.contains(">applinks:old.example\napplinks:shop.example</textarea>"), "the links by domain name: \(form)")
            #expect(form.contains(">\(Self.app)</textarea>"))

            let changed = [("name", "Shop"), ("apple_app_ids", Self.app), ("apple_domains", "applinks:shop.example\napplinks:new.example")]
            let preview = client.post("/apps/\(id)/edit/preview", changed)
            #expect(preview.status == 200, "\(preview.bodyText)")
            #expect(preview.bodyText.contains("Save Shop?") && preview.bodyText.contains("id=\"plan-dropped\""))
            #expect(preview.bodyText.contains("<li>old.example</li>"))
            #expect(try db.domainID(host: "new.example", wildcard: false) == nil, "the preview writes nothing")

            let back = client.post("/apps/\(id)/edit", changed + [("back", "1")])
            #expect(back.status == 200 && back.bodyText.contains(">applinks:shop.example\napplinks:new.example</textarea>"))
            #expect(try db.domainID(host: "new.example", wildcard: false) == nil, "going back writes nothing")

            let saved = client.post("/apps/\(id)/edit", changed)
            #expect(saved.status == 303 && saved.headers.contains { $0.name == "Location" && $0.value == "/apps/\(id)" })
            #expect(Set(try db.appLinks(appID: id).map(\.host)) == ["shop.example", "new.example"])
            #expect(try db.domainID(host: "old.example", wildcard: false) != nil, "a dropped domain stays registered")
            #expect(try db.appIDExpectations(domainID: try #require(try db.domainID(host: "old.example", wildcard: false))).isEmpty,
                    "without the app's expectations")

            let refused = client.post("/apps/\(id)/edit/preview", [("apple_app_ids", "not an id"), ("apple_domains", "applinks:shop.example")])
            #expect(refused.status == 422 && refused.bodyText.contains("id=\"err-apple_app_ids\""))

            // The API: PATCH by name, members left out keep their value, preview writes nothing.
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
            func call(_ method: String, _ target: String, _ json: String = "") -> (status: Int, body: [String: Any], raw: String) {
                let r = app.respond(WebRequest(method: method, target: target, headers: [("Authorization", "Bearer " + token.value),
                                                                                          ("Content-Type", "application/json")], body: Array(json.utf8)))
                return (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:], String(decoding: r.body, as: UTF8.self))
            }
            let planned = call("PATCH", "/api/v1/apps/Shop", #"{"apple_domains": ["applinks:shop.example"], "preview": true}"#)
            #expect(planned.status == 200 && planned.body["dropped"] as? [String] == ["new.example"], "\(planned.body)")
            #expect(try db.appLinks(appID: id).count == 2, "the preview writes nothing")
            let renamed = call("PATCH", "/api/v1/apps/Shop", #"{"name": "Shop 2"}"#)
            #expect(renamed.status == 200 && renamed.body["name"] as? String == "Shop 2")
            #expect((renamed.body["domains"] as? [[String: Any]])?.count == 2, "members left out keep their value")
            #expect(call("GET", "/api/v1/apps/Shop%202").body["id"] as? Int == Int(id))
            #expect(call("PATCH", "/api/v1/apps/Nope", "{}").status == 404)
            #expect(call("PATCH", "/api/v1/apps/\(id)", #"{"apple_app_ids": ["x"]}"#).status == 400)
            let port = call("PATCH", "/api/v1/apps/\(id)", #"{"apple_domains": ["applinks:shop.example:8443"]}"#)
            #expect(port.status == 422 && ((port.body["error"] as? [String: Any])?["field"] as? String) == "apple_domains", "\(port.body)")
            #expect(call("DELETE", "/api/v1/apps/Shop%202").status == 204)
        }
    }

    /// A channel routed to an app gets the alerts of the app's domains and no others; every
    /// notification of such a domain names the apps that claim it.
    @Test func channelsRoutedPerAppAndAlertsNameTheirApps() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = adminClient(db)
            client.get("/apps/new")
            #expect(client.post("/apps", [("name", "Shop"), ("apple_app_ids", Self.app), ("apple_domains", "applinks:shop.example")]).status == 303)
            #expect(client.post("/domains", [("host", "other.example"), ("interval", "60")]).status == 303)
            let shop = try #require(try db.domainID(host: "shop.example", wildcard: false))
            let other = try #require(try db.domainID(host: "other.example", wildcard: false))
            let app = try #require(try db.app(name: "Shop"))
            let routed = try db.createChannel(NewChannel(kind: .email, settings: ChannelSettings(name: "shop team", target: "shop@example.test",
                                                                                               appIDs: [app.id])))
            #expect(routed.appIDs == [app.id])
            #expect(try db.channel(id: routed.id)?.appIDs == [app.id])
            let everyone = try db.createChannel(NewChannel(kind: .email, name: "ops", target: "ops@example.test"))

            let at = Date(timeIntervalSince1970: 1_800_000_000)
            func opened(_ host: String) -> AlertChange {
                AlertChange(event: AlertEvent(kind: .opened, key: AlertKey(rule: .appIDMissing, subject: "applinks:\(Self.app)"),
                                              severity: .critical, summary: "\(Self.app) is missing from applinks.", at: at),
                            domainHost: host)
            }
            try recordCheck(db, domainID: shop, at: at, findings: [], missing: [.applinks: [Self.app]], alerts: [opened("shop.example")])
            try recordCheck(db, domainID: other, at: at, findings: [], missing: [:], alerts: [opened("other.example")])
            let toShopTeam = try db.deliveries(channelID: routed.id)
            #expect(toShopTeam.map(\.event.domainHost) == ["shop.example"], "only the app's domain reaches the app's channel")
            #expect(toShopTeam.first?.event.apps == ["Shop"])
            #expect(Set(try db.deliveries(channelID: everyone.id).map(\.event.domainHost)) == ["shop.example", "other.example"])
            #expect(try db.deliveries(channelID: everyone.id).first { $0.event.domainHost == "other.example" }?.event.apps == nil)
            let words = NotificationText(event: try #require(toShopTeam.first?.event), links: NotificationLinks(baseURL: "https://m.example"))
            #expect(words.subject.hasSuffix("(apps: Shop)"))
            #expect(words.plain.contains("Apps affected: Shop"))
            #expect(client.get("/alerts").bodyText.contains("<span class=\"reason\">Apps: Shop</span>"))
        }
    }
}
