import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// The overview's bulk actions and the browser import in real Chromium against the built `serve`,
/// on a phone (390×844) and a desktop (1366×900): rows are ticked and an action chosen by clicking,
/// the confirmation names the count, and only the ticked rows (or all the filter matches) change in
/// PostgreSQL; the import's preview (of a pasted list on the phone, an uploaded file on the desktop)
/// writes nothing until its button is pressed. Every page on the
/// way fits the viewport and passes axe-core, light and dark.
@Suite(.serialized) struct BulkBrowserTests {
    static let shop = ["a.shop.example", "b.shop.example", "c.shop.example", "d.shop.example"]
    static let other = ["x.other.example", "y.other.example"]

    @Test func tickedRowsAndAllMatchingChangeExactlyThoseAndTheImportPreviewWritesNothing() async throws {
        let log = ExpectationLog()
        defer { log.recordIssues() }
        try await DedicatedThread.run { try Self.flow(log) }
    }

    static func flow(_ log: ExpectationLog) throws {
        let audit = try AccessibilityAudit()
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        let environment = ["DATABASE_URL": database.url, "AASA_MONITOR_ALLOW_PRIVATE": "1"]
        func command(_ arguments: [String], stdin: String = "") throws {
            let outcome = try BuiltCommand.run(arguments, stdin: Array(stdin.utf8), environment: environment)
            _ = try log.require(outcome.status == 0 ? outcome : nil, "\(arguments.prefix(2).joined(separator: " ")): \(outcome.stderr)")
        }
        try command(["user", "create", "--admin", "--password-stdin", BrowserTests.email], stdin: "\(BrowserTests.password)\n")
        try command(["import", "-"], stdin: (shop + other).joined(separator: "\n"))
        var ids: [String: Int64] = [:]
        for host in shop + other { ids[host] = try log.require(try db.domainID(host: host, wildcard: false), "\(host) imported") }
        func paused() throws -> Set<String> { Set(try db.rows("SELECT host FROM domains WHERE paused").map { try $0.decode("host") }) }
        func hosts() throws -> Set<String> { Set(try db.rows("SELECT host FROM domains").map { try $0.decode("host") }) }

        // No crawling: the domains stay as imported, so nothing but the clicks changes them.
        let serve = try ServeProcess(arguments: ["--no-crawl", "--no-notify"], environment: environment)
        let base = "http://127.0.0.1:\(try serve.waitForPort())"
        for size in [ResponsiveBrowserTests.Size(name: "phone", width: 390, height: 844),
                     ResponsiveBrowserTests.Size(name: "desktop", width: 1366, height: 900)] {
            let browser = try HeadlessChromium(screenshotDirectory: BrowserTests.screenshotDirectory().deletingLastPathComponent()
                .appendingPathComponent("bulk-\(size.name)"), windowWidth: size.isPhone ? 800 : size.width, windowHeight: size.height)
            defer { browser.quit() }
            if size.isPhone { try browser.emulatePhone(width: size.width, height: size.height) }
            func inspect(_ page: String) throws {
                let fit = try browser.run(ResponsiveBrowserTests.widthScript) as? [Any] ?? []
                let scrollWidth = fit.first as? Int ?? .max, viewport = fit.count > 1 ? fit[1] as? Int ?? 0 : 0
                log.expect(viewport == size.width, "\(size.name): the viewport is \(viewport) px wide, not \(size.width)")
                log.expect(scrollWidth <= viewport, "\(size.name) \(page): the page is \(scrollWidth) px wide on a \(viewport) px screen; "
                    + "reaching past it: \(fit.last as? String ?? "?")")
                for scheme in ["light", "dark"] {
                    try browser.emulateColorScheme(scheme)
                    let violations = try audit.violations(in: browser)
                    log.expect(violations.isEmpty, "axe-core on \(page) (\(size.name), \(scheme)):\n" + violations.joined(separator: "\n"))
                }
                try browser.emulateColorScheme("light")
                _ = try browser.screenshot(page)
            }
            try browser.go(base + "/login")
            try browser.fill("#email", BrowserTests.email)
            try browser.fill("#password", BrowserTests.password)
            try browser.click("form[action='/login'] button[type=submit]")
            try browser.wait("the overview") { try !browser.currentURL.contains("/login") && browser.exists("#bulk") }
            try inspect("overview")

            // Tick two rows, choose Pause, confirm: those two are paused, no other.
            let ticked = size.isPhone ? ["b.shop.example", "y.other.example"] : ["a.shop.example", "d.shop.example"]
            let pausedBefore = try paused()
            for host in ticked { try browser.click("input[name=id][value='\(ids[host] ?? 0)']") }
            try browser.select("#bulk-action", value: "pause")
            try browser.click("#bulk button[type=submit]")
            try browser.wait("the confirmation") { try browser.exists("main h1") && browser.text("main h1") == "Pause 2 domains?" }
            try inspect("confirm-pause")
            log.expect(try paused() == pausedBefore, "asking changes nothing")
            try browser.click("main form[action='/domains/bulk'] button[type=submit]")
            try browser.wait("the banner") { try browser.exists(".flash") }
            let pausedBanner = try browser.text(".flash"), pausedNow = try paused()
            log.expect(pausedBanner.contains("Paused 2 domains."), "the banner: \(pausedBanner)")
            log.expect(pausedNow == pausedBefore.union(ticked), "exactly the ticked rows are paused: \(pausedNow)")
            try inspect("overview-paused")

            // All that match a search: resume them; the ones outside the search stay paused.
            try browser.go(base + "/?q=shop")
            try browser.click("#bulk input[name=all]")
            try browser.select("#bulk-action", value: "resume")
            try browser.click("#bulk button[type=submit]")
            try browser.wait("the confirmation for all matching") { try browser.exists("main h1") && browser.text("main h1") == "Resume 4 domains?" }
            try browser.click("main form[action='/domains/bulk'] button[type=submit]")
            try browser.wait("the banner") { try browser.exists(".flash") }
            let resumedBanner = try browser.text(".flash"), stillPaused = try paused()
            log.expect(resumedBanner.contains("Resumed"), "the banner: \(resumedBanner)")
            log.expect(stillPaused == pausedBefore.union(ticked).subtracting(shop), "only the search's domains resumed: \(stillPaused)")

            // The import: the preview lists each line's outcome and writes nothing; its button registers.
            let before = try hosts()
            let fresh = "\(size.name)-new.example"
            try browser.go(base + "/")
            try browser.click("a[href='/domains/import']")
            try browser.wait("the import page") { try browser.exists("#list") }
            try inspect("import")
            let list = "\(fresh)\nb.shop.example\nnot a host!\n"
            // The desktop uploads the list as a file (a multipart form) instead of pasting it; the file
            // stays until the browser has sent it.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("bulk-import-\(getpid()).csv")
            defer { try? FileManager.default.removeItem(at: file) }
            if size.isPhone {
                try browser.fill("#list", list)
            } else {
                try Data(list.utf8).write(to: file)
                try browser.upload("#file", path: file.path)
            }
            try browser.click("form[action='/domains/import/preview'] button[type=submit]")
            try browser.wait("the preview") { try browser.exists("main h1") && browser.text("main h1") == "Import preview" }
            try inspect("import-preview")
            let summary = try browser.text("main .card[role=status] p")
            log.expect(summary.hasPrefix("1 new, 1 registered already, 1 refused."), "the preview's summary: \(summary)")
            log.expect(try hosts() == before, "the preview writes nothing")
            try browser.click("form[action='/domains/import'] button[type=submit]")
            try browser.wait("the banner after the import") { try browser.exists(".flash") }
            let importedBanner = try browser.text(".flash")
            log.expect(importedBanner.contains("Imported 1 domain"), "the banner: \(importedBanner)")
            log.expect(try hosts() == before.union([fresh]), "the previewed new domain, and only it, is registered")
            browser.quit()
        }
        log.expect(try serve.terminate() == 0, "\(serve.standardError)")
    }
}
