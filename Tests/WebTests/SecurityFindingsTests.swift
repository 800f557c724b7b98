import Testing
import Foundation
import Notify
import Store
import TestSupport
@testable import Web
import TextEncoding

/// The web findings of the security review (issue 16), each pinned by a test that fails if it comes back.
@Suite(.serialized) struct SecurityFindingsTests {
    static let secretWebhook = "https://hooks.example.com/services/T000/B000/PATHSECRET?token=QUERYSECRET"

    // 1. Read-only users read every webhook URL on /settings/channels and /alerts.
    @Test func readOnlyUsersSeeAWebhooksHostButNotItsSecret() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let admin = WebClient(app: app)
            admin.setUpAdmin()
            admin.get("/settings")
            #expect(admin.post("/channels", [("kind", "webhook"), ("target", Self.secretWebhook)]).status == 200)
            admin.get("/settings")
            #expect(admin.post("/users", [("email", "viewer@example.com"), ("password", "viewer passphrase"), ("role", "viewer")]).status == 303)
            try db.setSetting("smtp_url", "smtp://mailer:HUNTER2@mail.example.com:587")
            // Admins still see (and can copy) the whole address.
            #expect(admin.get("/settings/channels").bodyText.contains("PATHSECRET"))
            #expect(admin.get("/alerts").bodyText.contains("PATHSECRET"))

