import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// Every page on a phone (390×844) and a desktop (1366×900), as an admin and as a read-only user, in
/// the light and the dark scheme, over a fleet that holds what widens pages: a domain with a long name
/// watched on both platforms, whose assetlinks.json lists two SHA-256 fingerprints while the app
/// expects one of them and a third (so Android fails: the page shows Google's debugString with a whole
/// fingerprint per line, the findings and an open alert), and a webhook channel with a long URL. On each page: nothing is wider than the
/// viewport, and axe-core reports nothing; on the phone the navigation starts folded and opens, and the
/// overview's first row shows its state, platforms and reason.
@Suite(.serialized) struct ResponsiveBrowserTests {
    static let viewerEmail = "viewer@example.com"
    static let package = "com.example.fleet"
    static let fingerprints = ["AA:" + Array(repeating: "11", count: 31).joined(separator: ":"),
                               "BB:" + Array(repeating: "C2", count: 31).joined(separator: ":"),
                               "CC:" + Array(repeating: "D3", count: 31).joined(separator: ":")]
    static let webhook = "https://hooks.example.test/services/aasa-monitor/T0123456789/B0123456789/a-long-path-without-any-break-in-it"

    @Test func everyPageFitsAPhoneAndADesktopAndPassesAxeForBothRolesAndSchemes() async throws {
        let log = ExpectationLog()
        defer { log.recordIssues() }
        try await DedicatedThread.run { try Self.flow(log) }
    }

    struct Size {
        let name: String
        let width: Int
        let height: Int
        var isPhone: Bool { width < 720 }
    }

    static func flow(_ log: ExpectationLog) throws {
        let audit = try AccessibilityAudit()
        let fleet = try TestTLSFleet()
        defer { fleet.stop() }
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }

