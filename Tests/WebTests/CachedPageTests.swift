import Testing
import Foundation
@testable import Store
import Vocabulary
import TestSupport
@testable import Web

/// The overview and session lookups are cached while the change feed listens. These tests run with
/// the feed live and a cache lifetime of an hour, so a page that changes can only have been
/// refreshed by the change itself (made through the app, or notified by PostgreSQL for a change by
/// another process); each test also shows that the cache is really in use, so none of them can
/// pass by the cache doing nothing.
@Suite(.serialized) struct CachedPageTests {
    static let app = "ABCDE12345.com.example.app"

    /// Runs `body` with an app whose change feed is live; the feed stops before the database goes.
    func withLiveApp(lifetime: Duration = .seconds(3600), _ body: (Database, WebApp) throws -> Void) throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            var configuration = TestApp.configuration
            configuration.overviewCacheLifetime = lifetime
            configuration.sessionCacheLifetime = .seconds(3600)
            let app = WebApp(database: db, configuration: configuration)
            app.startChangeFeed()
            defer { app.stopChangeFeed() }
            #expect(eventually { app.changes.isLive }, "the change feed did not start listening")
            try body(db, app)
        }
    }

    /// Polls `condition` until it holds or `timeout` passes (a notification arrives asynchronously).
    /// Generous: on a slow, loaded machine a notification may take a while, and a passing test never
    /// waits the whole time.
    func eventually(_ timeout: Duration = .seconds(60), _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if try condition() { return true }
            if ContinuousClock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Waits until the notifications of earlier writes have been counted (neither counter moved
    /// for half a second): a late one would refresh the cache and hide what `silently` shows. Then
    /// ask for the page once, so the cache holds it as of now.
    func settle(_ app: WebApp) {
        let deadline = ContinuousClock.now + .seconds(10)
        var last = (app.changes.dataGeneration, app.changes.accountsGeneration)
        var stableSince = ContinuousClock.now
        while ContinuousClock.now < deadline && ContinuousClock.now - stableSince < .milliseconds(500) {
            Thread.sleep(forTimeInterval: 0.02)
            let now = (app.changes.dataGeneration, app.changes.accountsGeneration)
            if now != last { last = now; stableSince = ContinuousClock.now }
        }
    }

    /// Both change counters: if they are the same before a page is cached and after it is shown
    /// again, no notification arrived in between, so the page can only have come from the cache.
    func generations(_ app: WebApp) -> [UInt64] {
        [app.changes.dataGeneration, app.changes.accountsGeneration]
    }

    /// A change that fires no trigger (so no notification): what the page shows after it tells
    /// whether the page came from the cache. Call `settle` first. `settle` is a heuristic (a quiet
    /// half second): on a slow, loaded machine a late notification of an earlier write may still
    /// arrive, refresh the page and show the silent change; the checks that the cache is in use are
    /// therefore made only when `generations` says that no notification arrived meanwhile.
    func silently(_ db: Database, _ sql: SQL, _ parameters: any SQLEncodable...) throws {
        try db.withTransaction { c in
            _ = try c.execute("SET LOCAL session_replication_role = replica")
            _ = try c.query(sql, parameters)
        }
    }

    func domain(_ db: Database, _ host: String) throws -> Int64 {
        guard case .created(let id) = try db.createDomain(DomainDraft(host: host, displayName: host, wildcard: false,
                                                                       intervalSeconds: 3600, badgeEnabled: false, appIDs: [],
                                                                       watchedURLs: [])) else {
            throw WebError.badRequest("\(host) exists")
        }
        _ = try db.execute("UPDATE domains SET check_requested_at = NULL WHERE id = $1", id)
        return id
    }

    @Test func changesByOtherProcessesReachTheCachedOverview() throws {
        try withLiveApp { db, app in
            let client = WebClient(app: app)
            client.setUpAdmin()
            // Another process (a crawler worker, the CLI) registers a domain.
            let id = try domain(db, "alpha.example")
            #expect(eventually { client.get("/").bodyText.contains("alpha.example") })

            // The cache is in use: a change without a notification is not seen.
            settle(app)
            let quiet = generations(app)
            client.get("/")   // cached as of now
            try silently(db, "UPDATE domains SET display_name = 'renamed.example' WHERE id = $1", id)
            let page = client.get("/").bodyText
            if generations(app) == quiet {
                #expect(page.contains("alpha.example"))
                #expect(!page.contains("renamed.example"))
            }

            // A worker writes a failing check: the overview shows it.
            _ = try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date(), finishedAt: Date(), verdict: .fail, originBody: nil,
                                               findings: [Finding(code: "x", severity: .error, message: "Boom from a worker")],
                                               latencyMilliseconds: 12, changed: true))
            #expect(eventually {
                let page = client.get("/").bodyText
                return page.contains("Boom from a worker") && page.contains("state-failing") && page.contains("renamed.example")
            })

            // An alert opens: the count shows.
            settle(app)
            client.get("/")   // cached as of now
            try silently(db, "UPDATE domains SET display_name = 'alpha.example' WHERE id = $1", id)
            _ = try db.execute("""
                INSERT INTO alerts (domain_id, rule, subject, severity, summary, state, opened_at)
                VALUES ($1, 'failing', '', 'critical', 'down', 'open', now())
                """, id)
            #expect(eventually {
                let page = client.get("/").bodyText
                return page.contains("class=\"alert-count\" href=\"/alerts\">1</a>") && page.contains("alpha.example")
            })

            // The domain is removed elsewhere: gone from the overview.
            _ = try db.execute("DELETE FROM domains WHERE id = $1", id)
            #expect(eventually { client.get("/").bodyText.contains("No domains yet") })
        }
    }

    /// Each page of the overview is cached under its own key: page 2 (numbered, or by keyset) is
    /// not page 1 served again (the key once left the page number out).
    @Test func eachPageIsCachedApart() throws {
        try withLiveApp { db, app in
            let client = WebClient(app: app)
            client.setUpAdmin()
            try db.execute("INSERT INTO domains (host, display_name) SELECT 'p' || g || '.example', 'p' || g || '.example' FROM generate_series(10, 69) g")
            settle(app)
            let first = client.get("/?sort=host").bodyText
            #expect(first.contains("p10.example") && first.contains("page 1 of 2"))
            for target in ["/?sort=host&page=2", "/?sort=host&page=2", "/?sort=host&page=2&after=\(try db.value("SELECT id FROM domains WHERE host = 'p59.example'", as: Int64.self))"] {
                let second = client.get(target).bodyText
                #expect(second.contains("p60.example") && !second.contains("p10.example") && second.contains("page 2 of 2"), "\(target)")
            }
        }
    }

    @Test func changesThroughTheAppShowOnTheVeryNextPage() throws {
        try withLiveApp { db, app in
            let client = WebClient(app: app)
            client.setUpAdmin()
            #expect(client.get("/").bodyText.contains("No domains yet"))
            client.get("/domains/new")
            let created = client.post("/domains", [("host", "beta.example"), ("appid", Self.app), ("service", "applinks"),
                                                   ("interval", "60")])
            #expect(created.status == 303)
            let id = try #require(created.header("Location").flatMap { Int64($0.replacingOccurrences(of: "/domains/", with: "")) })
            // No waiting for the notification: the next page has it.
            let afterRegistration = client.get("/").bodyText
            #expect(afterRegistration.contains("beta.example") && afterRegistration.contains("state-checking"))

            // The cache is in use.
            settle(app)
            var quiet = generations(app)
            client.get("/")   // cached as of now
            try silently(db, "UPDATE domains SET check_requested_at = NULL WHERE id = $1", id)
            var page = client.get("/").bodyText
            if generations(app) == quiet { #expect(page.contains("state-checking")) }

            // Check now through the app.
            settle(app)
            client.get("/")   // cached as of now
            try silently(db, "UPDATE domains SET display_name = 'silent.example' WHERE id = $1", id)
            client.get("/domains/\(id)")
            #expect(client.post("/domains/\(id)/check").status == 303)
            #expect(client.get("/").bodyText.contains("silent.example"))

            // Edit through the app (nothing the overview shows changes, but the page is recomputed:
            // the silent rename shows).
            settle(app)
            quiet = generations(app)
            client.get("/")   // cached as of now
            try silently(db, "UPDATE domains SET display_name = 'edited.example' WHERE id = $1", id)
            page = client.get("/").bodyText
            if generations(app) == quiet { #expect(page.contains("silent.example")) }
            client.get("/domains/\(id)/edit")
            #expect(client.post("/domains/\(id)/edit", [("appid", Self.app), ("service", "webcredentials"), ("interval", "60")]).status == 303)
            #expect(client.get("/").bodyText.contains("edited.example"))

            // Delete through the app.
            client.get("/domains/\(id)/delete")
            #expect(client.post("/domains/\(id)/delete").status == 303)
            #expect(client.get("/").bodyText.contains("No domains yet"))
        }
    }

    @Test func relativeTimesAgeAtMostTheCacheLifetime() throws {
        try withLiveApp(lifetime: .milliseconds(200)) { db, app in
            let client = WebClient(app: app)
            client.setUpAdmin()
            let id = try domain(db, "gamma.example")
            #expect(eventually { client.get("/").bodyText.contains("gamma.example") })
            // Time passes with nothing written (here: a check's time moves back without a notification,
            // as "just now" becomes "5 min ago"): the page follows within the lifetime.
            settle(app)
            client.get("/")   // cached as of now
            try silently(db, "UPDATE domains SET last_checked_at = now() - interval '5 minutes' WHERE id = $1", id)
            #expect(eventually { client.get("/").bodyText.contains("5 min ago") })
        }
    }

    @Test func cachedOverviewKeepsEveryViewersOwnHeader() throws {
        try withLiveApp { db, app in
            let admin = WebClient(app: app)
            admin.setUpAdmin(email: "first-admin@example.com")
            _ = try domain(db, "delta.example")
            admin.get("/settings")
            #expect(admin.post("/users", [("email", "second-admin@example.com"), ("password", "second passphrase"),
                                          ("role", "admin")]).status == 303)
            #expect(admin.post("/users", [("email", "viewer@example.com"), ("password", "viewer passphrase"),
                                          ("role", "viewer")]).status == 303)
            let second = WebClient(app: app)
            #expect(second.logIn(email: "second-admin@example.com", password: "second passphrase").status == 303)
            let viewer = WebClient(app: app)
            #expect(viewer.logIn(email: "viewer@example.com", password: "viewer passphrase").status == 303)

            let adminPage = admin.get("/").bodyText
            let adminToken = admin.csrf
            let secondPage = second.get("/").bodyText
            let secondToken = second.csrf
            let viewerPage = viewer.get("/").bodyText
            let viewerToken = viewer.csrf
            #expect(Set([adminToken, secondToken, viewerToken]).count == 3 && !adminToken.isEmpty)

            // Each page carries its own viewer's name and CSRF token, and nobody else's.
            let pages = [(adminPage, "first-admin@example.com", adminToken), (secondPage, "second-admin@example.com", secondToken),
                         (viewerPage, "viewer@example.com", viewerToken)]
            for (page, email, token) in pages {
                #expect(page.contains(email) && page.contains("value=\"\(token)\""))
                for (_, otherEmail, otherToken) in pages where otherEmail != email {
                    #expect(!page.contains(otherEmail) && !page.contains(otherToken))
                }
            }
            // The role decides the buttons: a read-only viewer gets no register button from an admin's page.
            #expect(adminPage.contains("Add a domain") && secondPage.contains("Add a domain"))
            #expect(!viewerPage.contains("Add a domain") && !viewerPage.contains("href=\"/domains/new\""))
            #expect(viewerPage.contains("delta.example"))

            // The admins' content came from one cached rendering: identical after the header.
            func main(_ page: String) -> Substring { page[(page.range(of: "<main>")?.lowerBound ?? page.startIndex)...] }
            #expect(main(adminPage) == main(secondPage))
            // And each token works for its own session (the logout form on the cached page).
            let secondSession = try #require(second.cookies[SessionCookie.sessionName])
            #expect(second.post("/logout").header("Location") == "/login")
            second.cookies[SessionCookie.sessionName] = secondSession
            #expect(second.get("/").status == 303)
            #expect(admin.get("/").status == 200 && viewer.get("/").status == 200)
        }
    }

    @Test func sessionsEndAtOnceWhileLookupsAreCached() throws {
        try withLiveApp { db, app in
            let first = WebClient(app: app)
            first.setUpAdmin(email: "a@example.com", password: "correct horse battery")
            let second = WebClient(app: app)
            #expect(second.logIn(email: "a@example.com", password: "correct horse battery").status == 303)
            let third = WebClient(app: app)
            #expect(third.logIn(email: "a@example.com", password: "correct horse battery").status == 303)
            for client in [first, second, third] { #expect(client.get("/settings").status == 200) }

            // The cache is in use: a session that ends without a notification still works.
            let thirdToken = try #require(third.cookies[SessionCookie.sessionName])
            settle(app)
            let quiet = generations(app)
            third.get("/settings")   // cached as of now
            try silently(db, "DELETE FROM sessions WHERE token_hash = $1", SecretToken.digest(of: thirdToken))
            let status = third.get("/settings").status
            if generations(app) == quiet { #expect(status == 200) }

            // Logout ends the session on the very next request, even for a browser that keeps the cookie.
            let secondToken = try #require(second.cookies[SessionCookie.sessionName])
            #expect(second.post("/logout").header("Location") == "/login")
            second.cookies[SessionCookie.sessionName] = secondToken
            #expect(second.get("/settings").status == 303)
            // That also dropped the cached lookups, so the silently ended session is gone too.
            #expect(third.get("/settings").status == 303)

            // A password change ends the other sessions on their very next request.
            #expect(second.logIn(email: "a@example.com", password: "correct horse battery").status == 303)
            #expect(second.get("/settings").status == 200)
            first.get("/account/password")
            #expect(first.post("/account/password", [("current", "correct horse battery"), ("password", "new passphrase!"),
                                                     ("confirm", "new passphrase!")]).status == 303)
            #expect(second.get("/settings").status == 303)
            #expect(first.get("/settings").status == 200)

            // Another process ends a session (`aasa-monitor user remove`, another serve): seen once notified.
            let firstToken = try #require(first.cookies[SessionCookie.sessionName])
            _ = try db.execute("DELETE FROM sessions WHERE token_hash = $1", SecretToken.digest(of: firstToken))
            #expect(eventually { first.get("/settings").status == 303 })
        }
    }

    @Test func removingAUserEndsTheirCachedSession() throws {
        try withLiveApp { db, app in
            let admin = WebClient(app: app)
            admin.setUpAdmin()
            admin.get("/settings")
            #expect(admin.post("/users", [("email", "viewer@example.com"), ("password", "viewer passphrase"), ("role", "viewer")]).status == 303)
            let viewer = WebClient(app: app)
            #expect(viewer.logIn(email: "viewer@example.com", password: "viewer passphrase").status == 303)
            #expect(viewer.get("/").status == 200)
            let id = try #require(try db.users().first { $0.email == "viewer@example.com" }?.id)
            admin.get("/settings")
            #expect(admin.post("/users/\(id)/delete").status == 303)
            #expect(viewer.get("/").status == 303)
        }
    }
}
