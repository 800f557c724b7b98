import Foundation
import Monitor
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Web

/// The seams issue #29 found between Apple's and Android's halves, each through the surface where a
/// user saw it: real PostgreSQL, the HTTPS test fleet and the real check pipeline where a check
/// decides (`PlatformPageTests`' setup), the pages through the app's request handler.
@Suite(.serialized) struct PlatformSeamTests {
    static let appID = "ABCDE12345.shop"
    /// Apple's file opens /shop/… only.
    static let aasa = #"{"applinks": {"details": [{"appIDs": ["\#(appID)"], "components": [{"/": "/shop/*"}]}]}}"#

    /// The text a person reads (tags dropped, entities left as they are).
    static func text(_ html: some StringProtocol) -> String {
        var out = "", inTag = false
        for c in html {
            if c == "<" { inTag = true } else if c == ">" { inTag = false } else if !inTag { out.append(c) }
        }
        return out
    }

    /// The app page's row of a domain, up to its end.
    static func row(_ page: String, domainID: Int64) -> String {
        guard let start = page.range(of: "href=\"/domains/\(domainID)\"") else { return "" }
        let from = page[start.upperBound...]
        return from.range(of: "</tr>").map { String(from[..<$0.lowerBound]) } ?? String(from)
    }

    static func json(_ response: WebResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    /// An app whose watched URL the file does not open: the domain page, the API and the app page's
    /// Apple cell all say failing, in the same words — for a host and for a `*.` registration (on
    /// 2583ff2 the cell said Passing, and its words differed from the domain's). The API's single
    /// object carries the list item's fields with the same values.
    @Test func theAppPageCellSaysWhatTheDomainSays() async throws {
        try await PlatformPageTests.withSetup { fleet, client, db, pipeline in
            try PlatformPageTests.write(fleet, "apple-app-site-association", Self.aasa)
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "seams", tokenHash: token.digest, userID: nil, role: .admin)
            func api(_ target: String) -> [String: Any] {
                Self.json(app.respond(WebRequest(method: "GET", target: target, headers: [("Authorization", "Bearer " + token.value)])))
            }

            client.get("/apps/new")
            let created = client.post("/apps", [("name", "Seams"), ("apple_app_ids", Self.appID),
                                                ("apple_domains", "applinks:seam.fleet.test\napplinks:*.seamwild.fleet.test"),
                                                ("watched_urls", "https://seam.fleet.test/account\nhttps://a.seamwild.fleet.test/account")])
            #expect(created.status == 303, "\(created.bodyText)")
            let appRecord = try #require(try db.app(name: "Seams"))
            let plain = try #require(try db.domainID(host: "seam.fleet.test", wildcard: false))
            let wild = try #require(try db.domainID(host: "seamwild.fleet.test", wildcard: true))
            try await PlatformPageTests.checkDue(pipeline)

            let appPage = client.get("/apps/\(appRecord.id)").bodyText
            let listed = (api("/api/v1/domains")["domains"] as? [[String: Any]]) ?? []
            for (id, url) in [(plain, "https://seam.fleet.test/account"), (wild, "https://a.seamwild.fleet.test/account")] {
                let reason = "Watched URL \(url) does not open \(Self.appID): it stays in the browser."
                let single = api("/api/v1/domains/\(id)")
                #expect(single["state"] as? String == "failing" && single["apple_state"] as? String == "failing", "\(single)")
                #expect(single["reason"] as? String == reason, "\(single)")
                let page = client.get("/domains/\(id)").bodyText
                #expect(PlatformPageTests.from("platform-apple", in: page).prefix(300).contains("state-failing"))
                #expect(page.contains(reason), "the domain page says why")

                let cells = Self.row(appPage, domainID: id)
                #expect(cells.contains(#"data-platform="apple" data-service="applinks" data-state="failing""#), "\(cells)")
                #expect(cells.contains("<span class=\"reason\">\(reason)</span>"), "the cell in the domain's words: \(cells)")

                // The list's item and the single object: the same fields, the same values.
                let item = try #require(listed.first { ($0["id"] as? Int64 ?? ($0["id"] as? Int).map(Int64.init)) == id })
                let missing = Set(item.keys).subtracting(single.keys)
                #expect(missing.isEmpty, "the single object lacks \(missing.sorted())")
                for key in item.keys where single[key] != nil {
                    #expect("\(item[key] ?? "")" == "\(single[key] ?? "")", "\(key): list \(item[key] ?? "") single \(single[key] ?? "")")
                }
            }
        }
    }

