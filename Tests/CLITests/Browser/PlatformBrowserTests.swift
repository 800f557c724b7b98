import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// A domain watched on both platforms in a real browser: registered through the form, crawled by
/// `serve` against the TLS fleet (assetlinks.json beside the AASA, the fleet's fake Google API), both
/// columns on the domain page; then assetlinks.json breaks and the Android column and findings say so
/// while Apple's stays passing. The overview's platform column and the URL tester's Android answer
/// are visited too; every page passes an axe-core audit.
@Suite(.serialized) struct PlatformBrowserTests {
    static let package = "com.example.fleet"
    static let fingerprint = "AA:" + Array(repeating: "11", count: 31).joined(separator: ":")

    static func assetLinks(_ fingerprint: String) -> String {
        #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["\#(fingerprint)"]}}]"#
    }

    @Test func aDomainWatchedOnBothPlatformsShowsBothAndAnAndroidBreak() async throws {
        let log = ExpectationLog()
        defer { log.recordIssues() }
        try await DedicatedThread.run { try Self.flow(log) }
    }

    static func flow(_ log: ExpectationLog) throws {
        let audit = try AccessibilityAudit()
        let fleet = try TestTLSFleet()
        defer { fleet.stop() }
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        // A name of its own: nginx's default site serves both files (as application/json), and the fake
        // Google API reads the host's own directory.
        let host = fleet.host("two-platforms")
        func write(_ name: String, _ text: String) throws {
            for site in ["_default", host] {
                try fleet.deploy(text, at: "/.well-known/\(name)", site: site)
            }
        }
        func serve(_ text: String) throws { try write("assetlinks.json", text) }
        let aasa = #"{"applinks": {"details": [{"appIDs": ["\#(FleetFiles.appID)"], "components": [{"/": "/*"}]}]}}"#
        try write("apple-app-site-association", aasa)
        // The fleet's CDN knows only its own names; this one's copy is served by the default site under /cdn.
        try fleet.deploy(aasa, at: "/cdn/\(host)")
        try serve(assetLinks(fingerprint))
        let environment = [
            "DATABASE_URL": database.url, "AASA_MONITOR_ALLOW_PRIVATE": "1", "AASA_MONITOR_CA_FILE": fleet.caFile,
            "AASA_MONITOR_CONNECT_TO": fleet.connectTo.joined(separator: ","), "AASA_MONITOR_CDN_BASE": "https://\(host)/cdn",
            "AASA_MONITOR_GOOGLE_DAL_BASE": fleet.googleDALBase,
        ]
        let admin = try BuiltCommand.run(["user", "create", "--admin", "--password-stdin", BrowserTests.email],
                                         stdin: Array("\(BrowserTests.password)\n".utf8), environment: environment)
        _ = try log.require(admin.status == 0 ? admin : nil, "user create: \(admin.stderr)")
        let serveProcess = try ServeProcess(arguments: ["--no-notify"], environment: environment)
        let base = "http://127.0.0.1:\(try serveProcess.waitForPort())"
        let browser = try HeadlessChromium(screenshotDirectory: BrowserTests.screenshotDirectory().deletingLastPathComponent()
            .appendingPathComponent("platforms"))
        defer { browser.quit() }

        func audited(_ page: String) throws {
            let violations = try audit.violations(in: browser)
            log.expect(violations.isEmpty, "axe-core on \(page):\n" + violations.joined(separator: "\n"))
            try browser.screenshot(page)
        }

        try browser.go(base + "/login")
        try browser.fill("#email", BrowserTests.email)
        try browser.fill("#password", BrowserTests.password)
        try browser.click("form[action='/login'] button[type=submit]")
        try browser.wait("the overview") { try !browser.currentURL.contains("/login") && browser.exists("h1") }

        try browser.go(base + "/domains/new")
        try browser.fill("#host", host)
        try browser.select("#platforms", value: "both")
        try audited("01-register-with-platforms")
        try browser.click("form[action='/domains'] button[type=submit]")
        let id = try log.require(try {
            var found: Int64?
            try browser.wait("the domain registered") { found = try db.domainID(host: host, wildcard: false); return found != nil }
            return found
        }(), "\(host) registered")
        try browser.wait("both platforms checked", timeout: .seconds(90)) {
            try browser.go("\(base)/domains/\(id)")
            return try browser.exists("#platform-android .pill") && browser.exists("#platform-apple .pill")
        }
        let columns = try browser.text("#platforms")
        log.expect(try browser.exists("#platform-apple .state-passing") && browser.exists("#platform-android .state-passing"),
                   "both columns passing: \(columns)\n\((try? browser.text("#android-findings")) ?? "")")
        log.expect(try browser.text("#platform-apple").contains("Apple"), "the Apple column")
        log.expect(try browser.text("#platform-android").contains("Android"), "the Android column")
        log.expect(try browser.text("#google-verdict").contains("600 s"), "Google's maxAge beside the origin")
        try audited("02-domain-both-passing")

        // assetlinks.json breaks: a lower-case fingerprint, which Google refuses. "Check now" twice.
        try serve(assetLinks(fingerprint.lowercased()))
        for round in 1...2 {
            let before = try db.domain(id: id)?.lastCheckedAt
            try browser.go("\(base)/domains/\(id)")
            try browser.click("form[action='/domains/\(id)/check'] button[type=submit]")
            try browser.wait("check \(round) of the broken assetlinks.json", timeout: .seconds(90)) {
                guard let domain = try db.domain(id: id) else { return false }
                return domain.lastCheckedAt != before && !domain.isChecking(now: Date())
            }
        }
        try browser.go("\(base)/domains/\(id)")
        log.expect(try browser.exists("#platform-android .state-failing"), "the Android column fails")
        log.expect(try browser.exists("#platform-apple .state-passing"), "Apple's stays passing")
        log.expect(try browser.text("#android-findings").contains("fingerprint-lowercase"), "the finding, with its code")
        let verdict = try browser.text(".verdict")
        log.expect(verdict.contains("Android"), "the verdict names Android: \(verdict)")
        try audited("03-domain-android-broken")

        try browser.go(base + "/?platform=android")
        try browser.wait("the overview's row") { try browser.source.contains(host) }
        log.expect(try browser.exists("td.platforms .state-failing"), "the platform column shows Android failing")
        try audited("04-overview-platforms")

        try browser.go("\(base)/tester?domain=\(id)")
        try browser.fill("#url", "https://\(host)/product/1")
        try browser.fill("#package", package)
        try browser.click("form[action='/tester'] button[type=submit]")
        try browser.wait("the tester's answer") { try browser.exists("#android-answer") }
        let answer = try browser.text("#android-answer")
        log.expect(answer.contains(package), answer)
        try audited("05-tester-both-platforms")

        browser.quit()
        log.expect(try serveProcess.terminate() == 0, "\(serveProcess.standardError)")
    }
}
