import Testing
import Foundation
@testable import Store
import Vocabulary
import TestSupport
import TextEncoding
@testable import Web

@Suite(.serialized) struct APITests {
    static let app = "ABCDE12345.com.example.app"

    struct Client {
        let app: WebApp
        let token: String
        func call(_ method: String, _ target: String, json: String? = nil, token: String? = nil) -> (status: Int, body: [String: Any], raw: WebResponse) {
            var headers: [(name: String, value: String)] = [("Authorization", "Bearer " + (token ?? self.token))]
            if json != nil { headers.append(("Content-Type", "application/json")) }
            let r = app.respond(WebRequest(method: method, target: target, headers: headers, body: Array((json ?? "").utf8)))
            let body = (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:]
            return (r.status, body, r)
        }
    }

    func withAPI(_ body: (Client, Database) throws -> Void) throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            WebClient(app: app).setUpAdmin()
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
            try body(Client(app: app, token: token.value), db)
        }
    }

    func errorOf(_ body: [String: Any]) -> (message: String?, field: String?) {
        let e = body["error"] as? [String: Any]
        return (e?["message"] as? String, e?["field"] as? String)
    }

    @Test func domainsLifecycleOverTheAPI() throws {
        try withAPI { api, db in
            #expect(api.call("GET", "/api/v1/domains", token: "nope").status == 401)
            let created = api.call("POST", "/api/v1/domains", json: """
                {"host": "Bücher.example", "interval_minutes": 15, "app_ids": [{"service": "applinks", "app_id": "\(Self.app)"}],
                 "watched_urls": [{"url": "https://bücher.example/p/1", "expect": "\(Self.app)"}]}
                """)
            #expect(created.status == 201)
            let id = try #require(created.body["id"] as? Int)
            #expect(created.body["host"] as? String == "xn--bcher-kva.example")
            #expect(created.body["state"] as? String == "checking")
            #expect(created.raw.header("Location") == "/api/v1/domains/\(id)")
            #expect((created.body["app_ids"] as? [[String: Any]])?.count == 1)

            let refused = api.call("POST", "/api/v1/domains", json: #"{"host": "example.com:443"}"#)
            #expect(refused.status == 400)
            #expect(errorOf(refused.body).field == "host")
            #expect(errorOf(refused.body).message?.contains("port") == true)
            let badApp = api.call("POST", "/api/v1/domains", json: #"{"host": "a.example", "app_ids": [{"service": "applinks", "app_id": "nope"}]}"#)
            #expect(errorOf(badApp.body).field == "app_ids[0].app_id")
            // A lower-case Team ID is refused with the form's sentence, not the pattern (issue #31).
            let lower = api.call("POST", "/api/v1/domains", json: #"{"host": "a.example", "app_ids": [{"service": "applinks", "app_id": "abcde12345.com.example.app"}]}"#)
            #expect(lower.status == 400 && errorOf(lower.body).field == "app_ids[0].app_id")
            #expect(errorOf(lower.body).message == "The Team ID \"abcde12345\" must be upper-case: ABCDE12345")
            let lowerExpect = api.call("POST", "/api/v1/domains", json: #"{"host": "a.example", "watched_urls": [{"url": "https://a.example/x", "expect": "abcde12345.com.example.app"}]}"#)
            #expect(errorOf(lowerExpect.body).message == "The Team ID \"abcde12345\" must be upper-case: ABCDE12345")
            let lowerApp = api.call("POST", "/api/v1/apps", json: #"{"name": "Shop", "apple_app_ids": ["abcde12345.com.example.app"]}"#)
            #expect(errorOf(lowerApp.body).message == "The Team ID \"abcde12345\" must be upper-case: ABCDE12345", "\(lowerApp.body)")
            #expect(api.call("POST", "/api/v1/domains", json: "not json").status == 400)
            #expect(api.call("POST", "/api/v1/domains", json: #"{"host": "bücher.example"}"#).status == 409)

            let list = api.call("GET", "/api/v1/domains?q=b%C3%BCcher")
            #expect(list.body["total"] as? Int == 1)
            let patched = api.call("PATCH", "/api/v1/domains/\(id)", json: #"{"interval_minutes": 60, "badge": true}"#)
            #expect(patched.status == 200)
            #expect(patched.body["interval_minutes"] as? Int == 60 && patched.body["badge"] as? Bool == true)
            #expect((patched.body["watched_urls"] as? [[String: Any]])?.count == 1)   // untouched fields kept
            #expect(api.call("PATCH", "/api/v1/domains/\(id)", json: #"{"host": "other.example"}"#).status == 400)

            let body1 = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/p/*"}]}]}}"#
            let body2 = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/q/*"}]}]}}"#
            try db.insertCheck(NewCheckRow(domainID: Int64(id), startedAt: Date(timeIntervalSinceNow: -10), finishedAt: Date(timeIntervalSinceNow: -9),
                                           verdict: .pass, originBody: Array(body1.utf8), latencyMilliseconds: 20, changed: true))
            try db.insertCheck(NewCheckRow(domainID: Int64(id), startedAt: Date(), finishedAt: Date(), verdict: .fail, originBody: Array(body2.utf8),
                                           findings: [Finding(code: "watched-url-changed", severity: .error, message: "moved")],
                                           latencyMilliseconds: 30, changed: true))
            let checks = api.call("GET", "/api/v1/domains/\(id)/checks")
            #expect((checks.body["checks"] as? [[String: Any]])?.count == 2)
            let findings = api.call("GET", "/api/v1/domains/\(id)/findings")
            #expect(((findings.body["findings"] as? [[String: Any]])?.first?["code"] as? String) == "watched-url-changed")
            let diff = api.call("GET", "/api/v1/domains/\(id)/diff")
            #expect(diff.status == 200)
            #expect(diff.body["behaviourally_equal"] as? Bool == false)
            #expect(((diff.body["watched_urls"] as? [[String: Any]])?.first?["after"] as? String) == "stays in the browser")
            let sha = try #require(((checks.body["checks"] as? [[String: Any]])?.first?["origin_version"]) as? String)
            let raw = api.call("GET", "/api/v1/versions/\(sha)")
            #expect(raw.status == 200 && raw.raw.bodyText == body2)
            #expect(api.call("GET", "/api/v1/domains/\(id)/diff?from=zzz").status == 400)

            let tested = api.call("POST", "/api/v1/test-url", json: #"{"url": "https://bücher.example/q/7", "domain_id": \#(id)}"#)
            #expect(tested.body["opens"] as? String == Self.app)
            let check = api.call("POST", "/api/v1/domains/\(id)/check")
            #expect(check.status == 202)
            #expect(try db.domain(id: Int64(id))?.checkRequestedAt != nil)
            #expect(api.call("DELETE", "/api/v1/domains/\(id)").status == 204)
            let gone = api.call("GET", "/api/v1/domains/\(id)")
            #expect(gone.status == 404 && errorOf(gone.body).message != nil)
            #expect(gone.body["error"] as? [String: Any] != nil)
        }
    }

    @Test func readOnlyTokensCannotChange() throws {
        try withAPI { api, db in
            let viewer = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "ro", tokenHash: viewer.digest, userID: nil, role: .readOnly)
            #expect(api.call("GET", "/api/v1/domains", token: viewer.value).status == 200)
            let refused = api.call("POST", "/api/v1/domains", json: #"{"host": "a.example"}"#, token: viewer.value)
            #expect(refused.status == 403)
            #expect(try db.domain(host: "a.example") == nil)
            // Revoked tokens stop working.
            let id = try #require(try db.apiTokens().first { $0.name == "ro" }?.id)
            try db.revokeAPIToken(id: id)
            #expect(api.call("GET", "/api/v1/domains", token: viewer.value).status == 401)
        }
    }

    /// Every operation the OpenAPI document declares is answered by the running app with one of the
    /// statuses it declares for it.
    @Test func theServerAnswersWhatTheOpenAPIDocumentDeclares() throws {
        try withAPI { api, db in
            let served = api.app.respond(WebRequest(method: "GET", target: "/api/v1/openapi.json"))
            #expect(served.status == 200)
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(served.body)) as? [String: Any])
            let paths = try #require(doc["paths"] as? [String: [String: Any]])
            guard case .created(let id) = try db.createDomain(DomainDraft(host: "api.example", displayName: "api.example", wildcard: false,
                intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: [])) else { Issue.record("no domain"); return }
            let body1 = Array(#"{"applinks":{"details":[]}}"#.utf8), body2 = Array(#"{"webcredentials":{"apps":["ABCDE12345.a.b"]}}"#.utf8)
            try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date(timeIntervalSinceNow: -5), finishedAt: Date(timeIntervalSinceNow: -5),
                                           verdict: .pass, originBody: body1, latencyMilliseconds: 5, changed: true))
            try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date(), finishedAt: Date(), verdict: .pass, originBody: body2,
                                           latencyMilliseconds: 5, changed: true))
            let sha = SHA256.hex(body2)
            let bodies = ["POST /domains": #"{"host": "new.example"}"#, "PATCH /domains/{domain}": #"{"interval_minutes": 60}"#,
                          "POST /test-url": #"{"url": "https://api.example/x", "domain_id": \#(id)}"#]
            var operations = 0
            // Deletion last, so the other operations find the domain.
            for path in paths.keys.sorted() {
                for method in ["get", "post", "patch", "delete"] {
                    guard let op = paths[path]?[method] as? [String: Any], let responses = op["responses"] as? [String: Any] else { continue }
                    if method == "delete" { continue }
                    let target = "/api/v1" + path.replacingOccurrences(of: "{domain}", with: String(id)).replacingOccurrences(of: "{hash}", with: sha)
                    let r = api.call(method.uppercased(), target, json: bodies["\(method.uppercased()) \(path)"])
                    #expect(responses[String(r.status)] != nil, "\(method) \(path) answered \(r.status): \(r.raw.bodyText)")
                    #expect(r.raw.header("Content-Type")?.hasPrefix(r.status == 200 && path.hasPrefix("/versions") ? "text/plain" : "application/json") == true,
                            "\(method) \(path)")
                    operations += 1
                }
            }
            let del = api.call("DELETE", "/api/v1/domains/\(id)")
            #expect((paths["/domains/{domain}"]?["delete"] as? [String: Any]).flatMap { $0["responses"] as? [String: Any] }?[String(del.status)] != nil)
            #expect(operations >= 10)
        }
    }

    /// A domain is addressed by id or by host, in the API and in page URLs: ASCII, Unicode and
    /// Punycode spellings, any case and a trailing dot all name the same domain.
    @Test func domainsAreAddressedByIdOrHost() throws {
        try withAPI { api, db in
            let created = api.call("POST", "/api/v1/domains", json: #"{"host": "bücher.example"}"#)
            let id = try #require(created.body["id"] as? Int)
            for spelling in ["\(id)", "xn--bcher-kva.example", "b%C3%BCcher.example", "XN--BCHER-KVA.EXAMPLE", "xn--bcher-kva.example."] {
                let read = api.call("GET", "/api/v1/domains/\(spelling)")
                #expect(read.status == 200 && read.body["id"] as? Int == id, "\(spelling): \(read.raw.bodyText)")
            }
            #expect(api.call("GET", "/api/v1/domains/\(id)/findings").status == 200)
            #expect(api.call("GET", "/api/v1/domains/xn--bcher-kva.example/checks").status == 200)
            let patched = api.call("PATCH", "/api/v1/domains/xn--bcher-kva.example", json: #"{"interval_minutes": 15}"#)
            #expect(patched.status == 200 && patched.body["interval_minutes"] as? Int == 15)
            let unknown = api.call("GET", "/api/v1/domains/other.example")
            #expect(unknown.status == 404 && errorOf(unknown.body).message == "No domain with this id or host.")
            #expect(api.call("GET", "/api/v1/domains/not%20a%20host").status == 404)
            #expect(api.call("GET", "/api/v1/domains/0").status == 404)

            // The pages too.
            let browser = WebClient(app: api.app)
            _ = browser.logIn(email: "admin@example.com", password: "correct horse battery")
            let page = browser.get("/domains/xn--bcher-kva.example")
            #expect(page.status == 200 && page.bodyText.contains("bücher.example"), "\(page.status)")
            #expect(browser.get("/domains/b%C3%BCcher.example").status == 200)
            #expect(browser.get("/domains/\(id)").status == 200)
            #expect(browser.get("/domains/other.example").status == 404)

            #expect(api.call("DELETE", "/api/v1/domains/b%C3%BCcher.example").status == 204)
            #expect(try db.domain(id: Int64(id)) == nil)
            #expect(api.call("GET", "/api/v1/domains/\(id)").status == 404)
        }
    }

    /// The server refuses exactly what the document refuses, with the documented status: 400 for a
    /// request that does not fit (a duplicated query parameter, a wrong type, a member the schema
    /// does not list, an interval not offered), 415 for a body that is not JSON, 413 past 256 KB, and
    /// 422 for a request that fits and that a rule no schema states refuses.
    @Test func requestsAreHeldToTheDocument() throws {
        try withAPI { api, _ in
            let twice = api.call("GET", "/api/v1/domains?page=1&page=2")
            #expect(twice.status == 400 && errorOf(twice.body).field == "page")
            #expect(errorOf(twice.body).message?.contains("more than once") == true)
            #expect(api.call("GET", "/api/v1/domains?per_page=0").status == 400)
            #expect(api.call("GET", "/api/v1/domains?per_page=1001").status == 400)
            #expect(api.call("GET", "/api/v1/domains?page=abc").status == 400)
            #expect(api.call("GET", "/api/v1/domains?page=%2B1").status == 400)   // +1: no JSON integer has a plus sign
            #expect(api.call("GET", "/api/v1/domains?state=gone").status == 400)
            #expect(api.call("GET", "/api/v1/domains?state=failing&per_page=5").status == 200)
            #expect(api.call("GET", "/api/v1/domains?unrelated=1&unrelated=2").status == 400)

            for interval in [5, 15, 60, 360, 1440] {
                let created = api.call("POST", "/api/v1/domains", json: #"{"host": "i\#(interval).example", "interval_minutes": \#(interval)}"#)
                #expect(created.status == 201, "\(interval): \(created.raw.bodyText)")
            }
            let seven = api.call("POST", "/api/v1/domains", json: #"{"host": "seven.example", "interval_minutes": 7}"#)
            #expect(seven.status == 400 && errorOf(seven.body).field == "interval_minutes")
            #expect(api.call("POST", "/api/v1/domains", json: #"{"host": "t.example", "interval_minutes": "60"}"#).status == 400)
            #expect(api.call("POST", "/api/v1/domains", json: #"{"host": "t.example", "badge": 1}"#).status == 400)
            #expect(api.call("POST", "/api/v1/domains", json: #"{"host": "t.example", "badge": null}"#).status == 400)
            let typo = api.call("POST", "/api/v1/domains", json: #"{"host": "t.example", "inteval_minutes": 60}"#)
            #expect(typo.status == 400 && errorOf(typo.body).field == "inteval_minutes")
            let empty = api.call("POST", "/api/v1/domains", json: #"{"host": "t.example", "watched_urls": [{"url": "", "expect": "browser"}]}"#)
            #expect(empty.status == 400 && errorOf(empty.body).field == "watched_urls[0].url")
            #expect(api.call("POST", "/api/v1/domains", json: #"{"host": ""}"#).status == 400)
            #expect(api.call("POST", "/api/v1/domains", json: #"{}"#).status == 400)
            #expect(api.call("POST", "/api/v1/domains", json: #"[]"#).status == 400)

            // Fits the document, refused by a rule no schema states.
            let offHost = api.call("POST", "/api/v1/domains", json: #"{"host": "u.example", "watched_urls": [{"url": "https://other.example/", "expect": "browser"}]}"#)
            #expect(offHost.status == 422 && errorOf(offHost.body).field == "watched_urls[0].url")
            let idna = api.call("POST", "/api/v1/domains", json: #"{"host": "-leading.example"}"#)
            #expect(idna.status == 422 && errorOf(idna.body).field == "host")

            var notJSON = api.app.respond(WebRequest(method: "POST", target: "/api/v1/domains",
                headers: [("Authorization", "Bearer " + api.token), ("Content-Type", "text/plain")], body: Array(#"{"host": "v.example"}"#.utf8)))
            #expect(notJSON.status == 415)
            notJSON = api.app.respond(WebRequest(method: "POST", target: "/api/v1/domains",
                headers: [("Authorization", "Bearer " + api.token)], body: Array(#"{"host": "v.example"}"#.utf8)))
            #expect(notJSON.status == 415)
            let large = api.call("POST", "/api/v1/domains", json: #"{"host": "w.example", "pad": ""# + String(repeating: "x", count: 300 << 10) + #""}"#)
            #expect(large.status == 413)
            let withCharset = api.app.respond(WebRequest(method: "POST", target: "/api/v1/domains",
                headers: [("Authorization", "Bearer " + api.token), ("Content-Type", "application/json; charset=utf-8")],
                body: Array(#"{"host": "x.example"}"#.utf8)))
            #expect(withCharset.status == 201)
        }
    }

    @Test func metricsBadgeAndExport() throws {
        try withAPI { api, db in
            guard case .created(let id) = try db.createDomain(DomainDraft(host: "badge.example", displayName: "badge.example", wildcard: false,
                intervalSeconds: 3600, badgeEnabled: true, appIDs: [], watchedURLs: [])),
                case .created = try db.createDomain(DomainDraft(host: "cmd.example", displayName: "=cmd|' <b>", wildcard: false,
                intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: [])) else { Issue.record("no domain"); return }
            try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date(), finishedAt: Date(), verdict: .fail, originBody: nil,
                                           findings: [Finding(code: "http-status", severity: .error, message: "404")],
                                           latencyMilliseconds: 120, changed: true))
            // A domain watched for Android only whose assetlinks.json is missing: its finding is Android's.
            guard case .created(let droid) = try db.createDomain(DomainDraft(host: "droid.example", displayName: "droid.example", wildcard: false,
                intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: [], platforms: .android)) else { Issue.record("no domain"); return }
            try db.insertCheck(NewCheckRow(domainID: droid, startedAt: Date(), finishedAt: Date(), verdict: .fail, originBody: nil,
                                           findings: [], latencyMilliseconds: 120, changed: true))
            let android = AndroidResult(verdict: .fail, serves: false, findings: [Finding(code: "http-status", severity: .error, message: "404"),
                                                                                  Finding(code: "fetcher-blocked", severity: .warning, message: "w")])
            // As the pipeline records it: the check with its Android side, then the domain pointed at it.
            try db.execute("UPDATE domains SET last_check_id = NULL WHERE id = $1", droid)
            try db.execute("UPDATE checks SET android = $1::jsonb WHERE domain_id = $2", try StoredJSON.encode(android), droid)
            try db.execute("UPDATE domains SET last_check_id = (SELECT max(id) FROM checks WHERE domain_id = $1) WHERE id = $1", droid)
            let metrics = api.app.respond(WebRequest(method: "GET", target: "/metrics")).bodyText
            #expect(metrics.contains("aasa_checks_total{verdict=\"fail\"} 2"))
            #expect(metrics.contains("aasa_failing_domains{platform=\"apple\",code=\"http-status\"} 1"), "\(metrics)")
            #expect(metrics.contains("aasa_failing_domains{platform=\"android\",code=\"http-status\"} 1"))
            #expect(!metrics.contains("code=\"fetcher-blocked\""), "warnings fail no domain")
            #expect(metrics.contains("aasa_check_latency_seconds_bucket{le=\"0.25\"} 2"))
            #expect(metrics.contains("aasa_check_latency_seconds_bucket{le=\"0.1\"} 0"))
            #expect(metrics.contains("aasa_check_queue_depth 3"))   // all three are due: registered domains are due at once
            #expect(metrics.contains("# TYPE aasa_check_queue_lag_seconds gauge\naasa_check_queue_lag_seconds "))
            #expect(metrics.contains("aasa_deliveries{state=\"pending\"} 0"))
            let badge = api.app.respond(WebRequest(method: "GET", target: "/badge/badge.example.svg"))
            #expect(badge.status == 200 && badge.bodyText.contains("failing") && badge.header("Content-Type") == "image/svg+xml")
            #expect(api.app.respond(WebRequest(method: "GET", target: "/badge/cmd.example.svg")).status == 404)   // not opted in
            #expect(api.app.respond(WebRequest(method: "GET", target: "/badge/unknown.example.svg")).status == 404)
            let browser = WebClient(app: api.app)
            _ = browser.logIn(email: "admin@example.com", password: "correct horse battery")
            let csv = browser.get("/export/domains.csv").bodyText
            #expect(csv.hasPrefix("host,display_name"))
            #expect(csv.contains("\"'=cmd|' <b>\""))   // formula defused, quoted
            let json = browser.get("/export/domains.json")
            #expect(json.header("Content-Type") == "application/json")
            #expect(json.bodyText.contains("\"host\":\"badge.example\""))
        }
    }

    /// POST /api/v1/test-url answers for both platforms: Apple's app with its deciding rule, and on
    /// Android the package per version (15+ by the dynamic rules, older by verification alone) with
    /// the deciding dynamic rule; an unreadable assetlinks.json is a 422 naming its field.
    @Test func testURLAnswersForBothPlatforms() throws {
        try withAPI { api, _ in
            let both = api.call("POST", "/api/v1/test-url", json: """
                {"url": "https://example.com/help/1", "aasa": \(JSONStringLiteral.quoted(AndroidTesterTests.aasa)),
                 "assetlinks": \(JSONStringLiteral.quoted(AndroidTesterTests.assetLinks)), "package": "\(AndroidTesterTests.package)"}
                """)
            #expect(both.status == 200, "\(both.body)")
            #expect(both.body["opens"] as? String == "ABCDE12345.com.example.app")
            let android = try #require(both.body["android"] as? [String: Any], "\(both.body)")
            #expect(android["opens"] == nil, "Android 15+: the dynamic rule excludes /help/*")
            #expect(android["opens_before_android_15"] as? String == AndroidTesterTests.package, "older: every path of a verified host")
            let app = try #require((android["apps"] as? [[String: Any]])?.first)
            #expect(app["package_name"] as? String == AndroidTesterTests.package && app["opens"] as? Bool == false
                    && app["opens_before_android_15"] as? Bool == true)
            #expect((app["deciding_rule"] as? String)?.hasPrefix("Rule 1:") == true, "\(app)")
            let shop = api.call("POST", "/api/v1/test-url", json: """
                {"url": "https://example.com/shop/2", "assetlinks": \(JSONStringLiteral.quoted(AndroidTesterTests.assetLinks))}
                """)
            #expect(shop.status == 200 && (shop.body["android"] as? [String: Any])?["opens"] as? String == AndroidTesterTests.package,
                    "Android alone answers: \(shop.body)")
            #expect(shop.body["apple_error"] as? String == "Choose a registered domain or paste a file." && shop.body["apps"] == nil)
            let bad = api.call("POST", "/api/v1/test-url", json: #"{"url": "https://example.com/a", "aasa": "{}", "assetlinks": "[{,"}"#)
            #expect(bad.status == 422 && errorOf(bad.body).field == "assetlinks", "\(bad.body)")
            let neither = api.call("POST", "/api/v1/test-url", json: #"{"url": "https://example.com/a"}"#)
            #expect(neither.status == 422 && errorOf(neither.body).field == "aasa", "as before: \(neither.body)")
        }
    }

    /// The expectation entries a domain reads back with, to the byte (keys, nesting, which keys are
    /// left out), and every member a PATCH leaves out kept as stored: scripts read these bodies and
    /// post them back (the export's items are the same objects).
    @Test func expectationEntriesReadBackAsWrittenAndAPatchKeepsWhatItLeavesOut() throws {
        let key = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        try withAPI { api, _ in
            let created = api.call("POST", "/api/v1/domains", json: """
                {"host": "shop.example", "interval_minutes": 15, "badge": true, "platforms": "both",
                 "app_ids": [{"service": "webcredentials", "app_id": "\(Self.app)"}],
                 "watched_urls": [{"url": "https://shop.example/p/1", "expect": "\(Self.app)", "android": "com.example.shop"},
                                  {"url": "https://shop.example/p/2", "expect": "browser"}],
                 "android_apps": [{"package": "com.example.shop", "fingerprints": ["\(key)"]}]}
                """)
            #expect(created.status == 201, "\(created.body)")
            let id = try #require(created.body["id"] as? Int)
            let entries = #"""
                "android_apps":[{"fingerprints":["\#(key)"],"package":"com.example.shop","upload_keys":[]}],\#
                "app_ids":[{"app_id":"\#(Self.app)","service":"webcredentials"}],"badge":true,
                """#
            let watched = #"""
                "watched_urls":[{"android":"com.example.shop","expect":"\#(Self.app)","url":"https://shop.example/p/1"},\#
                {"expect":"browser","url":"https://shop.example/p/2"}],"wildcard":false}
                """#
            for (name, response) in [("created", created), ("read", api.call("GET", "/api/v1/domains/\(id)"))] {
                let raw = String(decoding: response.raw.body, as: UTF8.self)
                #expect(raw.contains(entries) && raw.hasSuffix(watched), "\(name): \(raw)")
                #expect(Set(response.body.keys) == ["id", "host", "display_name", "wildcard", "state", "interval_minutes", "badge", "platforms",
                                                    "next_check_at", "app_ids", "watched_urls", "android_apps", "open_alerts", "paused"],
                        "\(name), as the list's item (apple_state / android_state once checked): \(response.body.keys.sorted())")
            }
            let browser = WebClient(app: api.app)
            _ = browser.logIn(email: "admin@example.com", password: "correct horse battery")
            let export = browser.get("/export/domains.json").bodyText
            #expect(export.contains(entries) && export.contains(watched), "\(export)")

            // Each PATCH names one member; every other keeps its value.
            for (patch, written) in [(#"{"platforms": "apple"}"#, #""platforms":"apple""#), (#"{"interval_minutes": 60}"#, #""interval_minutes":60"#),
                                     (#"{"badge": false}"#, #""badge":false"#)] {
                let patched = api.call("PATCH", "/api/v1/domains/\(id)", json: patch)
                #expect(patched.status == 200, "\(patch): \(patched.body)")
                let raw = String(decoding: patched.raw.body, as: UTF8.self)
                #expect(raw.contains(written), "\(patch): \(raw)")
                #expect(raw.contains(#""app_ids":[{"app_id":"\#(Self.app)","service":"webcredentials"}]"#) && raw.hasSuffix(watched), "\(patch): \(raw)")
                #expect(raw.contains(#""android_apps":[{"fingerprints":["\#(key)"],"package":"com.example.shop","upload_keys":[]}]"#), "\(patch): \(raw)")
            }
            let last = api.call("GET", "/api/v1/domains/\(id)").body
            #expect(last["platforms"] as? String == "apple" && last["interval_minutes"] as? Int == 60 && last["badge"] as? Bool == false)
        }
    }

    /// A watched URL's Android outcome over the API: written, read back, refused with its field.
    @Test func aWatchedURLsAndroidOutcomeOverTheAPI() throws {
        try withAPI { api, db in
            let created = api.call("POST", "/api/v1/domains", json: """
                {"host": "shop.example", "watched_urls": [{"url": "https://shop.example/p/1", "expect": "browser", "android": "com.example.shop"},
                                                          {"url": "https://shop.example/p/2", "expect": "browser"}]}
                """)
            #expect(created.status == 201, "\(created.body)")
            let watched = try #require(created.body["watched_urls"] as? [[String: Any]])
            #expect(watched.first?["android"] as? String == "com.example.shop" && watched.last?["android"] == nil)
            let id = try #require(created.body["id"] as? Int)
            #expect(try db.watchedURLs(domainID: Int64(id)).map(\.android) == [.opensPackage("com.example.shop"), nil])
            let refused = api.call("POST", "/api/v1/domains", json: #"{"host": "b.example", "watched_urls": [{"url": "https://b.example/", "expect": "browser", "android": "app"}]}"#)
            #expect(refused.status == 400 && errorOf(refused.body).field == "watched_urls[0].android", "\(refused.body)")
            let patched = api.call("PATCH", "/api/v1/domains/\(id)", json: #"{"badge": true}"#)
            #expect(((patched.body["watched_urls"] as? [[String: Any]])?.first?["android"] as? String) == "com.example.shop", "kept when left out")
        }
    }

    /// A domain's own Android apps over the API: written (lower case and bare hex accepted), read back
    /// in the stored form, refused by the form's rules with the entry named, kept when a PATCH leaves
    /// them out and removed by an empty list.
    @Test func aDomainsOwnAndroidAppsOverTheAPI() throws {
        let key = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        let bare = key.replacingOccurrences(of: ":", with: "").lowercased()
        try withAPI { api, db in
            let created = api.call("POST", "/api/v1/domains", json: """
                {"host": "droid.example", "platforms": "android", "android_apps": [{"package": "com.example.droid", "fingerprints": ["\(bare)"]}]}
                """)
            #expect(created.status == 201, "\(created.body)")
            let id = try #require(created.body["id"] as? Int)
            let apps = try #require(created.body["android_apps"] as? [[String: Any]])
            #expect(apps.count == 1 && apps.first?["package"] as? String == "com.example.droid")
            #expect(apps.first?["fingerprints"] as? [String] == [key], "read back in the one stored form")
            #expect(try db.androidExpectations(domainIDs: [Int64(id)]).map(\.app.packageName) == ["com.example.droid"], "the scheduler reads them")
            #expect((api.call("GET", "/api/v1/domains/droid.example").body["android_apps"] as? [[String: Any]])?.count == 1)

            // The form's rules, with the entry named: a package that is not one, a SHA-1 fingerprint, one package twice.
            let badPackage = api.call("POST", "/api/v1/domains", json: #"{"host": "b.example", "android_apps": [{"package": "com", "fingerprints": ["\#(key)"]}]}"#)
            #expect(badPackage.status == 422 && errorOf(badPackage.body).field == "android_apps[0].package", "\(badPackage.body)")
            #expect(errorOf(badPackage.body).message?.contains("one segment") == true)
            let sha1 = String(repeating: "AB:", count: 19) + "AB"
            let badKey = api.call("POST", "/api/v1/domains", json: #"{"host": "b.example", "android_apps": [{"package": "com.example.b", "fingerprints": ["\#(sha1)"]}]}"#)
            #expect(badKey.status == 422 && errorOf(badKey.body).field == "android_apps[0].fingerprints", "\(badKey.body)")
            #expect(errorOf(badKey.body).message?.contains("SHA-1") == true)
            let none = api.call("POST", "/api/v1/domains", json: #"{"host": "b.example", "android_apps": [{"package": "com.example.b", "fingerprints": []}]}"#)
            #expect(none.status == 422 && errorOf(none.body).field == "android_apps[0].fingerprints")
            let twice = api.call("POST", "/api/v1/domains", json: """
                {"host": "b.example", "android_apps": [{"package": "com.example.b", "fingerprints": ["\(key)"]}, {"package": "com.example.b", "fingerprints": ["\(key)"]}]}
                """)
            #expect(twice.status == 422 && errorOf(twice.body).field == "android_apps[1].package", "\(twice.body)")
            let typed = api.call("POST", "/api/v1/domains", json: #"{"host": "b.example", "android_apps": [{"package": "com.example.b", "fingerprints": "\#(key)"}]}"#)
            #expect(typed.status == 400 && errorOf(typed.body).field == "android_apps[0].fingerprints")
            #expect(try db.domain(host: "b.example") == nil, "nothing refused was registered")

            let kept = api.call("PATCH", "/api/v1/domains/\(id)", json: #"{"badge": true}"#)
            #expect((kept.body["android_apps"] as? [[String: Any]])?.count == 1, "kept when left out")
            let upload = String(repeating: "AB:", count: 31) + "AB"
            let rotated = api.call("PATCH", "/api/v1/domains/\(id)", json: """
                {"android_apps": [{"package": "com.example.droid", "fingerprints": ["\(key)"], "upload_keys": ["\(String(repeating: "ab", count: 32))"]}]}
                """)
            #expect(rotated.status == 200)
            #expect(try db.androidAppExpectations(domainID: Int64(id)) == [
                AndroidAppExpectation(packageName: "com.example.droid", fingerprints: [key, upload].sorted(), uploadKeys: [upload])],
                "an upload key is one of the app's keys, marked")
            let read = (rotated.body["android_apps"] as? [[String: Any]])?.first
            #expect(read?["upload_keys"] as? [String] == [upload] && (read?["fingerprints"] as? [String])?.count == 2, "\(rotated.body)")
            let badUpload = api.call("PATCH", "/api/v1/domains/\(id)", json: #"{"android_apps": [{"package": "com.example.droid", "fingerprints": [], "upload_keys": ["AB"]}]}"#)
            #expect(badUpload.status == 422 && errorOf(badUpload.body).field == "android_apps[0].fingerprints", "\(badUpload.body)")
            let cleared = api.call("PATCH", "/api/v1/domains/\(id)", json: #"{"android_apps": []}"#)
            #expect(cleared.status == 200 && (cleared.body["android_apps"] as? [Any])?.isEmpty == true)
            #expect(try db.androidAppExpectations(domainID: Int64(id)).isEmpty)
        }
    }
}