    /// An AndroidManifest.xml's paths are Android's expectation only: an app whose iOS and Android
    /// paths differ leaves its domain passing on Apple, and the app page says the path is not judged
    /// there (on 2583ff2 the manifest's path became an Apple watched URL and the domain failed).
    @Test func aManifestsPathsAreAndroidsOnly() async throws {
        try await PlatformPageTests.withSetup { fleet, client, db, pipeline in
            try PlatformPageTests.write(fleet, "apple-app-site-association", Self.aasa)
            let manifest = """
                <?xml version="1.0" encoding="utf-8"?>
                <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="\(PlatformPageTests.package)">
                    <application>
                        <activity android:name=".Main" android:exported="true">
                            <intent-filter android:autoVerify="true">
                                <action android:name="android.intent.action.VIEW" />
                                <category android:name="android.intent.category.DEFAULT" />
                                <category android:name="android.intent.category.BROWSABLE" />
                                <data android:scheme="https" android:host="\(PlatformPageTests.host)" />
                                <data android:pathPrefix="/android/" />
                            </intent-filter>
                        </activity>
                    </application>
                </manifest>
                """
            client.get("/apps/new")
            let fields = [("name", "Both"), ("apple_app_ids", Self.appID), ("apple_domains", "applinks:\(PlatformPageTests.host)"),
                          ("fingerprints", PlatformPageTests.fingerprint), ("manifest", manifest)]
            let preview = client.post("/apps/preview", fields).bodyText
            #expect(preview.contains("https://\(PlatformPageTests.host)/android/ (Android only)"), "\(preview)")
            #expect(client.post("/apps", fields).status == 303)
            let appRecord = try #require(try db.app(name: "Both"))
            let id = try #require(try db.domainID(host: PlatformPageTests.host, wildcard: false))
            #expect(try db.watchedURLs(domainID: id).isEmpty, "no Apple expectation from the manifest")
            try await PlatformPageTests.checkDue(pipeline)

            let domain = try #require(try db.domain(id: id))
            #expect(try db.platformVerdicts(domainID: id).apple == .pass, "\(domain.lastReason?.line ?? "")")
            let page = client.get("/apps/\(appRecord.id)").bodyText
            let watched = PlatformPageTests.from("app-watched", in: page)
            #expect(watched.contains("not judged: watched on Android only"), "\(watched.prefix(800))")
            #expect(Self.row(page, domainID: id).contains(#"data-platform="apple" data-service="applinks" data-state="passing""#))

            // The edit form gives it back as Android's, and saving the form keeps it there.
            let form = client.get("/apps/\(appRecord.id)/edit").bodyText
            let androidOnly = PlatformPageTests.from("android_watched_urls\" name=", in: form)
            #expect(androidOnly.contains(">https://\(PlatformPageTests.host)/android/</textarea>"), "\(androidOnly.prefix(400))")
            #expect(try db.appWatchedURLs(appID: appRecord.id).map(\.platforms) == [.android])
        }
    }

