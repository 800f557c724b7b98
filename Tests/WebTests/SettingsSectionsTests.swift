import Foundation
import Notify
import Store
import Testing
import TestSupport
@testable import Web

/// Settings in sections (issue #32): each its own page for both roles; the add form of a channel holds
/// only its kind's fields; the URL tester's domain chooser lists a few domains and searches the rest.
@Suite(.serialized) struct SettingsSectionsTests {
    static let sections: [(path: String, holds: String, form: String)] = [
        ("/settings", "Email and links", "action=\"/settings/email\""),
        ("/settings/users", "API tokens", "action=\"/users\""),
        ("/settings/channels", "Private receivers", "href=\"/channels/new\""),
        ("/settings/alerts", "Alerting", "action=\"/settings/alerts\""),
    ]

    @Test func eachSectionIsItsOwnPageAndReadOnlyUsersSeeNoForms() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let admin = WebClient(app: app)
            admin.setUpAdmin()
            admin.get("/settings/users")
            #expect(admin.post("/users", [("email", "viewer@example.com"), ("password", "viewer passphrase"), ("role", "viewer")]).status == 303)
            let viewer = WebClient(app: app)
            #expect(viewer.logIn(email: "viewer@example.com", password: "viewer passphrase").status == 303)
            for section in Self.sections {
                for (client, canChange) in [(admin, true), (viewer, false)] {
                    let page = client.get(section.path)
                    #expect(page.status == 200, "\(section.path)")
                    #expect(page.bodyText.contains("<a href=\"\(section.path)\" aria-current=\"page\">"), "\(section.path) is marked current")
                    #expect(page.bodyText.components(separatedBy: "aria-current=\"page\"").count == 3, "one section and one menu item are current")
                    #expect(page.bodyText.contains(section.holds), "\(section.path) holds \(section.holds)")
                    #expect(page.bodyText.contains(section.form) == canChange, "\(section.path): the form only for admins")
                }
            }
            // What another section holds is not on this one.
            #expect(!admin.get("/settings").bodyText.contains("API tokens"))
            #expect(!admin.get("/settings/users").bodyText.contains("Email and links"))
            #expect(viewer.get("/channels/new").status == 403)
        }
    }

    /// Each kind's form asks for what `ChannelKind.inputs` says and nothing else.
    @Test func theAddFormOfAKindHoldsOnlyItsFields() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            let chooser = client.get("/channels/new")
            #expect(chooser.status == 200 && !chooser.bodyText.contains("id=\"target\""))
            for kind in ChannelKind.allCases {
                #expect(chooser.bodyText.contains("<a href=\"/channels/new?kind=\(kind.rawValue)\">"), "\(kind) offered")
                let form = client.get("/channels/new?kind=\(kind.rawValue)").bodyText
                let inputs = kind.inputs
                #expect(form.contains("<input type=\"hidden\" name=\"kind\" value=\"\(kind.rawValue)\">"), "\(kind)")
                #expect(form.contains("id=\"target\""), "\(kind) asks for its target")
                #expect(form.contains("id=\"credential\"") == (inputs.credential != nil || inputs.generatesSigningSecret), "\(kind) credential")
                #expect(form.contains("id=\"recipient\"") == (inputs.recipient != nil), "\(kind) recipient")
                #expect(form.contains("id=\"template\"") == inputs.needsTemplate, "\(kind) template")
            }
            #expect(client.get("/channels/new?kind=carrier-pigeon").bodyText.contains("Choose its kind"))
            #expect(client.get("/channels/new?kind=email").bodyText.contains("<label for=\"target\">Email address</label>"))
            #expect(client.get("/channels/new?kind=pagerduty").bodyText.contains("Leave it empty for https://events.pagerduty.com"))

            // Refused: the same kind's form, what was typed kept, the token not sent back.
            client.get("/channels/new?kind=ntfy")
            let refused = client.post("/channels", [("kind", "ntfy"), ("name", "phone"), ("target", "not a url"), ("credential", "tk_SECRETtoken"),
                                                    ("min_severity", "critical"), ("domains", "")])
            #expect(refused.status == 422)
            let body = refused.bodyText
            #expect(body.contains("<h1>Add a channel: ntfy</h1>") && body.contains("name=\"kind\" value=\"ntfy\""))
            #expect(body.contains("value=\"phone\"") && body.contains("value=\"not a url\"") && body.contains("<option value=\"critical\" selected>"))
            #expect(!body.contains("SECRETtoken") && !body.contains("id=\"template\"") && !body.contains("id=\"recipient\""))
            #expect(try db.channels().isEmpty)
            let unknown = client.post("/channels", [("kind", "carrier-pigeon"), ("target", "coop")])
            #expect(unknown.status == 422 && unknown.bodyText.contains("Choose its kind") && unknown.bodyText.contains("flash-error"))
        }
    }

    /// The chooser lists `choiceLimit` domains at most; the search finds the others (anywhere in the
    /// name from three characters, at its start below), and its words are matched literally (a `%` is
    /// not a wildcard).
    @Test func theTestersChooserSearchesInsteadOfListingEveryDomain() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            try db.execute("INSERT INTO domains (host, display_name) SELECT 'shop-' || g || '.example', 'shop-' || g || '.example' FROM generate_series(100, 399) g")
            _ = try db.importDomain(host: "zz-needle.example", displayName: "zz-needle.example", wildcard: false, appIDs: [])
            let needle = try #require(try db.domainID(host: "zz-needle.example", wildcard: false))
            func options(_ page: String) -> Int { page.components(separatedBy: "<option value=\"").count - 2 }   // less the empty choice
            let first = client.get("/tester").bodyText
            #expect(options(first) == TesterHandlers.choiceLimit && !first.contains("zz-needle.example"))
            #expect(first.contains("The first 20 domains by name; search for another."))
            let found = client.get("/tester?find=NEEDLE").bodyText
            #expect(options(found) == 1 && found.contains("<option value=\"\(needle)\">zz-needle.example</option>"))
            #expect(found.contains("1 domain matches “NEEDLE”."))
            let broad = client.get("/tester?find=shop-3").bodyText
            #expect(options(broad) == TesterHandlers.choiceLimit && broad.contains("20 of the domains matching “shop-3”"))
            #expect(options(client.get("/tester?find=%25").bodyText) == 0)
            #expect(options(client.get("/tester?find=%25%25%25").bodyText) == 0)
            // One or two characters, which no trigram narrows, find the names starting with them.
            #expect(options(client.get("/tester?find=zz").bodyText) == 1)
            #expect(options(client.get("/tester?find=ee").bodyText) == 0)
            // A domain chosen elsewhere (the domain page's link) is offered with the list.
            #expect(client.get("/tester?domain=\(needle)").bodyText.contains("<option value=\"\(needle)\" selected>zz-needle.example</option>"))
        }
    }
}
