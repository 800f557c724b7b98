import Foundation
import Registry
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Web

/// The overview's bulk actions and the browser import, through the web app against real PostgreSQL:
/// an action changes exactly the ticked rows, or exactly the rows the filter matches (the same set
/// the overview lists); the confirmation names the action and the count; read-only viewers see no
/// checkboxes and get 403; the import preview writes nothing, and its confirmation registers what
/// was previewed.
@Suite(.serialized) struct BulkActionTests {
    static let shop = ["a.shop.example", "b.shop.example", "c.shop.example", "d.shop.example"]
    static let other = ["x.other.example", "y.other.example", "z.other.example"]

    /// Admin signed in, the seven domains imported, the ids by host.
    func seeded(_ db: Database) throws -> (WebApp, WebClient, [String: Int64]) {
        let app = WebApp(database: db, configuration: TestApp.configuration)
        let client = WebClient(app: app)
        client.setUpAdmin()
        let report = try DomainRegistry(store: db).importList((Self.shop + Self.other).joined(separator: "\n"))
        #expect(report.added.count == 7)
        var ids: [String: Int64] = [:]
        for host in Self.shop + Self.other { ids[host] = try #require(try db.domainID(host: host, wildcard: false)) }
        return (app, client, ids)
    }

    func hosts(_ db: Database, where condition: SQL) throws -> Set<String> {
        Set(try db.rows("SELECT host FROM domains WHERE " + condition).map { try $0.decode("host") })
    }

    @Test func pauseChangesExactlyTheTickedRowsAfterAConfirmationThatNamesTheCount() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let (_, client, ids) = try seeded(db)
            let overview = client.get("/").bodyText
            for host in Self.shop + Self.other {
                #expect(overview.contains("name=\"id\" value=\"\(ids[host] ?? 0)\" form=\"bulk\""), "a checkbox for \(host)")
            }
            #expect(overview.contains("All 7 domains matching this filter"))
            let ticked = ["b.shop.example", "y.other.example"]
            let ask = client.get("/domains/bulk?action=pause&" + ticked.map { "id=\(ids[$0] ?? 0)" }.joined(separator: "&"))
            #expect(ask.status == 200)
            #expect(ask.bodyText.contains("<h1>Pause 2 domains?</h1>"), "\(ask.bodyText)")
            #expect(ask.bodyText.contains("<ul class=\"selected-domains\"><li>b.shop.example</li><li>y.other.example</li></ul>"),
                    "the confirmation names the ticked domains")
            #expect(try hosts(db, where: "paused").isEmpty, "asking changes nothing")
            let fields = [("action", "pause")] + ticked.map { ("id", String(ids[$0] ?? 0)) }
            #expect(client.post("/domains/bulk", fields, csrf: .some(nil)).status == 403, "no CSRF token, no change")
            #expect(try hosts(db, where: "paused").isEmpty)
            let done = client.post("/domains/bulk", fields)
            #expect(done.status == 303)
            #expect(try hosts(db, where: "paused") == Set(ticked))
            let after = client.get("/").bodyText
            #expect(after.contains("Paused 2 domains."), "the banner names what happened")
            #expect(after.components(separatedBy: "<span class=\"pill paused\"").count - 1 == 2, "the overview shows both as paused")

            // Pausing again a ticked paused one and one more: one changes, and the banner says so.
            let again = client.post("/domains/bulk", [("action", "pause"), ("id", String(ids["b.shop.example"] ?? 0)), ("id", String(ids["a.shop.example"] ?? 0))])
            #expect(again.status == 303)
            #expect(client.get("/").bodyText.contains("Paused 1 domain. 1 was paused already."))
            #expect(try hosts(db, where: "paused") == Set(ticked + ["a.shop.example"]))