    static func manifest(path: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.shop">
            <application><activity android:name=".Main" android:exported="true">
                <intent-filter android:autoVerify="true">
                    <action android:name="android.intent.action.VIEW" />
                    <category android:name="android.intent.category.DEFAULT" />
                    <category android:name="android.intent.category.BROWSABLE" />
                    <data android:scheme="https" android:host="shop.example" />
                    <data android:pathPrefix="\(path)" />
                </intent-filter>
            </activity></application>
        </manifest>
        """
    }

    /// Over the API: a manifest's paths come back as `android_watched_urls`, and a PATCH with a new
    /// manifest replaces them, as it replaces the Android hosts.
    @Test func theAPIKeepsAManifestsPathsAsAndroidsAndANewManifestReplacesThem() throws {
        try APITests().withAPI { api, db in
            func body(_ members: [String: Any]) -> String {
                String(decoding: (try? JSONSerialization.data(withJSONObject: members)) ?? Data(), as: UTF8.self)
            }
            let created = api.call("POST", "/api/v1/apps", json: body(["name": "Shop", "android_package": "com.example.shop",
                "fingerprints": [["fingerprint": PlatformPageTests.fingerprint]], "watched_urls": ["https://shop.example/both"],
                "manifest": Self.manifest(path: "/old/")]))
            #expect(created.status == 201, "\(created.body)")
            let id = try #require(try db.app(name: "Shop")?.id)
            #expect(try db.appWatchedURLs(appID: id).map { "\($0.url) \($0.platforms)" }
                    == ["https://shop.example/both both", "https://shop.example/old/ android"])
            let preview = api.call("PATCH", "/api/v1/apps/\(id)", json: body(["manifest": Self.manifest(path: "/new/"), "preview": true]))
            #expect(preview.body["android_watched_urls"] as? [String] == ["https://shop.example/new/"], "\(preview.body)")
            #expect(preview.body["watched_urls"] as? [String] == ["https://shop.example/both"])
            #expect(api.call("PATCH", "/api/v1/apps/\(id)", json: body(["manifest": Self.manifest(path: "/new/")])).status == 200)
            #expect(try db.appWatchedURLs(appID: id).map { "\($0.url) \($0.platforms)" }
                    == ["https://shop.example/both both", "https://shop.example/new/ android"])
        }
    }

    /// The overview's platforms cell reads as two lines, also as text ("Apple not watched Android …",
    /// never "Apple not watchedAndroid"), and a domain never checked says so for Android too (on
    /// 2583ff2: "Android no file").
    @Test func theOverviewsPlatformLinesReadApart() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            client.get("/domains/new")
            #expect(client.post("/domains", [("host", "fresh.example"), ("interval", "60"), ("platforms", "both")]).status == 303)
            #expect(client.post("/domains", [("host", "apple-only.example"), ("interval", "60"), ("platforms", "apple")]).status == 303)
            let overview = client.get("/").bodyText
            let cells = overview.components(separatedBy: "<td class=\"platforms\" data-label=\"Platforms\">").dropFirst().map { cell in
                Self.text(cell.components(separatedBy: "</td>").first ?? "")
            }
            #expect(cells.count == 2, "\(overview)")
            #expect(cells.contains("Apple not checked Android not checked"), "never checked on either: \(cells)")
            #expect(cells.contains("Apple not checked Android not watched"), "\(cells)")
        }
    }

    /// Android "Not watched" (both platforms, the site serves no assetlinks.json, no Android app
    /// expected) has no timeline entries, on the page or in the API's checks (on 2583ff2 the first
    /// check listed the missing file's findings).
    @Test func anUnwatchedPlatformHasNoTimelineEntries() async throws {
        try await PlatformPageTests.withSetup { fleet, client, db, pipeline in
            for site in ["_default", PlatformPageTests.host] {
                try FileManager.default.removeItem(at: fleet.directory.appendingPathComponent("www/\(site)/.well-known/assetlinks.json"))
            }
            client.get("/domains/new")
            #expect(client.post("/domains", [("host", PlatformPageTests.host), ("interval", "60"), ("platforms", "both")]).status == 303)
            let id = try #require(try db.domain(host: PlatformPageTests.host)?.id)
            try await PlatformPageTests.checkDue(pipeline)
            try PlatformPageTests.write(fleet, "apple-app-site-association", Self.aasa)
            try await PlatformPageTests.checkDue(pipeline)

            let page = client.get("/domains/\(id)").bodyText
            #expect(PlatformPageTests.from("platform-android", in: page).prefix(400).contains("Not watched"))
            let timeline = PlatformPageTests.from("timeline", in: page)
            #expect(timeline.contains("data-check") || timeline.contains("<li"), "the timeline has its Apple entries: \(timeline.prefix(1500))")
            #expect(!timeline.contains("Android:") && !timeline.contains("Google&#39;s verdict"), "\(timeline.prefix(3000))")

            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "timeline", tokenHash: token.digest, userID: nil, role: .admin)
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let checks = Self.json(app.respond(WebRequest(method: "GET", target: "/api/v1/domains/\(id)/checks",
                                                          headers: [("Authorization", "Bearer " + token.value)])))["checks"] as? [[String: Any]] ?? []
            #expect(checks.count == 2, "\(checks)")
            #expect(checks.allSatisfy { ($0["android_events"] as? [String] ?? []).isEmpty }, "\(checks)")
        }
    }

    /// The app preview names an Android link for what it is (on 2583ff2: "Universal links (applinks)").
    @Test func thePreviewLabelsAndroidLinksAsAppLinks() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            client.get("/apps/new")
            let preview = client.post("/apps/preview", [("android_package", "com.example.shop"), ("android_hosts", "shop.example"),
                                                        ("fingerprints", PlatformPageTests.fingerprint)])
            #expect(preview.status == 200, "\(preview.bodyText)")
            let domains = PlatformPageTests.from("plan-domains", in: preview.bodyText)
            #expect(domains.contains("<li>Android · App Links (handle_all_urls)</li>"), "\(domains.prefix(800))")
            #expect(!domains.contains("Universal links"), "\(domains.prefix(800))")
        }
    }
}
