import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// An app in a real browser: import its entitlements file (uploaded through the form), confirm the
/// preview, watch the app page's matrix fill in as `serve` crawls the TLS fleet, then break one
/// domain's file and watch the matrix and the alert change. Every page passes an axe-core audit.
@Suite(.serialized) struct AppBrowserTests {
    @Test func importAnAppWatchItsMatrixBreakADomainAndSeeTheAlert() async throws {
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
        let good = fleet.host("good"), both = fleet.host("both")
        let environment = [
            "DATABASE_URL": database.url, "AASA_MONITOR_ALLOW_PRIVATE": "1", "AASA_MONITOR_CA_FILE": fleet.caFile,
            "AASA_MONITOR_CONNECT_TO": fleet.connectTo.joined(separator: ","), "AASA_MONITOR_CDN_BASE": fleet.cdnBase,
        ]
        let admin = try BuiltCommand.run(["user", "create", "--admin", "--password-stdin", BrowserTests.email],
                                         stdin: Array("\(BrowserTests.password)\n".utf8), environment: environment)
        _ = try log.require(admin.status == 0 ? admin : nil, "user create: \(admin.stderr)")
        let serve = try ServeProcess(arguments: ["--no-notify"], environment: environment)
        let base = "http://127.0.0.1:\(try serve.waitForPort())"
        let browser = try HeadlessChromium(screenshotDirectory: BrowserTests.screenshotDirectory().deletingLastPathComponent()
            .appendingPathComponent("apps"))
        defer { browser.quit() }

        func audited(_ page: String) throws {
            let violations = try audit.violations(in: browser)
            log.expect(violations.isEmpty, "axe-core on \(page):\n" + violations.joined(separator: "\n"))
            try browser.screenshot(page)
        }

        try browser.go(base + "/login")
        try audited("01-login")
        try browser.fill("#email", BrowserTests.email)
        try browser.fill("#password", BrowserTests.password)
        try browser.click("form[action='/login'] button[type=submit]")
        try browser.wait("the overview") { try !browser.currentURL.contains("/login") && browser.exists("h1") }
        try audited("02-overview-empty")

        // The entitlements file as Xcode writes it for a signed build, uploaded through the form.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("Shop-\(UUID().uuidString).entitlements")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>application-identifier</key>
            \t<string>\(FleetFiles.appID)</string>
            \t<key>com.apple.developer.associated-domains</key>
            \t<array>
            \t\t<string>applinks:\(good)</string>
            \t\t<string>webcredentials:\(good)</string>
            \t\t<string>applinks:\(both)</string>
            \t</array>
            </dict>
            </plist>

            """.utf8).write(to: file)
        try browser.go(base + "/apps")
        try audited("03-apps-empty")
        try browser.go(base + "/apps/new")
        try browser.wait("the upload button the page's script shows") { try browser.exists("input[data-fill=entitlements]:not([hidden])") }
        try browser.upload("input[data-fill=entitlements]", path: file.path)
        try browser.wait("the uploaded file in the text area") { try browser.value("#entitlements").contains("applinks:\(good)") }
        try browser.fill("#name", "Fleet shop")
        try audited("04-app-form")
        try browser.click("form[action='/apps/preview'] button[type=submit]")
        try browser.wait("the preview") { try browser.exists("#plan-domains") }
        let preview = try browser.text("#plan-domains")
        log.expect(preview.contains(good) && preview.contains(both), "both domains in the preview: \(preview)")
        log.expect(preview.contains("Password autofill (webcredentials)"))
        log.expect(try db.apps().isEmpty, "the preview wrote nothing")
        try audited("05-app-preview")
        try browser.click("form[action='/apps'] button[type=submit]")
        try browser.wait("the app page") { try browser.exists("#app-matrix") }
        let appURL = try browser.currentURL

        // The crawler checks both new domains; the page shows the matrix once they are in.
        try browser.wait("every link passing", timeout: .seconds(90)) {
            try browser.go(appURL)
            return try browser.text("#app-summary").hasPrefix("3 of 3 links healthy")
        }
        log.expect(try browser.elements("#app-matrix li[data-state=passing]").count == 3)
        log.expect(try browser.text("#app-alerts, #alerts").contains("No open alerts"))
        try audited("06-app-matrix-passing")

        // Break good.fleet.test: its file no longer lists the app. Each "Check now" runs a check;
        // the alert opens after the second failing one.
        let served = fleet.directory.appendingPathComponent("www/\(good)/.well-known/apple-app-site-association")
        try DeployedFile.write(Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.other"],"components":[{"/":"/*"}]}]},"webcredentials":{"apps":[]}}"#.utf8),
                               to: served)
        let goodID = try log.require(try db.domainID(host: good, wildcard: false), "\(good) registered")
        for round in 1...2 {
            let before = try db.domain(id: goodID)?.lastCheckedAt
            try browser.go("\(base)/domains/\(goodID)")
            try browser.click("form[action='/domains/\(goodID)/check'] button[type=submit]")
            try browser.wait("check \(round) of the broken file", timeout: .seconds(90)) {
                guard let domain = try db.domain(id: goodID) else { return false }
                return domain.lastCheckedAt != before && !domain.isChecking(now: Date())
            }
        }
        try browser.go("\(base)/domains/\(goodID)")
        try audited("07-domain-broken")
        try browser.wait("the failing cells and the alert", timeout: .seconds(90)) {
            try browser.go(appURL)
            return try browser.exists("#app-alerts") && browser.text("#app-summary").hasPrefix("1 of 3 links healthy")
        }
        let matrix = try browser.text("#app-matrix")
        log.expect(matrix.contains("App ID \(FleetFiles.appID) is missing from applinks."), matrix)
        log.expect(matrix.contains("App ID \(FleetFiles.appID) is missing from webcredentials."), matrix)
        log.expect(try browser.elements("#app-matrix li[data-state=failing]").count == 2)
        log.expect(try browser.elements("#app-matrix li[data-state=passing]").count == 1, "\(both) still passes")
        log.expect(try browser.text("#app-alerts").contains(good))
        log.expect(try browser.text("#app-summary").contains("broken on \(good)"))
        try audited("08-app-matrix-broken")

        try browser.go(base + "/apps")
        log.expect(try browser.source.contains("Fleet shop"))
        try audited("09-apps")
        try browser.go(base + "/")
        try browser.wait("the overview's rows") { try browser.source.contains(both) }
        try audited("10-overview")
        try browser.go(base + "/alerts")
        try audited("11-alerts")

        browser.quit()
        log.expect(try serve.terminate() == 0, "\(serve.standardError)")
    }
}