            let viewer = WebClient(app: app)
            #expect(viewer.logIn(email: "viewer@example.com", password: "viewer passphrase").status == 303)
            for page in ["/settings/channels", "/alerts"] {
                let body = viewer.get(page).bodyText
                #expect(!body.contains("PATHSECRET") && !body.contains("QUERYSECRET") && !body.contains("/services/"), "\(page)")
                #expect(body.contains("https://hooks.example.com/"), "\(page) still tells the channels apart")
                #expect(body.contains(ChannelRecord.hiddenHint), "\(page)")
            }
            // The mail server's password stays hidden too.
            let settings = viewer.get("/settings").bodyText
            #expect(!settings.contains("HUNTER2"))
            #expect(settings.contains("mail.example.com"))
        }
        #expect(ChannelRecord.redacted("https://u:p@hooks.example.com:8443/a/b?c#d") == "https://hooks.example.com:8443/… " + ChannelRecord.hiddenHint)
        #expect(ChannelRecord.redacted("not a url") == "webhook " + ChannelRecord.hiddenHint)
    }

    // 3. Login timing tells which emails have accounts.
    @Test func unknownEmailsAreCheckedAgainstADummyHashOfTheSameCost() throws {
        let hasher = TestApp.configuration.passwordHasher
        let check = PasswordCheck(hasher: hasher)
        let real = try hasher.hash("a real password")
        func parameters(_ hash: String) -> String { hash.split(separator: "$").prefix(3).joined(separator: "$") }
        let dummy = check.hashToCheck(stored: nil)
        #expect(dummy.hasPrefix("$argon2id$"))
        #expect(parameters(dummy) == parameters(real))     // "argon2id$v=19$m=…,t=…,p=…": the same work
        #expect(!check.matches("", stored: nil))
        #expect(check.hashToCheck(stored: real) == real)
        #expect(check.matches("a real password", stored: real))
        #expect(!check.matches("wrong", stored: real))
    }

    // 4. Anyone can lock any account.
    @Test func aStrangersGuessesSlowHimNotTheOwner() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            WebClient(app: app).setUpAdmin(email: "a@example.com", password: "correct horse battery")
            let attacker = WebClient(app: app)
            attacker.remoteAddress = "203.0.113.9"
            for _ in 0..<5 { #expect(attacker.logIn(email: "a@example.com", password: "guess").status == 401) }
            #expect(attacker.logIn(email: "a@example.com", password: "correct horse battery").status == 429)
            let owner = WebClient(app: app)
            owner.remoteAddress = "198.51.100.7"
            #expect(owner.logIn(email: "a@example.com", password: "correct horse battery").status == 303)
            #expect(owner.get("/settings").status == 200)
        }
    }

    @Test func throttleWaitsGrowPerAccountAndAddress() {
        var t = LoginThrottle()
        for i in 0..<5 {
            #expect(t.retryAfter(address: "1.2.3.4", account: "A@x", now: 1000 + Int64(i)) == 0)
            t.recordFailure(address: "1.2.3.4", account: "a@x", now: 1000 + Int64(i))
        }
        // The fifth failure (at 1004) starts a wait of a minute, for this account from this address only.
        #expect(t.retryAfter(address: "1.2.3.4", account: "a@X", now: 1010) == 1004 + 60 - 1010)
        #expect(t.retryAfter(address: "5.6.7.8", account: "a@x", now: 1010) == 0)
        #expect(t.retryAfter(address: "1.2.3.4", account: "b@x", now: 1010) == 0)
        // Each further failure doubles it.
        t.recordFailure(address: "1.2.3.4", account: "a@x", now: 1064)
        #expect(t.retryAfter(address: "1.2.3.4", account: "a@x", now: 1064) == 120)
        t.recordFailure(address: "1.2.3.4", account: "a@x", now: 1184)
        #expect(t.retryAfter(address: "1.2.3.4", account: "a@x", now: 1184) == 240)
        for i in 0..<30 { t.recordFailure(address: "1.2.3.4", account: "a@x", now: 2000 + Int64(i)) }
        #expect(t.retryAfter(address: "1.2.3.4", account: "a@x", now: 2029) == t.longestWait)
        // Forgotten a day after the last failure.
        #expect(t.retryAfter(address: "1.2.3.4", account: "a@x", now: 2029 + 86_400) == 0)
        // The right password from an address starts that account's count there over.
        var u = LoginThrottle()
        for i in 0..<5 { u.recordFailure(address: "1.1.1.1", account: "a@x", now: Int64(i)) }
        #expect(u.retryAfter(address: "1.1.1.1", account: "a@x", now: 5) > 0)
        u.recordSuccess(address: "1.1.1.1", account: "a@x")
        #expect(u.retryAfter(address: "1.1.1.1", account: "a@x", now: 5) == 0)
        // One address trying many accounts waits too.
        for i in 0..<20 { t.recordFailure(address: "9.9.9.9", account: "u\(i)", now: 3000) }
        #expect(t.retryAfter(address: "9.9.9.9", account: "new", now: 3001) == 59)
        #expect(t.retryAfter(address: "9.9.9.8", account: "new", now: 3001) == 0)
    }

    // 5. First-run /setup takes any Host header and needs no secret.
    @Test func setupAsksForTheCodeFromTheLogUnderAnOwnHostName() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            var configuration = TestApp.configuration
            configuration.allowedHosts = ["aasa.internal"]
            configuration.setupCode = SetupCode(value: "ABCD-EFGH-JKLM-NPQR")
            let app = WebApp(database: db, configuration: configuration)
            let client = WebClient(app: app)
            #expect(app.setupCode.value == "ABCD-EFGH-JKLM-NPQR")
            #expect(try app.needsSetup())
            // A name the server does not know as its own: what DNS rebinding looks like.
            let rebound = client.get("/setup", headers: [("Host", "attacker.example:8080")])
            #expect(rebound.status == 403)
            #expect(rebound.bodyText.contains("AASA_MONITOR_ALLOWED_HOSTS"))
            for host in ["localhost:8080", "127.0.0.1:8080", "[::1]:8080", "aasa.internal", "AASA.internal.:80", "192.0.2.10"] {
                #expect(client.get("/setup", headers: [("Host", host)]).status == 200, "\(host)")
            }
            let form = client.get("/setup")
            #expect(form.bodyText.contains("name=\"setup_code\""))
            func setUp(_ code: String?) -> WebResponse {
                client.get("/setup")
                return client.post("/setup", (code.map { [("setup_code", $0)] } ?? [])
                                   + [("email", "ops@example.com"), ("password", "a long passphrase"), ("confirm", "a long passphrase")])
            }
            for code in [nil, "", "ABCD-EFGH-JKLM-NPQS"] {
                let refused = setUp(code)
                #expect(refused.status == 422)
                #expect(refused.bodyText.contains("printed it in its log"))
            }
            #expect(try db.userCount() == 0)
            // Typed with other case and spacing, it is the same code.
            #expect(setUp("abcd efgh jklm npqr").status == 303)
            #expect(try db.userCount() == 1)
            #expect(try !app.needsSetup())
        }
        let list = HostAllowList(["Dash.Example.com"])
        #expect(list.allows(nil))
        #expect(list.allows("dash.example.com:443"))
        #expect(list.allows("monitor.corp", baseURLHost: "monitor.corp"))
        #expect(!list.allows("monitor.corp"))
        #expect(!list.allows("localhost.attacker.example"))
        #expect(list.allows("app.localhost"))
        #expect(!list.allows(""))
    }

    @Test func setupWaitsAfterManyWrongCodes() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            for _ in 0..<5 {
                client.get("/setup")
                #expect(client.post("/setup", [("setup_code", "WRONG"), ("email", "a@example.com")]).bodyText.contains("not the setup code"))
            }
            client.get("/setup")
            let held = client.post("/setup", [("setup_code", client.app.setupCode.value), ("email", "a@example.com"),
                                              ("password", "a long passphrase"), ("confirm", "a long passphrase")])
            // Held as a login is: 429 with Retry-After, and even the right code is not judged.
            #expect(held.status == 429)
            #expect(held.header("Retry-After").flatMap { Int($0) }.map { $0 > 0 && $0 <= 60 } == true)
            #expect(held.bodyText.contains("Too many wrong codes. Try again in 1 minute."))
            #expect(try db.userCount() == 0)
        }
    }

    // A form past its route's limit is too large, not malformed: 413 as the API answers, multipart or not.
    @Test func oversizedFormsAnswer413() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            client.get("/apps/new")
            let boundary = "----WebKitFormBoundaryX3y"
            func multipart(_ fileBytes: Int) -> [UInt8] {
                Array("""
                    --\(boundary)\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n\(client.csrf)\r\n\
                    --\(boundary)\r\nContent-Disposition: form-data; name="entitlements_file"; filename="App.entitlements"\r\n\
                    Content-Type: application/octet-stream\r\n\r\n\(String(repeating: "x", count: fileBytes))\r\n--\(boundary)--\r\n
                    """.utf8)
            }
            func send(_ body: [UInt8], type: String) -> WebResponse {
                client.send(WebRequest(method: "POST", target: "/apps/preview", headers: [("Content-Type", type)] + client.cookieHeader(),
                                       body: body, remoteAddress: client.remoteAddress))
            }
            let limit = FormData.Limits.appFiles.maxBytes
            let large = send(multipart(limit), type: "multipart/form-data; boundary=\(boundary)")
            #expect(large.status == 413, "\(large.bodyText)")
            #expect(large.bodyText.contains("larger than this page accepts (800 KB)"))
            let encoded = send(Array("csrf=\(client.csrf)&entitlements=\(String(repeating: "x", count: limit))".utf8),
                               type: "application/x-www-form-urlencoded")
            #expect(encoded.status == 413)
            // Within the limit, the same form is read (and judged on its content: no 413, no 400).
            let small = send(multipart(1000), type: "multipart/form-data; boundary=\(boundary)")
            #expect(small.status != 413 && small.status != 400, "\(small.status): \(small.bodyText)")
            // A malformed one is still a bad request.
            #expect(send(Array("--\(boundary)\r\njunk".utf8), type: "multipart/form-data; boundary=\(boundary)").status == 400)
        }
    }

    // 6. `next` is dropped by the login form, and `/%09/evil` passes the check.
    @Test func nextSurvivesTheLoginFormAndLeadsOnlyToThisSite() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            WebClient(app: app).setUpAdmin(email: "a@example.com", password: "correct horse battery")
            let client = WebClient(app: app)
            let sent = try #require(client.get("/domains/7?tab=history").header("Location"))
            #expect(sent == "/login?next=%2Fdomains%2F7%3Ftab%3Dhistory")
            let form = client.get(sent).bodyText
            #expect(form.contains("<input type=\"hidden\" name=\"next\" value=\"/domains/7?tab=history\">"))
            // A wrong password keeps it too.
            let wrong = client.post("/login", [("email", "a@example.com"), ("password", "nope"), ("next", "/domains/7?tab=history")])
            #expect(wrong.bodyText.contains("name=\"next\" value=\"/domains/7?tab=history\""))
            let ok = client.post("/login", [("email", "a@example.com"), ("password", "correct horse battery"),
                                            ("next", "/domains/7?tab=history")])
            #expect(ok.header("Location") == "/domains/7?tab=history")

            for hostile in ["/%09/evil.example", "/\t/evil.example", "//evil.example", "/\\evil.example", "/%5Cevil.example",
                            "/%2F/evil.example", "https://evil.example/", "evil.example", "/%0d%0aSet-Cookie:x=1", "/%zz"] {
                #expect(AccountHandlers.safeNext(hostile) == "/", "\(hostile)")
                let other = WebClient(app: app)
                #expect(!other.get("/login?next=" + PercentEncoding.encode(hostile)).bodyText.contains("name=\"next\""), "\(hostile)")
                other.get("/login")
                let r = other.post("/login", [("email", "a@example.com"), ("password", "correct horse battery"), ("next", hostile)])
                #expect(r.header("Location") == "/", "\(hostile)")
            }
            for fine in ["/", "/settings", "/domains/7?tab=history", "/?q=a%20b", "/tester#result"] {
                #expect(AccountHandlers.safeNext(fine) == fine)
            }
        }
    }

    // 7. `/?deleted=ANY TEXT` puts a stranger's words in the success banner.
    @Test func bannersComeFromAOneShotSignedCookie() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let client = WebClient(app: app)
            client.setUpAdmin()
            #expect(!client.get("/?deleted=ANY%20TEXT").bodyText.contains("ANY TEXT"))
            client.get("/domains/new")
            #expect(client.post("/domains", [("host", "gone.example"), ("interval", "60")]).status == 303)
            let id = try #require(try db.domain(host: "gone.example")?.id)
            client.get("/domains/\(id)/delete")
            let deleted = client.post("/domains/\(id)/delete")
            #expect(deleted.header("Location") == "/")
            #expect(client.cookies[FlashCookie.name] != nil)
            let shown = client.get("/")
            #expect(shown.bodyText.contains("Deleted gone.example and its history."))
            #expect(client.cookies[FlashCookie.name] == nil)
            #expect(!client.get("/").bodyText.contains("Deleted gone.example"))
            // A cookie we did not sign (set by a sibling site, say) shows nothing.
            let forged = "success." + Hex.encode(Array("/".utf8)) + "." + Hex.encode(Array("Your account is locked, call +1 555".utf8))
                + "." + String(repeating: "0", count: 64)
            client.cookies[FlashCookie.name] = forged
            #expect(!client.get("/").bodyText.contains("locked"))
            // A banner is for the page its change redirected to: another page neither shows nor clears it.
            client.cookies[FlashCookie.name] = nil
            client.get("/settings/users")
            #expect(client.post("/tokens/999/delete").header("Location") == "/settings/users#tokens")
            #expect(!client.get("/").bodyText.contains("Token revoked."))
            #expect(!client.get("/settings").bodyText.contains("Token revoked."))
            #expect(client.cookies[FlashCookie.name] != nil)
            #expect(client.get("/settings/users").bodyText.contains("Token revoked."))
            #expect(client.cookies[FlashCookie.name] == nil)
        }
    }

    // /metrics can ask for a bearer token.
    @Test func metricsAskForTheTokenWhenOneIsSet() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            #expect(WebApp(database: db, configuration: TestApp.configuration).respond(WebRequest(method: "GET", path: "/metrics")).status == 200)
            var configuration = TestApp.configuration
            configuration.metricsToken = "scrape-secret"
            let app = WebApp(database: db, configuration: configuration)
            let none = app.respond(WebRequest(method: "GET", path: "/metrics"))
            #expect(none.status == 401 && none.header("WWW-Authenticate") == "Bearer")
            #expect(!none.bodyText.contains("aasa_domains"))
            #expect(app.respond(WebRequest(method: "GET", path: "/metrics", headers: [("Authorization", "Bearer wrong")])).status == 401)
            let ok = app.respond(WebRequest(method: "GET", path: "/metrics", headers: [("Authorization", "Bearer scrape-secret")]))
            #expect(ok.status == 200 && ok.bodyText.contains("aasa_domains"))
        }
    }

    // Sessions expire and are purged on a schedule.
    @Test func expiredSessionsStopAuthenticatingAndArePurged() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let admin = WebClient(app: app)
            admin.setUpAdmin()
            let userID = try #require(try db.user(email: "admin@example.com")?.id)
            let stale = SecretToken.generate()
            try db.createSession(tokenHash: stale.digest, userID: userID, csrfToken: CSRFToken.make(forSession: stale.value),
                                 expiresAt: Date().addingTimeInterval(-60))
            func rows(_ token: SecretToken) throws -> Int64 {
                try db.value("SELECT count(*) FROM sessions WHERE token_hash = $1", token.digest)
            }
            #expect(try rows(stale) == 1)
            let expired = WebClient(app: app)
            expired.cookies[SessionCookie.sessionName] = stale.value
            #expect(expired.get("/settings").header("Location") == "/login?next=%2Fsettings")

            app.startSessionPurge(every: .seconds(3600))
            defer { app.stopSessionPurge() }
            let deadline = Date().addingTimeInterval(10)
            while try rows(stale) > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            #expect(try rows(stale) == 0)
            #expect(expired.get("/settings").status == 303)
            // The live session stays.
            #expect(admin.get("/settings").status == 200)
        }
    }
}