        let host = fleet.host("an-apple-and-android-domain-with-a-rather-long-name")
        let aasa = #"{"applinks": {"details": [{"appIDs": ["\#(FleetFiles.appID)"], "components": [{"/": "/*"}]}]}}"#
        // The file lists the first two keys, the app expects the first and the third: Android fails for
        // the third, and Google's debugString lists a statement, with its whole fingerprint, per key.
        let assetLinks = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["\#(fingerprints[0])", "\#(fingerprints[1])"]}}]"#
        for site in ["_default", host] {
            try fleet.deploy(aasa, at: "/.well-known/apple-app-site-association", site: site)
            try fleet.deploy(assetLinks, at: "/.well-known/assetlinks.json", site: site)
        }
        try fleet.deploy(aasa, at: "/cdn/\(host)")
        let environment = [
            "DATABASE_URL": database.url, "AASA_MONITOR_ALLOW_PRIVATE": "1", "AASA_MONITOR_CA_FILE": fleet.caFile,
            "AASA_MONITOR_CONNECT_TO": fleet.connectTo.joined(separator: ","), "AASA_MONITOR_CDN_BASE": "https://\(host)/cdn",
            "AASA_MONITOR_GOOGLE_DAL_BASE": fleet.googleDALBase,
        ]
        func command(_ arguments: [String], stdin: String = "") throws {
            let outcome = try BuiltCommand.run(arguments, stdin: Array(stdin.utf8), environment: environment)
            _ = try log.require(outcome.status == 0 ? outcome : nil, "\(arguments.prefix(2).joined(separator: " ")): \(outcome.stderr)")
        }
        try command(["user", "create", "--admin", "--password-stdin", BrowserTests.email], stdin: "\(BrowserTests.password)\n")
        try command(["user", "create", "--password-stdin", viewerEmail], stdin: "\(BrowserTests.password)\n")
        try command(["app", "add", "--name", "Fleet shop", "--app-id", FleetFiles.appID, "--domain", "applinks:\(host)",
                     "--package", package, "--fingerprint", fingerprints[0], "--fingerprint", fingerprints[2],
                     "--android-host", host, "--url", "https://\(host)/products/a-long-product-path-that-goes-on/42"])
        try command(["channel", "add", "webhook", webhook, "--name", "Team hook"])
        let domainID = try log.require(try db.domainID(host: host, wildcard: false), "\(host) registered by the app")
        let appID = try log.require(try db.apps().first?.id, "the app")
        let channelID = try log.require(try db.channels().first?.id, "the channel")

        let serve = try ServeProcess(arguments: ["--no-notify"], environment: environment)
        let base = "http://127.0.0.1:\(try serve.waitForPort())"
        // Two failing checks open the alert the alerts page lists.
        func settled(after before: Date?) -> Bool {
            guard let domain = try? db.domain(id: domainID) else { return false }
            return domain.lastCheckedAt != nil && domain.lastCheckedAt != before && !domain.isChecking(now: Date())
        }
        log.expect(waitUntil(timeout: .seconds(90), poll: .milliseconds(200)) { settled(after: nil) }, "the first check of \(host)")
        let first = try db.domain(id: domainID)?.lastCheckedAt
        _ = try db.requestCheck(domainID: domainID)
        log.expect(waitUntil(timeout: .seconds(90), poll: .milliseconds(200)) { settled(after: first) }, "the second check of \(host)")

        let everyone = ["/", "/?state=failing", "/domains/\(domainID)", "/apps", "/apps/\(appID)", "/tester?domain=\(domainID)",
                        "/alerts", "/settings", "/settings/users", "/settings/channels", "/settings/alerts", "/account/password"]
        let adminOnly = ["/domains/new", "/domains/\(domainID)/edit", "/domains/\(domainID)/delete", "/apps/new",
                         "/apps/\(appID)/edit", "/apps/\(appID)/delete", "/channels/\(channelID)/edit", "/channels/new",
                         "/channels/new?kind=custom-webhook"]
        for size in [Size(name: "phone", width: 390, height: 844), Size(name: "desktop", width: 1366, height: 900)] {
            let browser = try HeadlessChromium(screenshotDirectory: BrowserTests.screenshotDirectory().deletingLastPathComponent()
                .appendingPathComponent("responsive-\(size.name)"), windowWidth: size.isPhone ? 800 : size.width, windowHeight: size.height)
            defer { browser.quit() }
            if size.isPhone { try browser.emulatePhone(width: size.width, height: size.height) }
            func inspect(_ page: String) throws {
                for scheme in ["light", "dark"] {
                    try browser.emulateColorScheme(scheme)
                    let fit = try browser.run(Self.widthScript) as? [Any] ?? []
                    let scrollWidth = fit.first as? Int ?? .max, viewport = fit.count > 1 ? fit[1] as? Int ?? 0 : 0
                    log.expect(viewport == size.width, "\(size.name): the viewport is \(viewport) px wide, not \(size.width)")
                    log.expect(scrollWidth <= viewport, "\(size.name) \(page): the page is \(scrollWidth) px wide on a \(viewport) px screen; "
                        + "reaching past it: \(fit.last as? String ?? "?")")
                    let violations = try audit.violations(in: browser)
                    log.expect(violations.isEmpty, "axe-core on \(page) (\(size.name), \(scheme)):\n" + violations.joined(separator: "\n"))
                }
                try browser.emulateColorScheme("light")
            }

            try browser.go(base + "/login")
            try inspect("/login")
            for (email, pages) in [(BrowserTests.email, everyone + adminOnly), (viewerEmail, everyone)] {
                try browser.deleteCookies()
                try browser.go(base + "/login")
                try browser.fill("#email", email)
                try browser.fill("#password", BrowserTests.password)
                try browser.click("form[action='/login'] button[type=submit]")
                try browser.wait("the overview for \(email)") { try !browser.currentURL.contains("/login") && browser.exists("h1") }
                for page in pages {
                    try browser.go(base + page)
                    log.expect(try !browser.currentURL.contains("/login") && browser.exists("main h1"), "\(email) sees \(page)")
                    try inspect(page)
                    let role = email == viewerEmail ? "read-only" : "admin"
                    try browser.screenshot("\(role)\(page.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "?", with: "-"))")
                }

                try browser.go(base + "/")
                if size.isPhone {
                    // The menu starts folded; its button opens it, without leaving the page.
                    log.expect(try browser.run("return document.querySelector('.main-nav').getBoundingClientRect().height;") as? Int == 0,
                               "the phone's menu starts folded")
                    try browser.click(".menu-button")
                    log.expect(try Self.shown(".main-nav a[href='/alerts']", in: browser), "the menu opens: Alerts is on the screen")
                    try browser.screenshot("\(email == viewerEmail ? "read-only" : "admin")-menu-open")
                    // The first row: state, each platform's state and the reason, all on the screen.
                    for part in ["main tbody tr:first-child td[data-label=State] .pill", "main tbody tr:first-child td.platforms .pill",
                                 "main tbody tr:first-child .reason"] {
                        log.expect(try Self.shown(part, in: browser), "the overview's first row shows \(part) on a phone")
                    }
                } else {
                    log.expect(try Self.shown(".main-nav a[href='/alerts']", in: browser), "the desktop's menu is open")
                    log.expect(try !Self.shown(".menu-button", in: browser), "the desktop has no menu button")
                }
            }
            // The domain page holds the tokens that widened it: the fingerprints and Google's debugString.
            try browser.go("\(base)/domains/\(domainID)")
            let page = try browser.source
            log.expect(page.contains("INFO MESSAGES") && page.contains("certificate fingerprint \(fingerprints[1])"),
                       "the domain page shows Google's debugString with the fingerprints")
            browser.quit()
        }
        log.expect(try serve.terminate() == 0, "\(serve.standardError)")
    }

    /// [the document's scroll width, the layout viewport's width, the outermost elements reaching past it].
    /// The layout viewport, not `innerWidth`: a mobile browser zooms out to a page wider than the
    /// screen, and `innerWidth` grows with it.
    static let widthScript = """
        var width = document.documentElement.clientWidth, wide = [];
        function name(e) {
          return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
            + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
        }
        // An element reaches past the screen by its box, or by content it lets overflow (a long word).
        function reach(e) {
          var r = e.getBoundingClientRect(), style = getComputedStyle(e);
          var clips = /(auto|scroll|hidden|clip)/.test(style.overflowX);
          return r.width === 0 ? 0 : Math.max(r.right, clips ? r.right : r.left + e.scrollWidth);
        }
        document.querySelectorAll('body *').forEach(function (e) {
          if (reach(e) <= width + 0.5) { return; }
          for (var p = e.parentElement; p && p !== document.body; p = p.parentElement) {
            if (/(auto|scroll|hidden|clip)/.test(getComputedStyle(p).overflowX)) { return; }
          }
          var q = e.parentElement;
          if (q && q !== document.body && reach(q) > width + 0.5 && q.getBoundingClientRect().right > width + 0.5) { return; }
          wide.push(name(e) + ' to ' + Math.round(reach(e)) + ' px');
        });
        return [document.documentElement.scrollWidth, width, wide.slice(0, 10).join(', ')];
        """

    /// Whether the element is laid out, visible and within the viewport's width.
    static func shown(_ css: String, in browser: HeadlessChromium) throws -> Bool {
        try browser.run("""
            var e = document.querySelector(arguments[0]);
            if (!e) { return false; }
            var r = e.getBoundingClientRect(), style = getComputedStyle(e);
            return r.width > 0 && r.height > 0 && style.display !== 'none' && style.visibility !== 'hidden'
              && r.left >= 0 && r.right <= document.documentElement.clientWidth;
            """, [css]) as? Bool ?? false
    }
}