            // Resume and delete, ticked.
            #expect(client.post("/domains/bulk", [("action", "resume"), ("id", String(ids["a.shop.example"] ?? 0))]).status == 303)
            #expect(try hosts(db, where: "paused") == Set(ticked))
            #expect(client.get("/domains/bulk?action=delete&id=\(ids["z.other.example"] ?? 0)&id=\(ids["x.other.example"] ?? 0)").bodyText
                .contains("<h1>Delete 2 domains?</h1>"))
            #expect(client.post("/domains/bulk", [("action", "delete"), ("id", String(ids["z.other.example"] ?? 0)),
                                                  ("id", String(ids["x.other.example"] ?? 0))]).status == 303)
            #expect(client.get("/").bodyText.contains("Deleted 2 domains and their history."))
            #expect(try hosts(db, where: "true") == Set(Self.shop + ["y.other.example"]))

            // Nothing ticked: back to the overview with why, nothing changed.
            let none = client.get("/domains/bulk?action=pause")
            #expect(none.status == 303)
            #expect(client.get("/").bodyText.contains("Tick the domains to change"))
        }
    }

    @Test func allMatchingChangesExactlyTheFiltersRowsAsTheOverviewListsThem() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let (_, client, ids) = try seeded(db)
            // Two shop domains fail, one other domain fails, one shop domain is paused.
            try db.execute("UPDATE domains SET last_verdict = 'fail' WHERE host = ANY($1::text[])",
                           SQLArray(["a.shop.example", "c.shop.example", "x.other.example"]))
            #expect(try db.setPaused(domainID: ids["c.shop.example"] ?? 0, true))
            try db.execute("UPDATE domains SET check_requested_at = NULL, first_check_queued_at = NULL")

            // The overview's own rows for the filter: the set the action must change.
            var filter = OverviewFilter.unfiltered
            (filter.search, filter.state, filter.pageSize) = ("shop", .failing, 1000)
            let listed = Set(try db.overview(filter).items.map(\.host))
            #expect(listed == ["a.shop.example", "c.shop.example"])

            let ask = client.get("/domains/bulk?action=check&all=1&q=shop&state=failing&id=\(ids["z.other.example"] ?? 0)")
            #expect(ask.bodyText.contains("<h1>Check 2 domains?</h1>"), "all matching counts the filter, not the ticked id")
            #expect(ask.bodyText.contains("<li>a.shop.example</li><li>c.shop.example</li></ul>"))
            #expect(ask.bodyText.contains("name=\"q\" value=\"shop\"") && ask.bodyText.contains("name=\"all\" value=\"1\""))
            let done = client.post("/domains/bulk", [("action", "check"), ("all", "1"), ("q", "shop"), ("state", "failing")])
            #expect(done.status == 303)
            #expect(done.headers.first { $0.name == "Location" }?.value == "/?state=failing&q=shop")
            #expect(try hosts(db, where: "check_requested_at IS NOT NULL") == ["a.shop.example"], "the paused one is left alone")
            #expect(client.get("/?state=failing&q=shop").bodyText.contains("Requested a check of 1 domain. 1 paused domain was left alone."))

            // Set the interval of all that match a search: exactly the overview's rows for it.
            try db.execute("UPDATE domains SET check_requested_at = NULL")
            filter.state = nil
            let shops = Set(try db.overview(filter).items.map(\.host))
            #expect(shops == Set(Self.shop))
            #expect(client.get("/domains/bulk?action=interval&interval=1440&all=1&q=shop").bodyText
                .contains("<h1>Change the interval of 4 domains to every day?</h1>"))
            #expect(client.post("/domains/bulk", [("action", "interval"), ("interval", "1440"), ("all", "1"), ("q", "shop")]).status == 303)
            #expect(try hosts(db, where: "interval_seconds = 86400") == shops)
            #expect(try hosts(db, where: "interval_seconds <> 86400") == Set(Self.other))
            // An interval that is not offered changes nothing.
            #expect(client.post("/domains/bulk", [("action", "interval"), ("interval", "7"), ("all", "1")]).status == 303)
            #expect(try hosts(db, where: "interval_seconds = 420").isEmpty)

            // Pause all on the platform filter and no search: every domain (all are watched for Apple).
            #expect(client.post("/domains/bulk", [("action", "pause"), ("all", "1"), ("platform", "apple")]).status == 303)
            #expect(try hosts(db, where: "NOT paused").isEmpty)
        }
    }

    /// "All matching" is the overview's filter: for every state, platform and search, the selection
    /// holds as many domains as the overview counts and lists (which ones: the tests above).
    @Test func allMatchingHoldsWhatTheOverviewListsForEveryFilter() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            _ = try seeded(db)
            try db.execute("UPDATE domains SET check_requested_at = NULL, first_check_queued_at = NULL")
            try db.execute("UPDATE domains SET last_verdict = 'fail' WHERE host IN ('a.shop.example', 'x.other.example')")
            try db.execute("UPDATE domains SET last_verdict = 'warn', platforms = 'apple' WHERE host = 'b.shop.example'")
            try db.execute("UPDATE domains SET last_verdict = 'pass', last_android_state = 'pass' WHERE host IN ('c.shop.example', 'y.other.example')")
            try db.execute("UPDATE domains SET platforms = 'android', check_requested_at = now() WHERE host = 'd.shop.example'")
            let registry = DomainRegistry(store: db)
            for state in [nil] + DomainState.allCases {
                for platform in [nil, Platform.apple, .android] {
                    for search in ["", "shop", "other.ex", "nothing"] {
                        var f = OverviewFilter.unfiltered
                        (f.state, f.platform, f.search, f.pageSize) = (state, platform, search, 1000)
                        let overview = try db.overview(f)
                        let listed = Set(overview.items.map(\.id))
                        #expect(try registry.count(.matching(f)) == overview.matching, "\(String(describing: state)) \(String(describing: platform)) \(search)")
                        #expect(try registry.count(.matching(f)) == listed.count)
                        #expect(try registry.count(.ids(Array(listed))) == listed.count)
                    }
                }
            }
        }
    }

    /// The overview's CSV export, pasted into the browser import, reads back: every domain it lists
    /// is known, and one deleted since is new again.
    @Test func theCSVExportReimportsThroughTheBrowser() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let (_, client, ids) = try seeded(db)
            client.get("/")
            let csv = client.get("/export/domains.csv").bodyText
            #expect(client.post("/domains/bulk", [("action", "delete"), ("id", String(ids["c.shop.example"] ?? 0))]).status == 303)
            let page = client.post("/domains/import/preview", [("list", csv)]).bodyText
            #expect(page.contains("1 new, 6 registered already, 0 refused."), "\(page)")
            #expect(client.post("/domains/import", [("list", csv)]).status == 303)
            #expect(try hosts(db, where: "true") == Set(Self.shop + Self.other))
        }
    }

    @Test func readOnlyViewersSeeNoCheckboxesAndAreRefused() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let (app, admin, ids) = try seeded(db)
            admin.get("/settings")
            #expect(admin.post("/users", [("email", "viewer@example.com"), ("password", "viewer passphrase"), ("role", "viewer")]).status == 303)
            let viewer = WebClient(app: app)
            #expect(viewer.logIn(email: "viewer@example.com", password: "viewer passphrase").status == 303)
            let overview = viewer.get("/").bodyText
            #expect(!overview.contains("name=\"id\"") && !overview.contains("/domains/bulk") && !overview.contains("/domains/import"))
            let id = String(ids["a.shop.example"] ?? 0)
            #expect(viewer.get("/domains/bulk?action=delete&id=" + id).status == 403)
            #expect(viewer.post("/domains/bulk", [("action", "delete"), ("id", id)]).status == 403)
            #expect(viewer.post("/domains/bulk", [("action", "delete"), ("all", "1")]).status == 403)
            #expect(viewer.get("/domains/import").status == 403)
            #expect(viewer.post("/domains/import/preview", [("list", "new.example")]).status == 403)
            #expect(viewer.post("/domains/import", [("list", "new.example")]).status == 403)
            #expect(try db.value("SELECT count(*)::int FROM domains", as: Int.self) == 7)
        }
    }

    @Test func theImportPreviewWritesNothingAndItsConfirmationRegistersWhatWasPreviewed() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let (_, client, _) = try seeded(db)
            #expect(client.get("/").bodyText.contains("href=\"/domains/import\""))
            #expect(client.get("/domains/import").status == 200)
            let list = """
                new-one.example,ABCDE12345.com.example.shop
                b.shop.example
                not a host!
                new-two.example
                new-one.example
                """
            func snapshot() throws -> [String] {
                try db.rows("SELECT host || ' ' || interval_seconds || ' ' || paused FROM domains ORDER BY host").map { try $0.decode(0) }
            }
            let before = try snapshot()
            let appIDsBefore = try db.value("SELECT count(*)::int FROM expected_app_ids", as: Int.self)
            let preview = client.post("/domains/import/preview", [("list", list)])
            #expect(preview.status == 200)
            let page = preview.bodyText
            #expect(page.contains("2 new, 2 registered already, 1 refused. Nothing is written until you confirm."), "\(page)")
            #expect(page.contains("<td class=\"host\" data-label=\"Domain\">new-one.example</td><td data-label=\"Outcome\"><span class=\"pill state-passing\">New</span>"))
            #expect(page.contains("<td class=\"host\" data-label=\"Domain\">b.shop.example</td><td data-label=\"Outcome\"><span class=\"pill state-never\">Registered already</span>"))
            #expect(page.contains("<span class=\"pill state-never\">Listed on line 1</span>"))
            #expect(page.contains("not a host!") && page.contains("<span class=\"pill state-failing\">Refused</span>"))
            #expect(page.contains("name=\"list\" value=\"\(HTML.escape(list))\""), "the confirmation carries the previewed list")
            #expect(page.contains("Register 2 domains"))
            #expect(try snapshot() == before, "the preview writes nothing")
            #expect(try db.value("SELECT count(*)::int FROM expected_app_ids", as: Int.self) == appIDsBefore)

            // An empty list is sent back to the form.
            let empty = client.post("/domains/import/preview", [("list", "  \n")])
            #expect(empty.status == 422 && empty.bodyText.contains("Paste a list or choose a file."))

            #expect(client.post("/domains/import", [("list", list)], csrf: .some(nil)).status == 403)
            #expect(try snapshot() == before)
            let done = client.post("/domains/import", [("list", list)])
            #expect(done.status == 303)
            #expect(client.get("/").bodyText.contains("Imported 2 domains; 2 registered already; 1 refused."))
            let added = Set(try snapshot()).subtracting(before)
            #expect(added == ["new-one.example 3600 false", "new-two.example 3600 false"], "\(added)")
            let newID = try #require(try db.domainID(host: "new-one.example", wildcard: false))
            #expect(try db.appIDExpectations(domainID: newID).map(\.appID) == ["ABCDE12345.com.example.shop"])
        }
    }
}
