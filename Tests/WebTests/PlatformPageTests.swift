import AssetLinks
import Outbound
import Vocabulary
import Fetch
import Foundation
import Monitor
import Store
import Testing
import TestSupport
@testable import Web

/// The domain page with both platforms side by side, from checks of the real pipeline: real
/// PostgreSQL, the HTTPS test fleet serving both files and the fake Digital Asset Links API.
@Suite(.serialized) struct PlatformPageTests {
    static let host = "two.fleet.test"
    static let package = "com.example.shop"
    static let fingerprint = "AA:" + Array(repeating: "11", count: 31).joined(separator: ":")

    static func assetLinks(_ fingerprint: String) -> String {
        #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["\#(fingerprint)"]}}]"#
    }

    /// nginx serves the host from the default site; the fake Google API reads the host's own directory.
    static func write(_ fleet: TestTLSFleet, _ name: String, _ text: String) throws {
        for site in ["_default", host] {
            try fleet.deploy(text, at: "/.well-known/\(name)", site: site)
        }
    }

    /// One scheduler round through the real check pipeline.
    static func checkDue(_ pipeline: CheckPipeline) async throws {
        let db = pipeline.database
        try db.execute("UPDATE domains SET next_check_at = now() - interval '1 second'")
        let leased = try db.leaseDueDomains(limit: 10, lease: .seconds(60), worker: "platforms")
        let expectations = Dictionary(grouping: try db.expectations(domainIDs: leased.map(\.id)), by: \.domainID)
        let histories = try db.domainHistories(domainIDs: leased.map(\.id))
        let android = Dictionary(grouping: try db.androidExpectations(domainIDs: leased.map(\.id)), by: \.domainID)
        for domain in leased {
            _ = try await pipeline.run(domain, expectations: Expectations(rows: expectations[domain.id] ?? []),
                                       android: (android[domain.id] ?? []).map(\.app),
                                       history: histories[domain.id])
        }
    }

