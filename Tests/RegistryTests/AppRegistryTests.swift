import AppManifests
import Foundation
import Registry
import Store
import Testing
import TestSupport
import Vocabulary

/// Apps through the one way in, on a real PostgreSQL: the import's plan writes nothing, the write is
/// all or nothing, and an app's expectations land on (and leave) its domains.
@Suite struct AppRegistryTests {
    static let app = "ABCDE12345.com.example.shop"
    static let staging = "ABCDE12345.com.example.shop.staging"
    static let playKey = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    /// As Xcode writes it, with the app ID a signed build carries.
    static func entitlements(_ domains: [String], appID: String? = app) -> [UInt8] {
        let id = appID.map { "\t<key>application-identifier</key>\n\t<string>\($0)</string>\n" } ?? ""
        return Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>com.apple.developer.associated-domains</key>
            \t<array>
            \(domains.map { "\t\t<string>\($0)</string>" }.joined(separator: "\n"))
            \t</array>
            \(id)</dict>
            </plist>

            """.utf8)
    }

    static let manifest = Array("""
        <?xml version="1.0" encoding="utf-8"?>
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.shop">
            <application>
                <activity android:name=".Main" android:exported="true">
                    <intent-filter android:autoVerify="true">
                        <action android:name="android.intent.action.VIEW" />
                        <category android:name="android.intent.category.DEFAULT" />
                        <category android:name="android.intent.category.BROWSABLE" />
                        <data android:scheme="https" android:host="shop.example" />
                        <data android:pathPrefix="/products/" />
                    </intent-filter>
                    <intent-filter>
                        <action android:name="android.intent.action.VIEW" />
                        <category android:name="android.intent.category.DEFAULT" />
                        <category android:name="android.intent.category.BROWSABLE" />
                        <data android:scheme="https" android:host="promo.example" />
                    </intent-filter>
                </activity>
            </application>
        </manifest>
        """.utf8)

    static func counts(_ db: Database) throws -> [Int] {
        try ["apps", "app_links", "app_apple_ids", "domains", "expected_app_ids", "watched_urls", "app_watched_urls"].map { table in
            switch table {
            case "apps": try db.value("SELECT count(*)::int FROM apps")
            case "app_links": try db.value("SELECT count(*)::int FROM app_links")
            case "app_apple_ids": try db.value("SELECT count(*)::int FROM app_apple_ids")
            case "domains": try db.value("SELECT count(*)::int FROM domains")
            case "expected_app_ids": try db.value("SELECT count(*)::int FROM expected_app_ids")
            case "watched_urls": try db.value("SELECT count(*)::int FROM watched_urls")
            default: try db.value("SELECT count(*)::int FROM app_watched_urls")
            }
        }
    }

    @Test func importPlansEverythingBeforeWritingAnything() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = AppRegistry(store: db)
            _ = try DomainRegistry(store: db).register(Registration(host: "shop.example", intervalMinutes: 60))
            let file = Self.entitlements(["applinks:shop.example", "applinks:*.shop.example", "webcredentials:shop.example",
                                          "applinks:dev.shop.example?mode=developer", "applinks:mdm.shop.example?mode=managed",
                                          "authsrv:shop.example"])
            let plan = try registry.plan(AppRegistration(appleAppIDs: [Self.staging], fingerprints: [.init(fingerprint: Self.playKey.lowercased())]),
                                         entitlements: file, manifest: Self.manifest)
            #expect(try Self.counts(db) == [0, 0, 0, 1, 0, 0, 0], "a plan writes nothing")
            #expect(plan.draft.name == "com.example.shop.staging")
            #expect(plan.draft.appleAppIDs == [Self.staging, Self.app], "typed first, then the file's")
            #expect(plan.draft.androidPackage == "com.example.shop", "from the manifest")
            #expect(plan.draft.fingerprints == [AppFingerprint(fingerprint: Self.playKey, role: .appSigning)])
            #expect(plan.domains.map(\.displayHost) == ["shop.example", "*.shop.example", "dev.shop.example", "mdm.shop.example"])
            #expect(plan.domains.map(\.isNew) == [false, true, true, true])
            #expect(plan.domains[0].links.map { "\($0.platform):\($0.service)" } == ["apple:applinks", "apple:webcredentials", "android:applinks"])
            #expect(plan.domains[2].links.map(\.developerMode) == [true])
            #expect(plan.domains[3].links.map(\.managedMode) == [true])
            #expect(plan.draft.watchedURLs.map(\.url) == ["https://shop.example/products/"])
            #expect(plan.draft.watchedURLs.map(\.platforms) == [.android], "a manifest's path is Android's expectation only (issue #29)")
            #expect(plan.ignored.contains { $0.hasPrefix("authsrv:shop.example") })
            #expect(plan.ignored.contains { $0.hasPrefix("promo.example: its intent filter has no android:autoVerify") })

            let id = try registry.register(plan)
            #expect(try Self.counts(db) == [1, 6, 2, 4, 10, 0, 1], "the manifest's path puts no Apple expectation on the domain")
            let shop = try #require(try db.domainID(host: "shop.example", wildcard: false))
            #expect(Set(try db.appIDExpectations(domainID: shop)) == Set([Service.applinks, .webcredentials].flatMap { s in
                [Self.app, Self.staging].map { AppIDExpectation(service: s, appID: $0) } }))
            #expect(try db.watchedURLs(domainID: shop).isEmpty, "not judged on Apple (issue #29)")
            #expect(try db.appWatchedURLs(appID: id) == [AppWatchedURLRecord(url: "https://shop.example/products/", domainID: shop, platforms: .android)])
            #expect(try db.androidExpectations(domainIDs: [shop]).first?.watchedURLs == ["https://shop.example/products/"], "Android's expectation")
            #expect(try registry.registration(appID: id)?.androidWatchedURLs == ["https://shop.example/products/"], "the edit form gets it back as Android's")
            let wildcard = try #require(try db.domainID(host: "shop.example", wildcard: true))
            #expect(try db.domain(id: wildcard)?.checkRequestedAt != nil, "a new domain's first check is requested")
            #expect(try db.app(id: id)?.platforms == [.apple, .android])
            #expect(try db.appNames(domainID: shop) == ["com.example.shop.staging"])
            #expect(throws: AppRegistrationError.nameTaken(id: id, name: "com.example.shop.staging")) { try registry.register(plan) }
        }
    }

    @Test func aRefusedFileNamesTheLineAndWritesNothing() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = AppRegistry(store: db)
            let file = Self.entitlements(["applinks:ok.example", "applinks:ok.example:8443", "applinks:https://x.example"])
            do {
                _ = try registry.register(AppRegistration(), entitlements: file)
                Issue.record("a port and a scheme must be refused")
            } catch let error as AppRegistrationError {
                #expect(error.problems.map(\.field) == [.entitlementsFile(line: 8), .entitlementsFile(line: 9)])
                #expect(error.problems[0].description.hasPrefix("line 8: "))
            }
            let typed = AppRegistration(appleAppIDs: ["abcde12345.x"], androidPackage: "shop", fingerprints: [.init(fingerprint: "AB:CD")],
                                        appleDomains: ["applinks:ok.example", "", "applinks:10.0.0.1"], androidHosts: ["bad host"],
                                        watchedURLs: ["https://elsewhere.example/"])
            do {
                _ = try registry.register(typed)
                Issue.record("every field is wrong")
            } catch let error as AppRegistrationError {
                #expect(Set(error.problems.map(\.field)) == [.appleAppID(0), .appleDomains(line: 3), .androidPackage, .androidHost(0),
                                                              .fingerprint(0), .watchedURL(0)])
            }
            #expect(try Self.counts(db) == [0, 0, 0, 0, 0, 0, 0])
            // A project's entitlements file carries no app ID until Xcode signs the app.
            #expect(throws: AppRegistrationError.invalid([AppProblem(.appleAppID(0),
                "The app claims Apple domains but names no app ID (an .entitlements file in a project has none until Xcode signs the app): write TEAMID.bundle.id.")])) {
                try registry.plan(AppRegistration(), entitlements: Self.entitlements(["applinks:ok.example"], appID: nil))
            }
        }
    }

    /// The transaction, not the validation, keeps a failure half-way from leaving anything: the
    /// second domain breaks the domains table's own rule after the app and the first domain were written.
    @Test func aFailureHalfWayWritesNothing() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let good = AppDomainKey(host: "good.example", displayName: "good.example", wildcard: false)
            let bad = AppDomainKey(host: "Bad_Host", displayName: "Bad_Host", wildcard: false)
            let draft = AppDraft(name: "Shop", appleAppIDs: [Self.app],
                                 links: [AppLinkDraft(domain: good, platform: .apple, service: .applinks),
                                         AppLinkDraft(domain: bad, platform: .apple, service: .applinks)])
            #expect(throws: DatabaseError.self) { try db.createApp(draft, intervalSeconds: 3600) }
            #expect(try Self.counts(db) == [0, 0, 0, 0, 0, 0, 0])
        }
    }

    @Test func binaryPlistsAndDeletionTakeBackOnlyTheAppsExpectations() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = AppRegistry(store: db)
            let binary = try PropertyListSerialization.data(fromPropertyList: [
                "com.apple.developer.associated-domains": ["applinks:shared.example", "webcredentials:shared.example"],
                "application-identifier": Self.app,
            ] as [String: Any], format: .binary, options: 0)
            let shop = try registry.register(AppRegistration(name: "Shop"), entitlements: Array(binary))
            let other = try registry.register(AppRegistration(name: "Shop again", appleAppIDs: [Self.app, Self.staging],
                                                              appleDomains: ["applinks:shared.example"]))
            let shared = try #require(try db.domainID(host: "shared.example", wildcard: false))
            #expect(try db.appIDExpectations(domainID: shared).count == 3)
            #expect(try registry.delete(appID: shop))
            // Shop's webcredentials expectation goes; the applinks one stays, since the other app puts it too.
            #expect(Set(try db.appIDExpectations(domainID: shared)) == [AppIDExpectation(service: .applinks, appID: Self.app),
                                                                        AppIDExpectation(service: .applinks, appID: Self.staging)])
            try registry.edit(appID: other, AppRegistration(name: "Shop again", androidPackage: "com.example.shop", androidHosts: ["shared.example"]))
            #expect(try db.appIDExpectations(domainID: shared).isEmpty, "no Apple link left")
            #expect(try db.appLinks(appID: other).map { "\($0.platform)" } == ["android"])
            #expect(try db.domainID(host: "shared.example", wildcard: false) == shared, "the domain stays registered")
            #expect(throws: AppRegistrationError.noSuchApp) { try registry.edit(appID: shop, AppRegistration(name: "x", appleAppIDs: [Self.app],
                                                                                                         appleDomains: ["applinks:a.example"])) }
        }
    }

    /// The edit form and PATCH start from the stored app written back as typed entries: planning
    /// them again gives the same app, and an edit's plan writes nothing and names what it drops.
    @Test func anAppReadsBackAsItsEntriesAndAnEditIsPlannedBeforeItIsWritten() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = AppRegistry(store: db)
            let fingerprint = String(repeating: "AB:", count: 31) + "AB"
            let id = try registry.register(AppRegistration(
                name: "Shop", appleAppIDs: [Self.app, Self.staging], androidPackage: "com.example.shop",
                fingerprints: [.init(fingerprint: fingerprint, role: "upload")],
                appleDomains: ["applinks:shop.example", "webcredentials:*.shop.example?mode=developer", "applinks:old.example"],
                androidHosts: ["shop.example"], watchedURLs: ["https://shop.example/p/1"]))
            let stored = try #require(try registry.registration(appID: id))
            #expect(stored.appleAppIDs == [Self.app, Self.staging] && stored.androidPackage == "com.example.shop")
            #expect(Set(stored.appleDomains) == ["applinks:shop.example", "webcredentials:*.shop.example?mode=developer", "applinks:old.example"])
            #expect(stored.androidHosts == ["shop.example"] && stored.watchedURLs == ["https://shop.example/p/1"])
            #expect(stored.fingerprints == [.init(fingerprint: fingerprint, role: "upload")])
            let same = try registry.planEdit(appID: id, stored)
            #expect(Set(same.draft.links) == Set(try db.appLinks(appID: id).map { link in
                AppLinkDraft(domain: AppDomainKey(host: link.host, displayName: link.displayName, wildcard: link.wildcard), platform: link.platform,
                             service: link.service, developerMode: link.developerMode, managedMode: link.managedMode, declaredAs: link.declaredAs)
            }), "planning the stored entries again gives the same links")
            #expect(same.dropped.isEmpty)

            var changed = stored
            changed.appleDomains.removeAll { $0 == "applinks:old.example" }
            changed.appleDomains.append("applinks:new.example")
            let plan = try registry.planEdit(appID: id, changed)
            #expect(plan.dropped == ["old.example"])
            #expect(plan.domains.first { $0.displayHost == "new.example" }?.isNew == true)
            #expect(try db.domainID(host: "new.example", wildcard: false) == nil, "the plan writes nothing")
            try registry.edit(appID: id, plan)
            #expect(try db.domainID(host: "new.example", wildcard: false) != nil)
            #expect(!(try db.appLinks(appID: id).contains { $0.host == "old.example" }))

            #expect(try registry.app(addressed: "\(id)")?.name == "Shop")
            #expect(try registry.app(addressed: "Shop")?.id == id)
            #expect(try registry.app(addressed: "Nope") == nil && registry.app(addressed: "0") == nil && registry.app(addressed: "") == nil)
            #expect(throws: AppRegistrationError.noSuchApp) { try registry.planEdit(appID: id + 1, changed) }
        }
    }
}
