import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// Settings in sections, the channel form per kind and the tester's domain search (issue #32), in real
/// Chromium against `serve --no-crawl` on a phone (390×844): each section fits the screen and passes
/// axe-core as an admin and as a read-only user, light and dark; the add form of a kind holds only that
/// kind's fields and a refused one comes back as the same kind with what was typed (never the key);
/// the tester's search finds a domain the chooser does not list among many.
@Suite(.serialized) struct SettingsBrowserTests {
    static let viewerEmail = "viewer@example.com"
    /// More than the tester's chooser lists (`TesterHandlers.choiceLimit`), and the one searched for
    /// sorts after all of them, so only the search can offer it.
    static let manyDomains = 120
    static let needle = "zz-needle-shop.example"
    static let sections = ["/settings", "/settings/users", "/settings/channels", "/settings/alerts"]

    @Test func sectionsChannelFormsAndTheTestersSearchOnAPhone() async throws {
        let log = ExpectationLog()
        defer { log.recordIssues() }
        try await DedicatedThread.run { try Self.flow(log) }
    }

    static func flow(_ log: ExpectationLog) throws {
        let audit = try AccessibilityAudit()
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let environment = ["DATABASE_URL": database.url]
        func command(_ arguments: [String], stdin: String = "") throws {
            let outcome = try BuiltCommand.run(arguments, stdin: Array(stdin.utf8), environment: environment)
            _ = try log.require(outcome.status == 0 ? outcome : nil, "\(arguments.prefix(2).joined(separator: " ")): \(outcome.stderr)")
        }
        try command(["user", "create", "--admin", "--password-stdin", BrowserTests.email], stdin: "\(BrowserTests.password)\n")
        try command(["user", "create", "--password-stdin", viewerEmail], stdin: "\(BrowserTests.password)\n")
        try command(["channel", "add", "webhook", ResponsiveBrowserTests.webhook, "--name", "Team hook"])
        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        for n in 0..<manyDomains {
            _ = try db.importDomain(host: String(format: "shop-%03d.example", n), displayName: String(format: "shop-%03d.example", n),
                                   wildcard: false, appIDs: [])
        }
        _ = try db.importDomain(host: needle, displayName: needle, wildcard: false, appIDs: [])
        let needleID = try log.require(try db.domainID(host: needle, wildcard: false), "\(needle) registered")

        let serve = try ServeProcess(arguments: ["--no-crawl", "--no-notify"], environment: environment)
        let base = "http://127.0.0.1:\(try serve.waitForPort())"
        let browser = try HeadlessChromium(screenshotDirectory: BrowserTests.screenshotDirectory().deletingLastPathComponent()
            .appendingPathComponent("settings-phone"), windowWidth: 800, windowHeight: 844)
        defer { browser.quit() }
        try browser.emulatePhone(width: 390, height: 844)
        func inspect(_ page: String) throws {
            for scheme in ["light", "dark"] {
                try browser.emulateColorScheme(scheme)
                let fit = try browser.run(ResponsiveBrowserTests.widthScript) as? [Any] ?? []
                let scrollWidth = fit.first as? Int ?? .max, viewport = fit.count > 1 ? fit[1] as? Int ?? 0 : 0
                log.expect(viewport == 390, "the viewport is \(viewport) px wide, not 390")
                log.expect(scrollWidth <= viewport, "\(page): \(scrollWidth) px wide on a \(viewport) px screen; past it: \(fit.last as? String ?? "?")")
                let violations = try audit.violations(in: browser)
                log.expect(violations.isEmpty, "axe-core on \(page) (\(scheme)):\n" + violations.joined(separator: "\n"))
            }
            try browser.emulateColorScheme("light")
        }
        func logIn(_ email: String) throws {
            try browser.deleteCookies()
            try browser.go(base + "/login")
            try browser.fill("#email", email)
            try browser.fill("#password", BrowserTests.password)
            try browser.click("form[action='/login'] button[type=submit]")
            try browser.wait("the overview for \(email)") { try !browser.currentURL.contains("/login") && browser.exists("h1") }
        }

        // Each section: its own page, its link marked current and on the screen, the page within the phone.
        for email in [BrowserTests.email, viewerEmail] {
            try logIn(email)
            for section in sections {
                try browser.go(base + section)
                log.expect(try browser.exists("main h1"), "\(email) sees \(section)")
                log.expect(try ResponsiveBrowserTests.shown(".section-nav a[href='\(section)'][aria-current=page]", in: browser),
                           "\(section): its link in the section navigation is current and on the screen")
                try inspect(section)
                try browser.screenshot("\(email == viewerEmail ? "read-only" : "admin")\(section.replacingOccurrences(of: "/", with: "-"))")
            }
            // The channel's row is a card on a phone: its target is on the screen, led by its column's name.
            try browser.go(base + "/settings/channels")
            log.expect(try ResponsiveBrowserTests.shown("td[data-label=Target]", in: browser), "the channel's target is shown on a phone")
        }

        try logIn(BrowserTests.email)
        try channelForms(browser, base: base, log: log, inspect: inspect)
        try testerSearch(browser, base: base, needleID: needleID, log: log, inspect: inspect)
        browser.quit()
        log.expect(try serve.terminate() == 0, "\(serve.standardError)")
    }

