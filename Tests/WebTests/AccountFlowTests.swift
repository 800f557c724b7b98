import Testing
import Foundation
import Store
import TestSupport
@testable import Web

@Suite(.serialized) struct AccountFlowTests {
    @Test func firstStartAsksForAnAdminThenLogsIn() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            // Before any account exists, every page leads to setup.
            #expect(client.get("/").header("Location") == "/setup")
            #expect(client.get("/login").header("Location") == "/setup")
            let form = client.get("/setup")
            #expect(form.status == 200)
            #expect(form.bodyText.contains("Create the first administrator"))
            #expect(client.cookies[SessionCookie.visitorName] != nil)

            // Refusals keep the email and say what is wrong.
            let code = client.app.setupCode.value
            let short = client.post("/setup", [("setup_code", code), ("email", "ops@example.com"), ("password", "short"), ("confirm", "short")])
            #expect(short.status == 422)
            #expect(short.bodyText.contains("at least 10 characters"))
            #expect(short.bodyText.contains("value=\"ops@example.com\""))

            let done = client.post("/setup", [("setup_code", code), ("email", "ops@example.com"), ("password", "a long passphrase"), ("confirm", "a long passphrase")])
            #expect(done.status == 303)
            #expect(done.header("Location") == "/")
            let cookie = try #require(done.headers.first { $0.name == "Set-Cookie" && $0.value.hasPrefix("aasa_session=") }?.value)
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Max-Age="))
            #expect(!cookie.contains("Secure"))
            #expect(client.get("/").status == 200)
            // Setup cannot run twice.
            #expect(client.get("/setup").header("Location") == "/login")
            #expect(try db.userCount() == 1)
            // The stored password is an argon2id hash; the session token is stored hashed.
            let user = try #require(try db.user(email: "OPS@example.com"))
            #expect(user.passwordHash.hasPrefix("$argon2id$"))
            let token = try #require(client.cookies[SessionCookie.sessionName])
            #expect(try db.session(tokenHash: SecretToken.digest(of: token)) != nil)
            #expect(try db.session(tokenHash: token) == nil)
        }
    }

    @Test func loginLogoutAndProtectedPages() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            WebClient(app: app).setUpAdmin(email: "a@example.com", password: "correct horse battery")
            let client = WebClient(app: app)
            #expect(client.get("/settings?x=1").header("Location") == "/login?next=%2Fsettings%3Fx%3D1")
            let wrong = client.logIn(email: "a@example.com", password: "wrong password")
            #expect(wrong.status == 401)
            #expect(wrong.bodyText.contains("do not match"))
            #expect(client.cookies[SessionCookie.sessionName] == nil)
            client.get("/login")
            let ok = client.post("/login?next=%2Fsettings", [("email", "A@example.com"), ("password", "correct horse battery")])
            #expect(ok.status == 303 && ok.header("Location") == "/settings")
            #expect(client.get("/settings").status == 200)
            // An open redirect is not followed.
            #expect(AccountHandlers.safeNext("//evil.example") == "/")
            #expect(AccountHandlers.safeNext("https://evil.example") == "/")
            // Logout is a POST with the CSRF token, and ends the session server-side.
            let token = try #require(client.cookies[SessionCookie.sessionName])
            client.get("/settings")
            #expect(client.post("/logout").header("Location") == "/login")
            #expect(try db.session(tokenHash: SecretToken.digest(of: token)) == nil)
            #expect(client.get("/settings").status == 303)
        }
    }

    @Test func formsWithoutTheCSRFTokenChangeNothing() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.get("/setup")
            // No token, a wrong token, and another session's token are all refused before the handler runs.
            for csrf: String? in [nil, "", "0123", CSRFToken.make(forSession: "someone else")] {
                let r = client.post("/setup", [("email", "x@example.com"), ("password", "a long passphrase"),
                                               ("confirm", "a long passphrase")], csrf: .some(csrf))
                #expect(r.status == 403)
            }
            #expect(try db.userCount() == 0)
            client.setUpAdmin()
            client.get("/settings")
            let refused = client.post("/tokens", [("name", "ci")], csrf: .some("nope"))
            #expect(refused.status == 403)
            #expect(refused.bodyText.contains("came from another site"))
            #expect(try db.apiTokens().isEmpty)
            // GET never changes state: the token route only answers POST.
            #expect(client.get("/tokens").status == 405)
        }
    }

    @Test func failedLoginsAreThrottled() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            WebClient(app: app).setUpAdmin(email: "a@example.com", password: "correct horse battery")
            let client = WebClient(app: app)
            for _ in 0..<5 { #expect(client.logIn(email: "a@example.com", password: "guess").status == 401) }
            let blocked = client.logIn(email: "a@example.com", password: "correct horse battery")
            #expect(blocked.status == 429)
            #expect(blocked.header("Retry-After") != nil)
            #expect(blocked.bodyText.contains("Too many failed attempts"))
            #expect(client.cookies[SessionCookie.sessionName] == nil)
        }
    }

    @Test func passwordChangeEndsOtherSessions() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let first = WebClient(app: app)
            first.setUpAdmin(email: "a@example.com", password: "correct horse battery")
            let second = WebClient(app: app)
            #expect(second.logIn(email: "a@example.com", password: "correct horse battery").status == 303)
            #expect(second.get("/settings").status == 200)

            first.get("/account/password")
            let bad = first.post("/account/password", [("current", "nope"), ("password", "new passphrase!"), ("confirm", "new passphrase!")])
            #expect(bad.status == 422 && bad.bodyText.contains("not your current password"))
            let ok = first.post("/account/password", [("current", "correct horse battery"), ("password", "new passphrase!"),
                                                      ("confirm", "new passphrase!")])
            #expect(ok.status == 303)
            // The browser that changed it stays in with a new session; the other is logged out.
            #expect(first.get("/settings").status == 200)
            #expect(second.get("/settings").status == 303)
            #expect(WebClient(app: app).logIn(email: "a@example.com", password: "new passphrase!").status == 303)
        }
    }

    @Test func readOnlyUsersLookButCannotChange() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let admin = WebClient(app: app)
            admin.setUpAdmin()
            admin.get("/settings")
            #expect(admin.post("/users", [("email", "viewer@example.com"), ("password", "viewer passphrase"), ("role", "viewer")]).status == 303)
            let viewer = WebClient(app: app)
            #expect(viewer.logIn(email: "viewer@example.com", password: "viewer passphrase").status == 303)
            let settings = viewer.get("/settings")
            #expect(settings.status == 200)
            #expect(!settings.bodyText.contains("Add a user"))
            let refused = viewer.post("/tokens", [("name", "mine")])
            #expect(refused.status == 403)
            #expect(refused.bodyText.contains("read-only"))
            #expect(try db.apiTokens().isEmpty)
            #expect(viewer.post("/users", [("email", "x@example.com"), ("password", "viewer passphrase")]).status == 403)
            #expect(try db.users().count == 2)
        }
    }

    /// Each role the "Add a user" form offers is one the server accepts: the form sends what the page
    /// lists, so the test reads the option values from the page rather than typing them.
    @Test func everyRoleTheAddUserFormOffersCreatesThatRole() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let admin = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            admin.setUpAdmin()
            let page = admin.get("/settings/users").bodyText
            let select = try #require(page.range(of: "<select id=\"role\" name=\"role\">"))
            let options = String(page[select.upperBound...])
                .components(separatedBy: "</select>")[0]
                .components(separatedBy: "<option value=\"").dropFirst()
                .map { (value: String($0.prefix { $0 != "\"" }), label: String($0.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })) }
            #expect(options.map(\.label) == ["Read-only", "Admin"])
            for (index, option) in options.enumerated() {
                let email = "user\(index)@example.com"
                let added = admin.post("/users", [("email", email), ("password", "a long passphrase"), ("role", option.value)])
                #expect(added.status == 303, "role option \(option.label) sends \(option.value): \(added.bodyText)")
                #expect(try db.user(email: email)?.role.label == option.label)
            }
            // A refused submit keeps the chosen role selected and names the roles as the form does.
            let refused = admin.post("/users", [("email", "short@example.com"), ("password", "short"), ("role", "admin")])
            #expect(refused.status == 422)
            #expect(refused.bodyText.contains("<option value=\"admin\" selected>Admin</option>"))
            let unknown = admin.post("/users", [("email", "x@example.com"), ("password", "a long passphrase"), ("role", "owner")])
            #expect(unknown.status == 422)
            #expect(unknown.bodyText.contains("Choose a role: Read-only or Admin."))
        }
    }

    @Test func apiTokensAreShownOnceAndStoredHashed() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            client.get("/settings")
            let created = client.post("/tokens", [("name", "ci")])
            #expect(created.status == 200)
            let text = created.bodyText
            let start = try #require(text.range(of: "<code class=\"mono\">aasa_"))
            let token = "aasa_" + String(text[start.upperBound...].prefix { $0 != "<" })
            #expect(token.count == 69)
            #expect(try db.apiTokens().map(\.name) == ["ci"])
            #expect(try db.useAPIToken(tokenHash: SecretToken.digest(of: token)) != nil)
            #expect(!client.get("/settings").bodyText.contains(token))
        }
    }
}
