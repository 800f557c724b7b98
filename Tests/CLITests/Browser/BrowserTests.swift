import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// The dashboard in a real browser: Debian's headless Chromium (through chromedriver) against the
/// built `aasa-monitor serve`, which crawls the TLS test fleet through a separate `worker`.
/// Every page visited is saved under artifacts/screenshots/ for a person to look at.
///
/// The flow blocks (deadline-bounded polling, child processes, sockets) on a thread of its own:
/// it never waits for a task of the two-thread cooperative pool, and holds none of its threads.
@Suite(.serialized) struct BrowserTests {
    static let password = "browser test passphrase"
    static let email = "ops@example.com"

    @Test func registerWatchTheFirstCheckChangeTheFileCheckNowAndSeeTheDiff() async throws {
        let log = ExpectationLog()
        defer { log.recordIssues() }
        try await DedicatedThread.run { try Self.registerWatchCheckNowAndDiff(log) }
    }

    /// Without Chromium the browser tests fail, naming the packages and the command that installs them.
    @Test func aMissingChromiumFailsWithTheInstallCommand() throws {
        let error = #expect(throws: HeadlessChromium.Failure.self) {
            _ = try HeadlessChromium(screenshotDirectory: Self.screenshotDirectory(), chromiumPath: "/nonexistent/chromium")
        }
        #expect(error?.description.contains("Debian's chromium") == true)
        #expect(error?.description.contains("scripts/bootstrap --test") == true)
    }

    static func registerWatchCheckNowAndDiff(_ log: ExpectationLog) throws {
        let fleet = try TestTLSFleet()
        defer { fleet.stop() }
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        let host = fleet.host("good")
        let servedFile = fleet.directory.appendingPathComponent("www/\(host)/.well-known/apple-app-site-association")
        log.expect(FileManager.default.fileExists(atPath: servedFile.path), "the fleet serves \(servedFile.path)")

        let environment = [
            "DATABASE_URL": database.url, "AASA_MONITOR_ALLOW_PRIVATE": "1", "AASA_MONITOR_CA_FILE": fleet.caFile,
            "AASA_MONITOR_CONNECT_TO": fleet.connectTo.joined(separator: ","), "AASA_MONITOR_CDN_BASE": fleet.cdnBase,
        ]
        let admin = try BuiltCommand.run(["user", "create", "--admin", "--password-stdin", Self.email],
                                         stdin: Array("\(Self.password)\n".utf8), environment: environment)
        _ = try log.require(admin.status == 0 ? admin : nil, "user create: \(admin.stderr)")

        // The web alone: crawling is a separate worker, started once the page has shown that the
        // first check is pending, so the progress state is seen every time, not by luck.
        let serve = try ServeProcess(arguments: ["--no-crawl", "--no-notify"], environment: environment)
        let base = "http://127.0.0.1:\(try serve.waitForPort())"
        let browser = try HeadlessChromium(screenshotDirectory: Self.screenshotDirectory())
        defer { browser.quit() }

        // Log in.
        try browser.go(base + "/")
        log.expect(try browser.currentURL.contains("/login"), "the dashboard sends strangers to the login page")
        try browser.screenshot("01-login")
        try browser.fill("#email", Self.email)
        try browser.fill("#password", Self.password)
        try browser.click("form[action='/login'] button[type=submit]")
        try browser.wait("the overview after logging in") { try browser.exists("a[href='/domains/new']") && !browser.currentURL.contains("/login") }
        try browser.screenshot("02-overview-empty")

        // Register: refused input first (message beside the field, what was typed kept).
        try browser.go(base + "/domains/new")
        try browser.fill("#host", "https://\(host):8443/app")
        try browser.fill("input[name=appid]", "abcde12345.com.example.fleet")
        try browser.click("form[action='/domains'] button[type=submit]")
        try browser.wait("the refused registration") { try browser.exists("#err-host") }
        log.expect(try browser.text("#err-host").contains("https://"), "the host's message says why")
        log.expect(try browser.exists("#err-appid\\.0"), "the app ID's message")
        log.expect(try browser.value("#host") == "https://\(host):8443/app", "what was typed is kept")
        try browser.screenshot("03-register-refused")

        try browser.fill("#host", host)
        try browser.fill("input[name=appid]", FleetFiles.appID)
        try browser.fill("input[name=url]", "https://\(host)/products/42")
        try browser.fill("input[name=expect]", FleetFiles.appID)
        try browser.screenshot("04-register-filled")
        try browser.click("form[action='/domains'] button[type=submit]")
        try browser.wait("the new domain's page") { try browser.currentURL.range(of: #"/domains/\d+$"#, options: .regularExpression) != nil }
        let domainURL = try browser.currentURL
        let domainID = try log.require(Int64(domainURL.split(separator: "/").last.map(String.init) ?? ""), "a domain id in \(domainURL)")

        // The first check is pending: the page says so and polls.
        log.expect(try browser.exists("[data-poll]"), "the page shows the first check's progress")
        try browser.wait("the progress text from the page's script") {
            // "Checking… 3 s": the script is polling the status URL.
            try browser.text(".progress-text").range(of: #"\d+ s$"#, options: .regularExpression) != nil
        }
        try browser.screenshot("05-first-check-running")

        // A worker that polls only every 5 minutes: it finds the requested domain at start-up.
        let worker = try WorkerProcess(databaseURL: database.url, fleet: fleet, name: "browser-worker", leaseSeconds: 120, pollSeconds: 300)
        defer { worker.stop() }
        // The page reloads itself when the result is in; the test does not navigate.
        try browser.wait("the first check's result", timeout: .seconds(90)) {
            try !browser.exists("[data-poll]") && browser.exists("#findings, section.card h2")
                && browser.source.contains("Current file")
        }
        log.expect(try browser.currentURL == domainURL)
        let checked = try browser.source
        log.expect(checked.contains("Findings"))
        log.expect(checked.contains("Origin and Apple CDN"))
        log.expect(checked.contains("/products/*"), "the current file is shown")
        try browser.screenshot("06-domain-checked")

        // Loading pages changes nothing: no check is requested by a GET.
        try browser.go("\(base)/domains/\(domainID)/check")
        log.expect(try db.domain(id: domainID)?.checkRequestedAt == nil, "a GET requested a check")
        try browser.go(domainURL)

        // The served file changes; "Check now" must wake the sleeping worker (NOTIFY), since its
        // own poll would come only after this wait's deadline.
        try DeployedFile.write(FleetFiles.previous, to: servedFile)
        try browser.click("form[action='/domains/\(domainID)/check'] button[type=submit]")
        try browser.wait("the new version's diff", timeout: .seconds(90)) {
            try !browser.exists("[data-poll]") && browser.exists("#diff")
        }
        let diff = try browser.source
        log.expect(diff.contains("Changes between versions"))
        log.expect(diff.contains("What changes for devices"))
        log.expect(diff.contains("/old-products/*"), "the new file is shown")
        log.expect(diff.contains("https://\(host)/products/42"), "the watched URL whose outcome changed")
        log.expect(diff.contains("<dt>Expires</dt>"), "the second check (on a kept connection) still reports the certificate")
        // /products/42 no longer opens the app: the page says so (the first check said every expectation held).
        log.expect(checked.contains("every expectation holds"))
        log.expect(diff.contains("An expectation fails: https://\(host)/products/42 stays in the browser"))
        log.expect(diff.contains("✗ it stays in the browser"))
        try browser.run("document.getElementById('diff').scrollIntoView();")
        try browser.screenshot("07-domain-diff")
        log.expect(try db.domain(id: domainID)?.checkRequestedAt == nil, "the worker took the requested check")

        // The other pages.
        try browser.go(base + "/")
        try browser.wait("the overview row") { try browser.source.contains(host) }
        log.expect(try browser.text(".pagination").contains("1 domain · page 1 of 1"))
        try browser.screenshot("08-overview")

        try browser.go(base + "/tester")
        try browser.fill("#url", "https://\(host)/old-products/7")
        try browser.select("#domain", value: String(domainID))
        try browser.click("form[action='/tester'] button[type=submit]")
        try browser.wait("the URL tester's result") { try browser.exists(".outcome") }
        log.expect(try browser.text(".outcome").contains(FleetFiles.appID))
        try browser.screenshot("09-url-tester")

        try browser.go(base + "/alerts")
        try browser.wait("the alerts page") { try browser.exists("h1") }
        try browser.screenshot("10-alerts")

        // Settings: the email form writes the keys the notifier reads (names as in Notify's NotificationSettings.Key).
        try browser.go(base + "/settings")
        try browser.fill("#smtp-url", "smtp://alerts:secret@mail.example.test:587")
        try browser.fill("#smtp-from", "alerts@example.test")
        try browser.select("#smtp-starttls", value: "required")
        try browser.fill("#base-url", "https://aasa.example.test")
        try browser.click("form[action='/settings/email'] button[type=submit]")
        try browser.wait("the saved email settings") { try browser.source.contains("Email and link settings saved") }
        log.expect(try db.setting("smtp_url") == "smtp://alerts:secret@mail.example.test:587")
        log.expect(try db.setting("smtp_from") == "alerts@example.test")
        log.expect(try db.setting("smtp_starttls") == "required")
        log.expect(try db.setting("smtp_ca_file") == "")
        log.expect(try db.setting("base_url") == "https://aasa.example.test")
        log.expect(try !browser.source.contains("secret@"), "the page never shows the SMTP password")
        try browser.run("window.scrollTo(0, 0);")
        try browser.screenshot("11-settings")

        browser.quit()
        worker.stop()
        log.expect(try serve.terminate() == 0, "\(serve.standardError)")
    }

    /// artifacts/screenshots/ of the package (the test runs from the package root).
    static func screenshotDirectory() -> URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("artifacts/screenshots/browser")
    }
}