    /// The chooser leads to one kind's form; a refused form comes back as that kind with the values kept.
    static func channelForms(_ browser: HeadlessChromium, base: String, log: ExpectationLog, inspect: (String) throws -> Void) throws {
        try browser.go(base + "/settings/channels")
        try browser.click("a[href='/channels/new']")
        try browser.wait("the kinds") { try browser.exists("ul.kinds") }
        try inspect("/channels/new")
        try browser.click("a[href='/channels/new?kind=slack']")
        try browser.wait("Slack's form") { try browser.currentURL.hasSuffix("/channels/new?kind=slack") && browser.exists("#target") }
        try inspect("/channels/new?kind=slack")
        for absent in ["#credential", "#recipient", "#template"] {
            log.expect(try !browser.exists(absent), "Slack's form has no \(absent)")
        }

        try browser.go(base + "/channels/new?kind=telegram")
        try inspect("/channels/new?kind=telegram")
        log.expect(try browser.exists("#credential") && browser.exists("#recipient"), "Telegram's form asks for the bot token and the chat id")
        log.expect(try !browser.exists("#template"), "Telegram's form has no template")
        try browser.fill("#channel-name", "on-call phone")
        try browser.fill("#credential", "123456:SECRET-token")
        try browser.select("#min-severity", value: "warning")
        // No chat id: refused.
        try browser.click("form[action='/channels'] button[type=submit]")
        try browser.wait("the refused form") { try browser.exists(".error-text") }
        log.expect(try browser.text(".error-text").contains("chat id"), "the refusal names the chat id")
        log.expect(try browser.value("input[name=kind]") == "telegram" && browser.exists("#recipient") && !browser.exists("#template"),
                   "the refused form is Telegram's again")
        log.expect(try browser.value("#channel-name") == "on-call phone", "the name typed is kept")
        log.expect(try browser.value("#min-severity") == "warning", "the severity chosen is kept")
        log.expect(try browser.value("#credential").isEmpty && !browser.source.contains("SECRET-token"), "the token is not sent back")
        try inspect("/channels (refused)")
        try browser.fill("#recipient", "-100123")
        try browser.fill("#credential", "123456:SECRET-token")
        try browser.click("form[action='/channels'] button[type=submit]")
        try browser.wait("the channels section") { try browser.currentURL.contains("/settings/channels") }
        log.expect(try browser.text("main").contains("Channel added."), "the channel is added")
    }

    /// The chooser lists a few domains, not every one; the search offers the one asked for, and the test uses it.
    static func testerSearch(_ browser: HeadlessChromium, base: String, needleID: Int64, log: ExpectationLog,
                             inspect: (String) throws -> Void) throws {
        try browser.go(base + "/tester")
        let listed = try browser.elements("#domain option").count
        log.expect(listed <= 21, "the chooser lists \(listed) options, not every one of \(manyDomains + 1) domains")
        log.expect(try !browser.exists("#domain option[value='\(needleID)']"), "\(needle) is not listed before a search")
        try inspect("/tester")
        try browser.fill("#find", "needle")
        try browser.click("input[type=submit][form=domain-search]")
        try browser.wait("the search's answer") { try browser.currentURL.contains("find=needle") }
        log.expect(try browser.exists("#domain option[value='\(needleID)']"), "the search offers \(needle)")
        log.expect(try browser.elements("#domain option").count == 2, "only \(needle) matches (and the empty choice)")
        log.expect(try browser.text("#domain-note").contains("1 domain matches"), "the note says how many match")
        try inspect("/tester?find=needle")
        try browser.select("#domain", value: String(needleID))
        try browser.fill("#url", "https://\(needle)/p/1")
        try browser.click("form[action='/tester'][method=post] button[type=submit]")
        try browser.wait("the tester's answer") { try browser.exists("#apple-answer") || browser.exists(".error-text") }
        log.expect(try browser.source.contains("\(needle) has no stored file yet"), "the test used \(needle)'s stored file")
        log.expect(try browser.value("#domain") == String(needleID), "the chooser keeps \(needle)")
    }
}
