import AssetLinks
import Fetch
import Foundation
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Monitor

/// Android's file through the real pipeline: real PostgreSQL, the HTTPS test fleet serving
/// assetlinks.json, an app whose package and fingerprints the domain must verify (as the Registry
/// stores it), the alert thresholds, channels and outbox of the AASA.
@Suite(.serialized) struct AndroidPipelineTests {
    static let package = "com.example.shop"
    static let signing = "AA:" + Array(repeating: "11", count: 31).joined(separator: ":")
    static let rotated = "CC:" + Array(repeating: "33", count: 31).joined(separator: ":")

    static func assetLinks(_ fingerprints: [String]) -> String {
        #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": [\#(fingerprints.map { "\"\($0)\"" }.joined(separator: ", "))]}}]"#
    }

    func writeAssetLinks(_ fleet: TestTLSFleet, _ text: String) throws {
        try fleet.deploy(text, at: "/.well-known/assetlinks.json")
    }

    @Test func aRemovedFingerprintAlertsOncePerChannelThenRecoversOnce() async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            try writeAssetLinks(fleet, Self.assetLinks([Self.signing, Self.rotated]))
            let host = AppDomainKey(host: "android.fleet.test", displayName: "android.fleet.test", wildcard: false)
            guard case .created = try database.createApp(AppDraft(
                name: "Shop", androidPackage: Self.package,
                fingerprints: [AppFingerprint(fingerprint: Self.signing, role: .appSigning),
                               AppFingerprint(fingerprint: Self.rotated, role: .appSigning)],
                links: [AppLinkDraft(domain: host, platform: .android, service: .applinks)]), intervalSeconds: 3600) else {
                Issue.record("app not created")
                return
            }
            try database.execute("INSERT INTO channels (kind, target, min_severity) VALUES ('webhook', 'https://hooks.example/a', 'critical')")
            try database.execute("INSERT INTO channels (kind, target) VALUES ('email', 'ops@example.com')")

            func round(_ file: String) async throws -> [AlertEvent] {
                try writeAssetLinks(fleet, file)
                try makeAllDue(database)
                return try await checkDueDomains(pipeline).flatMap(\.1.step.alerts).filter { $0.kind != .notice }
            }
            #expect(try await round(Self.assetLinks([Self.signing, Self.rotated])).isEmpty)
            let domainID = try #require(try database.domain(host: "android.fleet.test")?.id)
            let first = try #require(try database.checks(domainID: domainID, onlyChanges: false, limit: 1).first)
            // Stored typed: Android's side, its version filed under android, its transport beside Apple's.
            let android = try #require(first.android)
            #expect(android.serves && android.verdict == .pass, "\(android.findings.map(\.code))")
            #expect(android.identities.map(\.missingFingerprints) == [[]])
            #expect(first.androidVersionSHA256 == SHA256.hex(Array(Self.assetLinks([Self.signing, Self.rotated]).utf8)))
            let stored = try #require(try database.transport(checkID: first.id)?.assetLinks)
            #expect(stored.status == 200 && stored.body == [])
            #expect(try count(database, "SELECT count(*)::int FROM association_versions WHERE platform = 'android'") == 1)

            // The rotated key disappears: one failing check pages nobody; the second opens ONE alert.
            #expect(try await round(Self.assetLinks([Self.rotated])).isEmpty)
            let opened = try await round(Self.assetLinks([Self.rotated]))
            #expect(opened.map(\.kind) == [.opened])
            #expect(opened.first?.key == AlertKey(rule: .androidIdentityMissing, subject: Self.package))
            #expect(opened.first?.summary.hasPrefix("Android: key rotation incomplete") == true, "\(opened.first?.summary ?? "")")
            #expect(try count(database, "SELECT count(*)::int FROM alerts WHERE state = 'open'") == 1)
            #expect(try count(database, "SELECT count(*)::int FROM deliveries WHERE event = 'opened'") == 2, "one per channel")
            #expect(try database.domain(host: "android.fleet.test")?.lastVerdict == .fail)
            #expect(try database.domain(host: "android.fleet.test")?.lastReason?.platform == .android)