    /// A fleet, a fetcher that asks the fleet's fake Google API, a database and a signed-in admin.
    static func withSetup(_ body: (TestTLSFleet, WebClient, Database, CheckPipeline) async throws -> Void) async throws {
        try await TestTLSFleet.with { fleet in
            try write(fleet, "apple-app-site-association", #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.shop"], "components": [{"/": "/*"}]}]}}"#)
            try write(fleet, "assetlinks.json", assetLinks(fingerprint))
            let fetcher = try Fetcher(FetchConfiguration(
                policy: OutboundPolicy(allowPrivateAddresses: true), cdnBase: fleet.cdnBase, checkCDN: false,
                rootLocation: .whenWellKnownFails, compareUserAgents: false,
                googleDAL: GoogleDALSettings(base: fleet.googleDALBase), extraCAFile: fleet.caFile,
                connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
                connectTimeout: .seconds(30), totalTimeout: .seconds(60)))
            defer { fetcher.shutdown() }
            try await TestPostgres.withDatabase { (db: Database) async throws in
                let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
                client.setUpAdmin()
                try await body(fleet, client, db, CheckPipeline(database: db, fetcher: fetcher))
            }
        }
    }

    /// The HTML of the element with this id, up to the end of the page (enough to ask what is in it).
    static func from(_ id: String, in page: String) -> String {
        page.range(of: "id=\"\(id)\"").map { String(page[$0.upperBound...]) } ?? ""
    }

    @Test func bothColumnsShowAndAnAndroidBreakShowsWhyWithGooglesVerdictAndTheDiff() async throws {
        try await Self.withSetup { fleet, client, db, pipeline in
            client.get("/domains/new")
            #expect(client.post("/domains", [("host", Self.host), ("interval", "60"), ("platforms", "both")]).status == 303)
            let id = try #require(try db.domain(host: Self.host)?.id)
            try await Self.checkDue(pipeline)
            var page = client.get("/domains/\(id)").bodyText
            let apple = Self.from("platform-apple", in: page), android = Self.from("platform-android", in: page)
            #expect(apple.hasPrefix("><h3>Apple") && apple.contains("state-passing"), "\(apple.prefix(400))")
            #expect(android.hasPrefix("><h3>Android") && android.contains("state-passing"), "\(android.prefix(400))")
            #expect(page.contains("id=\"google-verdict\""))
            let google = Self.from("google-verdict", in: page)
            #expect(google.contains("<dt>maxAge</dt><dd>600 s</dd>") && google.contains("<dt>errorCode</dt><dd>none</dd>"),
                    "Google's answer beside the origin: \(google.prefix(600))")
            #expect(page.contains("id=\"android-file\"") && page.contains(Self.package))
            #expect(page.contains("Origin: /.well-known/assetlinks.json"))

            // Android breaks (a lower-case fingerprint: Google drops the statement), Apple stays fine.
            try Self.write(fleet, "assetlinks.json", Self.assetLinks(Self.fingerprint.lowercased()))
            try await Self.checkDue(pipeline)
            page = client.get("/domains/\(id)").bodyText
            #expect(Self.from("platform-apple", in: page).prefix(300).contains("state-passing"))
            let column = Self.from("platform-android", in: page)
            #expect(column.prefix(400).contains("state-failing"), "\(column.prefix(400))")
            let findings = Self.from("android-findings", in: page)
            #expect(findings.contains("<code>fingerprint-lowercase</code>"), "\(findings.prefix(1500))")
            #expect(findings.contains("<span class=\"sev\">error</span>") && findings.contains("at <code>/0/target/sha256_cert_fingerprints/0 (line 1:"),
                    "severity and JSON location: \(findings.prefix(1500))")
            #expect(Self.from("google-verdict", in: page).contains("ERROR_CODE_MALFORMED_CONTENT"), "Google's error code shown")
            // Both versions kept; their diff says what changed for apps.
            let diff = Self.from("android-diff", in: page)
            #expect(diff.contains("name=\"afrom\"") && diff.contains("name=\"ato\""))
            #expect(diff.contains("was removed"), "\(diff.prefix(1500))")
            // The domain's state names Android as the reason.
            #expect(try db.domain(id: id)?.lastReason?.platform == .android)
        }
    }

    @Test func anAppleOnlyDomainSaysAndroidIsNotWatched() async throws {
        try await Self.withSetup { _, client, db, pipeline in
            client.get("/domains/new")
            #expect(client.post("/domains", [("host", Self.host), ("interval", "60"), ("platforms", "apple")]).status == 303)
            let id = try #require(try db.domain(host: Self.host)?.id)
            try await Self.checkDue(pipeline)
            let page = client.get("/domains/\(id)").bodyText
            #expect(Self.from("platform-android", in: page).contains("Not watched: this domain is watched for Apple only."))
            #expect(!page.contains("id=\"android\""))
        }
    }

    /// A domain watched for Android only, on every surface, from checks of the real pipeline: the page
    /// shows Apple as "not watched" and nothing more of it (no Apple findings, no AASA or CDN facts, no
    /// AASA file), the API's object, the overview's row and the status poll carry Android's state —
    /// failing while the site serves no assetlinks.json (its owner chose Android), passing once it does.
    @Test func anAndroidOnlyDomainShowsAndroidAloneOnEverySurface() async throws {
        try await Self.withSetup { fleet, client, db, pipeline in
            for site in ["_default", Self.host] {
                try? FileManager.default.removeItem(at: fleet.directory.appendingPathComponent("www/\(site)/.well-known/assetlinks.json"))
            }
            client.get("/domains/new")
            #expect(client.post("/domains", [("host", Self.host), ("interval", "60"), ("platforms", "android")]).status == 303)
            let id = try #require(try db.domain(host: Self.host)?.id)
            try await Self.checkDue(pipeline)
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "android-only", tokenHash: token.digest, userID: nil, role: .admin)
            func api(_ target: String) -> [String: Any] {
                let r = client.app.respond(WebRequest(method: "GET", target: target, headers: [("Authorization", "Bearer " + token.value)]))
                return (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:]
            }
            func expectEverySurface(_ state: String, _ when: String) throws {
                let page = client.get("/domains/\(id)").bodyText
                #expect(Self.from("platform-apple", in: page).contains("Not watched: this domain is watched for Android only."), "\(when)")
                let column = Self.from("platform-android", in: page)
                #expect(column.prefix(400).contains("state-\(state)"), "\(when): \(column.prefix(400))")
                for apple in ["id=\"findings\"", "id=\"locations\"", "id=\"file\"", "Apple CDN", "/.well-known/apple-app-site-association",
                              "Findings: apple-app-site-association", "Current file: apple-app-site-association"] {
                    #expect(!page.contains(apple), "\(when): no Apple content beyond 'not watched' (\(apple))")
                }
                #expect(page.contains("id=\"android\"") && page.contains("Origin: /.well-known/assetlinks.json"), "\(when): Android's details")

                let read = api("/api/v1/domains/\(id)")
                #expect(read["platforms"] as? String == "android" && read["state"] as? String == state, "\(when): \(read)")
                let side = try #require(read["android"] as? [String: Any], "\(when): the android object is there: \(read)")
                #expect(side["state"] as? String == state)
                let listed = api("/api/v1/domains?platform=android")["domains"] as? [[String: Any]] ?? []
                #expect(listed.count == 1 && listed.first?["android_state"] as? String == state && listed.first?["apple_state"] == nil,
                        "\(when): \(listed)")

                let overview = client.get("/").bodyText
                #expect(overview.contains(#"<span class="platform-line">Apple <span class="muted">not watched</span></span>"#), "\(when)")
                #expect(overview.contains(#"<span class="platform-line">Android <span class="pill state-\#(state)">"#), "\(when): \(overview)")

                let status = client.get("/domains/\(id)/status")
                let polled = (try? JSONSerialization.jsonObject(with: Data(status.body))) as? [String: Any] ?? [:]
                #expect(polled["state"] as? String == state && polled["checking"] as? Bool == false, "\(when): \(polled)")
            }
            try expectEverySurface("failing", "no assetlinks.json")
            let findings = Self.from("android-findings", in: client.get("/domains/\(id)").bodyText)
            #expect(findings.contains("<code>http-status</code>") && findings.contains("<span class=\"sev\">error</span>"), "\(findings.prefix(800))")
            #expect((api("/api/v1/domains/\(id)")["android"] as? [String: Any])?["findings"].map { "\($0)".contains("http-status") } == true)

            try Self.write(fleet, "assetlinks.json", Self.assetLinks(Self.fingerprint))
            try await Self.checkDue(pipeline)
            try expectEverySurface("passing", "the file published")
            // The sentence is Android's own, not the Apple side's "devices get a valid file".
            let sentence = client.get("/domains/\(id)").bodyText.components(separatedBy: "<span class=\"sentence\">").dropFirst().first ?? ""
            #expect(sentence.contains("All good: Android devices get a valid assetlinks.json for \(Self.host).") && !sentence.contains("valid file"),
                    "\(sentence.prefix(600))")

            // The URL tester over the API answers from the stored assetlinks.json; Apple says why it has none.
            let tested = client.app.respond(WebRequest(method: "POST", target: "/api/v1/test-url",
                headers: [("Authorization", "Bearer " + token.value), ("Content-Type", "application/json")],
                body: Array(#"{"url": "https://\#(Self.host)/p/1", "domain_id": \#(id)}"#.utf8)))
            let body = (try? JSONSerialization.jsonObject(with: Data(tested.body))) as? [String: Any] ?? [:]
            #expect(tested.status == 200, "\(body)")
            let answer = try #require(body["android"] as? [String: Any], "\(body)")
            #expect(answer["opens"] as? String == Self.package && answer["opens_before_android_15"] as? String == Self.package, "\(answer)")
            #expect((answer["source"] as? String)?.hasPrefix("the current assetlinks.json of \(Self.host)") == true)
            #expect((body["apple_error"] as? String)?.contains("no stored file") == true && body["apps"] == nil, "\(body)")
        }
    }

    @Test func theOverviewAPIAndMetricsCarryEachPlatform() async throws {
        try await Self.withSetup { _, client, db, pipeline in
            client.get("/domains/new")
            #expect(client.post("/domains", [("host", Self.host), ("interval", "60")]).status == 303)
            #expect(client.post("/domains", [("host", "apple-only.fleet.test"), ("interval", "60"), ("platforms", "apple")]).status == 303)
            try await Self.checkDue(pipeline)
            let both = try #require(try db.domain(host: Self.host)?.id)
            let overview = client.get("/").bodyText
            #expect(overview.contains("<th>Platforms</th>"))
            #expect(overview.contains(#"<span class="platform-line">Android <span class="pill state-passing">"#), "\(overview)")
            #expect(overview.contains(#"<span class="platform-line">Android <span class="muted">not watched</span></span>"#))
            #expect(overview.contains(#"<select name="platform" aria-label="Platform">"#))
            let android = client.get("/?platform=android").bodyText
            #expect(android.contains("/domains/\(both)\"") && !android.contains("apple-only.fleet.test"), "only where Android counts")
            #expect(android.contains(#"<option value="android" selected>Android</option>"#))
            #expect(client.get("/?platform=apple").bodyText.contains("apple-only.fleet.test"))

            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "platforms", tokenHash: token.digest, userID: nil, role: .admin)
            func api(_ target: String) -> [String: Any] {
                let r = client.app.respond(WebRequest(method: "GET", target: target, headers: [("Authorization", "Bearer " + token.value)]))
                return (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:]
            }
            let listed = api("/api/v1/domains?platform=android")["domains"] as? [[String: Any]] ?? []
            #expect(listed.count == 1 && listed.first?["android_state"] as? String == "passing" && listed.first?["apple_state"] as? String == "passing",
                    "\(listed)")
            let read = api("/api/v1/domains/\(both)")
            let side = try #require(read["android"] as? [String: Any], "\(read)")
            #expect(side["state"] as? String == "passing" && (side["findings"] as? [Any]) != nil)
            let google = try #require(side["google"] as? [String: Any])
            #expect(google["max_age_seconds"] as? Double == 600 && (google["error_codes"] as? [String]) == [])
            #expect(api("/api/v1/domains/apple-only.fleet.test")["android"] == nil, "not watched: no android object")

            let metrics = client.get("/metrics").bodyText
            #expect(metrics.contains("aasa_platform_domains{platform=\"apple\",verdict=\"pass\"} 2\n"), "\(metrics)")
            #expect(metrics.contains("aasa_platform_domains{platform=\"android\",verdict=\"pass\"} 1\n"))
        }
    }

    @Test func expectedAndroidAppsAreEditedOnTheDomainsFormAndJudged() async throws {
        try await Self.withSetup { _, client, db, pipeline in
            client.get("/domains/new")
            let refused = client.post("/domains", [("host", Self.host), ("interval", "60"), ("package", "com"), ("fingerprints", "AB:CD")])
            #expect(refused.status == 422)
            #expect(refused.bodyText.contains("id=\"err-package.0\"") && refused.bodyText.contains("id=\"err-fingerprints.0\""))
            #expect(refused.bodyText.contains("value=\"AB:CD\""), "what was typed is kept")
            // A second key the file does not grant: the domain must fail for Android, naming it.
            let rotated = "cc:" + Array(repeating: "33", count: 31).joined(separator: ":")
            #expect(client.post("/domains", [("host", Self.host), ("interval", "60"), ("package", Self.package),
                                             ("fingerprints", rotated)]).status == 303)
            let id = try #require(try db.domain(host: Self.host)?.id)
            #expect(try db.androidAppExpectations(domainID: id).map(\.fingerprints) == [[rotated.uppercased()]], "stored in the one form")
            #expect(try db.androidExpectations(domainIDs: [id]).map(\.app.packageName) == [Self.package], "the scheduler reads it")
            try await Self.checkDue(pipeline)
            let page = client.get("/domains/\(id)").bodyText
            let identities = Self.from("android-identities", in: page)
            #expect(identities.contains("<code>\(rotated.uppercased())</code> <span class=\"expect-fails\">✗ missing</span>"), "\(identities.prefix(800))")
            #expect(try db.domain(id: id)?.lastVerdict == .fail)
            let edit = client.get("/domains/\(id)/edit").bodyText
            #expect(edit.contains("value=\"\(Self.package)\"") && edit.contains("value=\"\(rotated.uppercased())\""))
            // The right key instead: saved from the edit form, judged at the next check.
            #expect(client.post("/domains/\(id)/edit", [("interval", "60"), ("package", Self.package), ("fingerprints", Self.fingerprint)]).status == 303)
            try await Self.checkDue(pipeline)
            let fixed = try db.domain(id: id)
            #expect(fixed?.lastVerdict == .pass, "\(fixed?.lastReason?.line ?? "")")
            // The file grants only the key marked as the upload key: named as the Play App Signing mistake.
            #expect(client.post("/domains/\(id)/edit", [("interval", "60"), ("package", Self.package),
                                                        ("fingerprints", "\(rotated) \(Self.fingerprint.lowercased())=upload")]).status == 303)
            #expect(try db.androidAppExpectations(domainID: id).first?.uploadKeys == [Self.fingerprint])
            #expect(client.get("/domains/\(id)/edit").bodyText.contains("\(Self.fingerprint)=upload"), "the form shows the mark back")
            try await Self.checkDue(pipeline)
            let latestAndroid = try #require(try db.domain(id: id)?.lastCheckID.flatMap { try db.check(id: $0) }?.android)
            #expect(latestAndroid.findings.contains { $0.code == "fingerprint-upload-key-only" }, "\(latestAndroid.findings.map(\.code))")
            // Left empty: removed.
            #expect(client.post("/domains/\(id)/edit", [("interval", "60"), ("package", ""), ("fingerprints", "")]).status == 303)
            #expect(try db.androidAppExpectations(domainID: id).isEmpty)
        }
    }

    /// The timeline shows Android's events beside Apple's, on the page and in the API's checks list:
    /// assetlinks.json first served, changed, gone; Android's state moving; findings appearing and
    /// clearing; Google's verdict changing.
    @Test func theTimelineShowsAndroidsEvents() async throws {
        try await Self.withSetup { fleet, client, db, pipeline in
            client.get("/domains/new")
            #expect(client.post("/domains", [("host", Self.host), ("interval", "60"), ("platforms", "both")]).status == 303)
            let id = try #require(try db.domain(host: Self.host)?.id)
            try await Self.checkDue(pipeline)
            try Self.write(fleet, "assetlinks.json", Self.assetLinks(Self.fingerprint.lowercased()))
            try await Self.checkDue(pipeline)
            for site in ["_default", Self.host] {
                try FileManager.default.removeItem(at: fleet.directory.appendingPathComponent("www/\(site)/.well-known/assetlinks.json"))
            }
            try await Self.checkDue(pipeline)
            let timeline = Self.from("timeline", in: client.get("/domains/\(id)").bodyText)
            for line in ["Android: new assetlinks.json ", "Android: passing → failing", "Google&#39;s verdict: linked → ERROR_CODE_MALFORMED_CONTENT",
                         "Android: assetlinks.json no longer served"] {
                #expect(timeline.contains("<li>" + line), "\(line): \(timeline.prefix(3000))")
            }
            // The findings' lines name every code that came or went; the broken fingerprint's among them.
            let lines = timeline.components(separatedBy: "<li>")
            #expect(lines.contains { $0.hasPrefix("Android: new finding") && $0.contains("fingerprint-lowercase") }, "\(timeline.prefix(3000))")
            #expect(lines.contains { $0.hasPrefix("Android: cleared ") && $0.contains("fingerprint-lowercase") }, "\(timeline.prefix(3000))")

            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "timeline", tokenHash: token.digest, userID: nil, role: .admin)
            let r = client.app.respond(WebRequest(method: "GET", target: "/api/v1/domains/\(id)/checks?changes=true",
                                                  headers: [("Authorization", "Bearer " + token.value)]))
            let checks = ((try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any])?["checks"] as? [[String: Any]] ?? []
            #expect(checks.count == 3, "\(checks)")
            let events = checks.map { $0["android_events"] as? [String] ?? [] }
            #expect(events.first?.contains("Android: assetlinks.json no longer served") == true, "newest first: \(events)")
            #expect(events.dropFirst().first?.contains("Android: passing → failing") == true, "\(events)")
            #expect(checks.last?["android_version"] is String && checks.first?["android_version"] == nil, "\(checks)")
        }
    }

    /// Each platform's state counts that platform's unmet expectations, alike on every surface (the
    /// domain page's column, the overview's, the API's list and detail, `status` and the badge): an
    /// app ID missing from a valid AASA fails Apple, not Android; a watched URL that opens the app on
    /// Android where it must not fails Android, not Apple. Measured by the check and again at once by
    /// an edit (re-measured with no fetch).
    @Test func eachPlatformsStateCountsItsOwnUnmetExpectationsOnEverySurface() async throws {
        try await Self.withSetup { _, client, db, pipeline in
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "states", tokenHash: token.digest, userID: nil, role: .admin)
            func api(_ target: String) -> [String: Any] {
                let r = client.app.respond(WebRequest(method: "GET", target: target, headers: [("Authorization", "Bearer " + token.value)]))
                return (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:]
            }
            func expectStates(apple: String, android: String, _ when: String) throws {
                let id = try #require(try db.domain(host: Self.host)?.id)
                #expect(try db.domain(id: id)?.lastVerdict == .fail, "\(when): the domain fails overall")
                let page = client.get("/domains/\(id)").bodyText
                #expect(Self.from("platform-apple", in: page).prefix(300).contains("state-\(apple)"), "\(when): \(Self.from("platform-apple", in: page).prefix(300))")
                #expect(Self.from("platform-android", in: page).prefix(300).contains("state-\(android)"), "\(when)")
                let overview = client.get("/").bodyText
                #expect(overview.contains(#"<span class="platform-line">Apple <span class="pill state-\#(apple)">"#), "\(when)")
                #expect(overview.contains(#"<span class="platform-line">Android <span class="pill state-\#(android)">"#), "\(when)")
                let listed = api("/api/v1/domains")["domains"] as? [[String: Any]] ?? []
                #expect(listed.first?["apple_state"] as? String == apple && listed.first?["android_state"] as? String == android, "\(when): \(listed)")
                #expect((api("/api/v1/domains/\(id)")["android"] as? [String: Any])?["state"] as? String == android, "\(when)")
                let status = try #require(try db.domainStatuses().first)
                #expect(status.apple?.rawValue == apple && status.android?.rawValue == android && status.state == .failing, "\(when): \(status)")
                #expect(client.get("/badge/\(Self.host).svg?platform=apple").bodyText.contains("<title>AASA: \(apple)</title>"), "\(when)")
                #expect(client.get("/badge/\(Self.host).svg?platform=android").bodyText.contains("<title>assetlinks: \(android)</title>"), "\(when)")
            }
            client.get("/domains/new")
            // Apple's file is valid and lists ABCDE12345.shop; the domain expects another app too.
            #expect(client.post("/domains", [("host", Self.host), ("interval", "60"), ("badge", "on"), ("platforms", "both"),
                                             ("appid", "ABCDE12345.shop"), ("service", "applinks"),
                                             ("appid", "ABCDE12345.missing"), ("service", "applinks")]).status == 303)
            let id = try #require(try db.domain(host: Self.host)?.id)
            try await Self.checkDue(pipeline)
            try expectStates(apple: "failing", android: "passing", "an app ID missing, by the check")

            // The app ID dropped; a watched URL that opens the app on Apple as expected, but must stay in
            // the browser on Android (stated apart), where the file grants the package every URL.
            client.get("/domains/\(id)/edit")
            #expect(client.post("/domains/\(id)/edit", [("interval", "60"), ("badge", "on"), ("platforms", "both"),
                                                        ("appid", "ABCDE12345.shop"), ("service", "applinks"),
                                                        ("url", "https://\(Self.host)/p/1"), ("expect", "ABCDE12345.shop"),
                                                        ("android_expect", "nothing")]).status == 303)
            try expectStates(apple: "passing", android: "failing", "a watched URL unmet on Android, by the edit")
            // The sentence says what fails, on Android, rather than Apple's words for a broken file.
            let sentence = client.get("/domains/\(id)").bodyText.components(separatedBy: "<span class=\"sentence\">").dropFirst().first ?? ""
            #expect(sentence.contains("Android devices get a valid assetlinks.json for \(Self.host), but not what you expect: watched URL https://\(Self.host)/p/1 opens \(Self.package)"),
                    "\(sentence.prefix(2000))")
            #expect(!sentence.contains("Devices cannot use this file"))
            try await Self.checkDue(pipeline)
            try expectStates(apple: "passing", android: "failing", "a watched URL unmet on Android, by the check")
        }
    }

    /// The badge covers both platforms (the worse decides, labelled for what is watched) or one with
    /// `?platform=`; the expectations card shows each watched URL's Android outcome, stated apart or
    /// derived, with the latest check's verdict, and the domain's own Android apps.
    @Test func theBadgeAndTheExpectationsCardCoverAndroid() async throws {
        try await Self.withSetup { _, client, db, pipeline in
            client.get("/domains/new")
            // Apple's file passes; the expected Android key is not the one the file grants.
            let rotated = "CC:" + Array(repeating: "33", count: 31).joined(separator: ":")
            #expect(client.post("/domains", [("host", Self.host), ("interval", "60"), ("badge", "on"), ("platforms", "both"),
                                             ("url", "https://\(Self.host)/p/1"), ("expect", "browser"), ("android_expect", Self.package),
                                             ("url", "https://\(Self.host)/help"), ("expect", "browser"), ("android_expect", ""),
                                             ("package", Self.package), ("fingerprints", rotated)]).status == 303)
            let id = try #require(try db.domain(host: Self.host)?.id)
            #expect(client.get("/badge/\(Self.host).svg?platform=android").bodyText.contains("assetlinks: pending"), "before the first check")
            try await Self.checkDue(pipeline)
            #expect(try db.domain(id: id)?.lastVerdict == .fail)

            let both = client.get("/badge/\(Self.host).svg")
            #expect(both.status == 200 && both.bodyText.contains("<title>app links: failing</title>"), "\(both.bodyText)")
            // Apple's file is valid, but /p/1 and /help open ABCDE12345.shop there where they must stay in the
            // browser: Apple's state fails too (its unmet expectations count, as the domain's state does).
            #expect(client.get("/badge/\(Self.host).svg?platform=apple").bodyText.contains("<title>AASA: failing</title>"))
            #expect(client.get("/badge/\(Self.host).svg?platform=android").bodyText.contains("<title>assetlinks: failing</title>"))
            #expect(client.get("/badge/\(Self.host).svg?platform=ios").status == 400)

            // The card: /p/1 must open the package on Android (stated apart), and does not — the key
            // expected is not granted; /help stays in the browser as on Apple (derived), and does.
            let card = Self.from("expectations", in: client.get("/domains/\(id)").bodyText)
            func entry(_ path: String) -> String {
                card.range(of: path + "</code>").map { String(card[$0.upperBound...].prefix { $0 != "\n" }) }.map { String($0.prefix(upTo: $0.range(of: "</dd>")?.lowerBound ?? $0.endIndex)) } ?? ""
            }
            #expect(entry("/p/1").hasSuffix("<br><span class=\"android-expect\">Android 15+: opens \(Self.package)</span> <span class=\"expect-fails\">✗ it stays in the browser</span>"),
                    "\(card.prefix(1500))")
            #expect(entry("/help").hasSuffix("<br><span class=\"android-expect\">Android 15+: stays in the browser (as on Apple)</span> <span class=\"expect-holds\">✓ holds</span>"),
                    "\(card.prefix(1500))")
            #expect(card.contains("<dt>Android app</dt><dd><span class=\"mono\">\(Self.package)</span> <span class=\"muted\">1 signing key</span>"))

            // Watched for Apple only: no Android badge, and the default badge is Apple's alone.
            client.get("/domains/\(id)/edit")
            #expect(client.post("/domains/\(id)/edit", [("interval", "60"), ("badge", "on"), ("platforms", "apple")]).status == 303)
            #expect(client.get("/badge/\(Self.host).svg?platform=android").status == 404)
            #expect(client.get("/badge/\(Self.host).svg").bodyText.contains("<title>AASA: passing</title>"), "the edit left no watched URL")
            #expect(!Self.from("expectations", in: client.get("/domains/\(id)").bodyText).contains("Android 15+"))
        }
    }
}