            #expect(try await round(Self.assetLinks([Self.rotated])).isEmpty, "still failing: nothing new")
            let recovered = try await round(Self.assetLinks([Self.signing, Self.rotated]))
            #expect(recovered.map(\.kind) == [.resolved])
            #expect(try count(database, "SELECT count(*)::int FROM deliveries WHERE event = 'opened'") == 2)
            #expect(try count(database, "SELECT count(*)::int FROM deliveries WHERE event = 'resolved'") == 2, "one recovery notice per channel")
            #expect(try count(database, "SELECT count(*)::int FROM alerts WHERE state = 'resolved'") == 1)
            // Two distinct Android files, each stored once; Apple's file is a version of its own platform.
            #expect(try count(database, "SELECT count(*)::int FROM association_versions WHERE platform = 'android'") == 2)
            #expect(try count(database, "SELECT count(*)::int FROM association_versions WHERE platform = 'apple'") == 1)
        }
    }

    static func withRules(_ rules: String) -> String {
        #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["\#(signing)"]}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": \#(rules)}}}]"#
    }

    @Test func aWatchedURLThatFlipsOnAndroidOnlyAlertsNamingThePlatform() async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            let opens = Self.withRules(#"[{"/": "/account/*", "exclude": true}, {"/": "*"}]"#)
            let excludes = Self.withRules(#"[{"/": "/p/*", "exclude": true}, {"/": "*"}]"#)
            let host = AppDomainKey(host: "android.fleet.test", displayName: "android.fleet.test", wildcard: false)
            let url = "https://android.fleet.test/p/12"
            guard case .created = try database.createApp(AppDraft(
                name: "Shop", androidPackage: Self.package, fingerprints: [AppFingerprint(fingerprint: Self.signing, role: .appSigning)],
                links: [AppLinkDraft(domain: host, platform: .android, service: .applinks)],
                watchedURLs: [AppWatchedURLDraft(url: url, domain: host)]), intervalSeconds: 3600) else {
                Issue.record("app not created")
                return
            }
            try database.execute("INSERT INTO channels (kind, target) VALUES ('email', 'ops@example.com')")
            var notices: [AlertEvent] = []
            func round(_ file: String) async throws -> [AlertEvent] {
                try writeAssetLinks(fleet, file)
                try makeAllDue(database)
                let alerts = try await checkDueDomains(pipeline).flatMap(\.1.step.alerts)
                notices += alerts.filter { $0.kind == .notice }
                return alerts.filter { $0.kind != .notice }
            }
            #expect(try await round(opens).isEmpty)
            let domainID = try #require(try database.domain(host: "android.fleet.test")?.id)
            // Each platform's outcome is stored with the check: Android's beside its verdict.
            let stored = try #require(try database.checks(domainID: domainID, onlyChanges: false, limit: 1).first?.android)
            #expect(stored.watchedURLs.map(\.url) == [url])
            #expect(stored.watchedURLs.first?.actual == .opensApp(Self.package) && stored.watchedURLs.first?.meetsExpectation == true)

            // The rules change so /p/ no longer opens the app on Android 15+ (older versions still open it).
            #expect(try await round(excludes).isEmpty, "one failing check pages nobody")
            // The new file is announced at once (info), with what changed: the rules and the URL that flips.
            #expect(notices.map(\.key.subject) == ["android " + SHA256.hex(Array(excludes.utf8))])
            #expect(notices.first?.summary.hasPrefix("Android: a new assetlinks.json was published") == true)
            #expect(notices.first?.summary.contains("~ \(url) for \(Self.package):") == true, "\(notices.first?.summary ?? "")")
            #expect(try database.value("SELECT count(*)::int FROM deliveries WHERE event = 'published' AND payload::text LIKE $1",
                                       "%/p/12 for com.example.shop%", as: Int.self) == 1, "the diff travels with the notice")
            let opened = try await round(excludes)
            #expect(opened.map(\.kind) == [.opened])
            #expect(opened.first?.key == AlertKey(rule: .androidWatchedURLFlipped, subject: url))
            #expect(opened.first?.summary.hasPrefix("Android: watched URL flipped — \(url) stays in the browser on Android 15+") == true,
                    "\(opened.first?.summary ?? "")")
            #expect(opened.first?.summary.contains("Rule 1") == true)
            let flipped = try #require(try database.checks(domainID: domainID, onlyChanges: false, limit: 1).first?.android?.watchedURLs.first)
            #expect(flipped.actual == .staysInBrowser && flipped.beforeDynamicRules == .opensApp(Self.package))
            #expect(try count(database, "SELECT count(*)::int FROM alerts WHERE state = 'open'") == 1, "Apple's side alerts nothing")
            #expect(try database.domain(host: "android.fleet.test")?.lastReason.map { $0.platform == .android && $0.text.hasPrefix("watched URL") } == true)

            let recovered = try await round(opens)
            #expect(recovered.map(\.kind) == [.resolved])
            #expect(try count(database, "SELECT count(*)::int FROM deliveries WHERE event = 'resolved'") == 1)
        }
    }

    /// What `DomainRegistry.edit` (and an app's edit, and a config apply) does after saving: the
    /// domain's state re-measured from the stored files, Android's too, with no new fetch.
    @Test func editingExpectationsReMeasuresTheStoredAssetLinksAtOnce() async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            try writeAssetLinks(fleet, Self.withRules(#"[{"/": "/account/*", "exclude": true}, {"/": "*"}]"#))
            let host = AppDomainKey(host: "android.fleet.test", displayName: "android.fleet.test", wildcard: false)
            guard case .created(let appID, _) = try database.createApp(AppDraft(
                name: "Shop", androidPackage: Self.package, fingerprints: [AppFingerprint(fingerprint: Self.signing, role: .appSigning)],
                links: [AppLinkDraft(domain: host, platform: .android, service: .applinks)]), intervalSeconds: 3600) else {
                Issue.record("app not created")
                return
            }
            _ = try await checkDueDomains(pipeline)
            let id = try #require(try database.domain(host: "android.fleet.test")?.id)
            #expect(try database.domain(id: id)?.lastVerdict == .pass)
            // Served no more: a re-measure that fetched would see the 404.
            try FileManager.default.removeItem(at: fleet.directory.appendingPathComponent("www/_default/.well-known/assetlinks.json"))
            let checks = try count(database, "SELECT count(*)::int FROM checks")

            // A URL that must stay in the browser: Apple's file excludes /help/*, Android's rules open it.
            let url = "https://android.fleet.test/help/1"
            try database.updateDomain(id: id, DomainDraft(host: "android.fleet.test", displayName: "android.fleet.test", wildcard: false,
                                                          intervalSeconds: 3600, badgeEnabled: false, appIDs: [],
                                                          watchedURLs: [WatchedURLExpectation(url: url, expectedAppID: nil)]))
            let measured = try #require(try DomainVerdict.reevaluate(domainID: id, in: database))
            #expect(measured == DomainVerdict(verdict: .fail, reason: DomainReason(
                "watched URL \(url) opens \(Self.package) on Android 15+, expected: stays in the browser.", platform: .android), apple: .pass, android: .fail))
            #expect(try database.domain(id: id)?.lastVerdict == .fail)

            // The app gains a key the stored file does not list: Android's identity findings are measured again.
            try database.execute("INSERT INTO app_fingerprints (app_id, fingerprint, key_role) VALUES ($1, $2, 'app-signing')", appID, Self.rotated)
            let rotated = try #require(try DomainVerdict.reevaluate(domainID: id, in: database))
            #expect(rotated.verdict == .fail && rotated.reason?.platform == .android && rotated.reason?.text.contains(Self.rotated) == true,
                    "\(rotated)")
            #expect(try count(database, "SELECT count(*)::int FROM checks") == checks, "no new check, no fetch")

            // Both expectations withdrawn: the stored file meets what is left.
            try database.execute("DELETE FROM app_fingerprints WHERE fingerprint = $1", Self.rotated)
            try database.updateDomain(id: id, DomainDraft(host: "android.fleet.test", displayName: "android.fleet.test", wildcard: false,
                                                          intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: []))
            #expect(try DomainVerdict.reevaluate(domainID: id, in: database)?.verdict == .pass)
        }
    }

    /// Google's API starts reporting an error code for a site whose file is fine: one google-verdict
    /// alert, at the lower tier (a channel for critical alerts only hears nothing), then one recovery.
    @Test func googleStartingToReportAnErrorCodeAlertsOnceAtTheLowerTier() async throws {
        // Google is asked on every check here; when a settled Google is asked again is SecondaryRequestTests'.
        try await withFleetPipeline(serving: nil, askGoogle: true, cadence: .everyCheck) { fleet, database, pipeline in
            let host = fleet.host("al-changing")
            guard case .created = try database.createApp(AppDraft(
                name: "Shop", androidPackage: FleetAssetLinks.packageName,
                fingerprints: [AppFingerprint(fingerprint: FleetAssetLinks.appSigningKey, role: .appSigning)],
                links: [AppLinkDraft(domain: AppDomainKey(host: host, displayName: host, wildcard: false), platform: .android, service: .applinks)]),
                intervalSeconds: 3600) else {
                Issue.record("app not created")
                return
            }
            try database.execute("INSERT INTO channels (kind, target, min_severity) VALUES ('webhook', 'https://hooks.example/a', 'critical')")
            try database.execute("INSERT INTO channels (kind, target) VALUES ('email', 'ops@example.com')")
            func round() async throws -> [AlertEvent] {
                try makeAllDue(database)
                return try await checkDueDomains(pipeline).flatMap(\.1.step.alerts).filter { $0.key.rule == .googleVerdict }
            }
            func deliveries(_ event: String) throws -> Int {
                try database.value("""
                    SELECT count(*)::int FROM deliveries d JOIN alerts a ON a.id = d.alert_id
                    WHERE a.rule = 'google-verdict' AND d.event = $1
                    """, event, as: Int.self)
            }
            #expect(try await round().isEmpty)
            let domainID = try #require(try database.domain(host: host)?.id)
            let google = try #require(try database.checks(domainID: domainID, onlyChanges: false, limit: 1).first?.android?.google)
            #expect(google.errorCodes.isEmpty && google.statementCount > 0 && google.maxAgeSeconds == 600)

            fleet.googleAPI.set(.mirror(["ERROR_CODE_FETCH_ERROR"]), for: host)
            #expect(try await round().isEmpty, "one failing check pages nobody")
            let opened = try await round()
            #expect(opened.map(\.kind) == [.opened] && opened.first?.severity == .warning)
            #expect(opened.first?.summary == "Android: Google's Digital Asset Links API disagrees — error ERROR_CODE_FETCH_ERROR.",
                    "\(opened.first?.summary ?? "")")
            #expect(try deliveries("opened") == 1, "the email channel only: the webhook takes critical alerts")
            #expect(try await round().isEmpty, "still failing: nothing new")

            fleet.googleAPI.set(.mirror([]), for: host)
            #expect(try await round().map(\.kind) == [.resolved])
            #expect(try deliveries("resolved") == 1)
        }
    }

    @Test func aSiteServingNoAssetLinksAndExpectingNoAndroidAppIsNotFailingForIt() async throws {
        try await withFleetPipeline(serving: shopFile()) { _, database, pipeline in
            _ = try database.importDomain(host: "apple-only.fleet.test", displayName: "apple-only.fleet.test", wildcard: false,
                                          appIDs: [(.applinks, "ABCDE12345.shop")])
            for _ in 0..<3 {
                try makeAllDue(database)
                let steps = try await checkDueDomains(pipeline).map(\.1.step)
                #expect(steps.flatMap(\.alerts).filter { $0.kind != .notice }.isEmpty)
                #expect(steps.first?.check.android?.isWatched == false)
            }
            #expect(try database.domain(host: "apple-only.fleet.test")?.lastVerdict == .pass)
        }
    }

    // Spec §11's removals through the real pipeline: the fleet serves a file that changes; the shop's
    // app is registered, a partner's app is not. One failing check pages nobody, the second opens one
    // alert (one delivery per channel its tier reaches), the file restored resolves it once.
    static let partner = "com.example.partner"
    static let partnerKey = "DD:" + Array(repeating: "44", count: 31).joined(separator: ":")

    static func statement(_ relations: [String], _ package: String, _ keys: [String]) -> String {
        let relationList = relations.map { "\"delegate_permission/common.\($0)\"" }.joined(separator: ", ")
        return #"{"relation": [\#(relationList)], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": [\#(keys.map { "\"\($0)\"" }.joined(separator: ", "))]}}"#
    }

    /// Runs `good` → `bad` (twice) → `bad` → `good` and checks the alert `key` opens once and resolves
    /// once, with `perChannel` deliveries each time (2: critical, webhook and email; 1: email only).
    func removalAlertsOnceThenRecoversOnce(good: String, bad: String, key: AlertKey, summary: String, perChannel: Int) async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            try writeAssetLinks(fleet, good)
            let host = AppDomainKey(host: "android.fleet.test", displayName: "android.fleet.test", wildcard: false)
            guard case .created = try database.createApp(AppDraft(
                name: "Shop", androidPackage: Self.package, fingerprints: [AppFingerprint(fingerprint: Self.signing, role: .appSigning)],
                links: [AppLinkDraft(domain: host, platform: .android, service: .applinks)]), intervalSeconds: 3600) else {
                Issue.record("app not created")
                return
            }
            try database.execute("INSERT INTO channels (kind, target, min_severity) VALUES ('webhook', 'https://hooks.example/a', 'critical')")
            try database.execute("INSERT INTO channels (kind, target) VALUES ('email', 'ops@example.com')")
            func round(_ file: String) async throws -> [AlertEvent] {
                try writeAssetLinks(fleet, file)
                try makeAllDue(database)
                return try await checkDueDomains(pipeline).flatMap(\.1.step.alerts).filter { $0.kind != .notice }
            }
            func deliveries(_ event: String) throws -> Int {
                try database.value("""
                    SELECT count(*)::int FROM deliveries d JOIN alerts a ON a.id = d.alert_id WHERE a.rule = $1 AND d.event = $2
                    """, key.rule.rawValue, event, as: Int.self)
            }
            #expect(try await round(good).isEmpty)
            #expect(try await round(bad).isEmpty, "one failing check pages nobody")
            let opened = try await round(bad)
            #expect(opened.map(\.key) == [key], "\(opened.map(\.key))")
            #expect(opened.map(\.kind) == [.opened] && opened.first?.severity == key.rule.severity)
            #expect(opened.first?.summary == summary, "\(opened.first?.summary ?? "")")
            #expect(try deliveries("opened") == perChannel)
            #expect(try await round(bad).isEmpty, "still failing: nothing new")
            let recovered = try await round(good)
            #expect(recovered.map(\.kind) == [.resolved] && recovered.map(\.key) == [key])
            #expect(try deliveries("opened") == perChannel)
            #expect(try deliveries("resolved") == perChannel, "one recovery notice per channel")
        }
    }

    @Test func aKeyOfAnAppNotRegisteredHereRemovedAlertsOnceAtTheWarningTier() async throws {
        let shop = Self.statement(["handle_all_urls"], Self.package, [Self.signing])
        try await removalAlertsOnceThenRecoversOnce(
            good: "[\(shop), \(Self.statement(["handle_all_urls"], Self.partner, [Self.partnerKey, Self.rotated]))]",
            bad: "[\(shop), \(Self.statement(["handle_all_urls"], Self.partner, [Self.partnerKey]))]",
            key: AlertKey(rule: .androidFingerprintRemoved, subject: "\(Self.partner) \(Self.rotated)"),
            summary: "Android: assetlinks.json no longer lists the key \(Self.rotated) for \(Self.partner) (a key not registered here); "
                + "builds signed with it no longer verify.",
            perChannel: 1)
    }

    @Test func useAsOriginDroppedForAPackageAlertsOnce() async throws {
        try await removalAlertsOnceThenRecoversOnce(
            good: "[\(Self.statement(["handle_all_urls", "use_as_origin"], Self.package, [Self.signing]))]",
            bad: "[\(Self.statement(["handle_all_urls"], Self.package, [Self.signing]))]",
            key: AlertKey(rule: .androidRelationRemoved, subject: "\(Self.package) delegate_permission/common.use_as_origin"),
            summary: "Android: assetlinks.json no longer grants \(Self.package) delegate_permission/common.use_as_origin; "
                + "the site no longer vouches for the app as its web origin.",
            perChannel: 2)
    }

    @Test func getLoginCredsDroppedForAPackageAlertsOnce() async throws {
        try await removalAlertsOnceThenRecoversOnce(
            good: "[\(Self.statement(["handle_all_urls"], Self.package, [Self.signing])), \(Self.statement(["get_login_creds"], Self.package, [Self.signing]))]",
            bad: "[\(Self.statement(["handle_all_urls"], Self.package, [Self.signing]))]",
            key: AlertKey(rule: .androidRelationRemoved, subject: "\(Self.package) delegate_permission/common.get_login_creds"),
            summary: "Android: assetlinks.json no longer grants \(Self.package) delegate_permission/common.get_login_creds; "
                + "saved sign-ins are no longer shared between the app and the site.",
            perChannel: 2)
    }

    @Test func aPackageNotRegisteredHereRemovedAlertsOnce() async throws {
        let shop = Self.statement(["handle_all_urls"], Self.package, [Self.signing])
        try await removalAlertsOnceThenRecoversOnce(
            good: "[\(shop), \(Self.statement(["handle_all_urls"], Self.partner, [Self.partnerKey]))]",
            bad: "[\(shop)]",
            key: AlertKey(rule: .androidPackageRemoved, subject: Self.partner),
            summary: "Android: assetlinks.json no longer grants \(Self.partner) handle_all_urls or get_login_creds (it did in the file before); "
                + "the app no longer verifies for this site.",
            perChannel: 2)
    }

    /// A web statement (the site's own get_login_creds link) turns invalid: the app's links still work,
    /// Google ignores that statement — a partial failure only this rule sees, alerted once (the error
    /// inside it is not also the file's alert).
    @Test func aStatementNewlyDroppedAlertsOnce() async throws {
        let shop = Self.statement(["handle_all_urls"], Self.package, [Self.signing])
        func web(_ site: String) -> String {
            #"{"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": "\#(site)"}}"#
        }
        try await removalAlertsOnceThenRecoversOnce(
            good: "[\(shop), \(web("https://android.fleet.test"))]",
            bad: "[\(shop), \(web("https://android.fleet.test/login"))]",
            key: AlertKey(rule: .androidStatementDropped),
            summary: "Android: assetlinks.json now has 1 invalid statement that Google ignores (was 0): [1] — web-site-invalid; "
                + "what it granted no longer applies.",
            perChannel: 2)
    }
}
