import Testing
import Foundation
import Store
import TestSupport
@testable import Web

/// Each step of the request path alone: a request and a state in, the step's answer or what it passed
/// to `next` out. No server; a real database where the step reads one.
@Suite(.serialized) struct MiddlewareTests {
    static func route(_ access: Access, limits: FormData.Limits = .form) -> Route {
        Route(access: access, formLimits: limits, handler: { _ in .text("handler") })
    }

    /// Runs `step` once and records what reached `next` (nil when the step answered itself).
    static func run(_ step: some WebMiddleware, _ request: WebRequest, _ state: RequestState) throws
        -> (response: WebResponse, passed: RequestState?) {
        var passed: RequestState?
        let response = try step.handle(request, context: state) { _, s in
            passed = s
            return .text("next")
        }
        return (response, passed)
    }

    static func form(_ fields: [(String, String)], cookies: String? = nil, path: String = "/x") -> WebRequest {
        WebRequest(method: "POST", path: path,
                   headers: [("Content-Type", "application/x-www-form-urlencoded")] + (cookies.map { [("Cookie", $0)] } ?? []),
                   body: Array(FormData(fields: fields.map { (name: $0.0, value: $0.1) }).encoded().utf8))
    }

    // MARK: ErrorPages

    @Test func errorPagesTurnFailuresIntoPagesAndKeepCausesInTheLog() throws {
        struct Bug: Error {}
        let state = RequestState(route: Self.route(.signedIn), requestID: "abc123")
        let page = ErrorPages()
        let notFound = try page.handle(WebRequest(method: "GET", path: "/x"), context: state) { _, _ in throw WebError.notFound("Gone.") }
        #expect(notFound.status == 404)
        #expect(notFound.bodyText.contains("Gone."))
        #expect(!notFound.bodyText.contains("abc123"))
        let bug = try page.handle(WebRequest(method: "GET", path: "/x"), context: state) { _, _ in throw Bug() }
        #expect(bug.status == 500)
        #expect(bug.bodyText.contains("abc123"))
        #expect(!bug.bodyText.contains("Bug"))
        let outage = try page.handle(WebRequest(method: "GET", path: "/x"), context: state) { _, _ in
            throw DatabaseError.connectionLost(message: "reset by peer")
        }
        #expect(outage.status == 503)
        #expect(!outage.bodyText.contains("reset by peer"))
        let api = try page.handle(WebRequest(method: "GET", path: "/api/v1/domains/9"), context: state) { _, _ in
            throw WebError.badRequest("No.", field: "host")
        }
        #expect(api.status == 400)
        #expect(api.header("Content-Type") == "application/json")
        #expect(api.bodyText.contains("\"host\""))
        // An answer passes through untouched.
        #expect(try page.handle(WebRequest(method: "GET", path: "/x"), context: state) { _, _ in .text("fine") }.bodyText == "fine")
    }

    // MARK: CacheInvalidation

    @Test func cacheInvalidationMarksChangesBeforeAndAfterAWriteOnly() throws {
        let changes = ChangeFeed()
        let step = CacheInvalidation(changes: changes)
        let state = RequestState(route: Self.route(.signedIn))
        let before = (changes.dataGeneration, changes.accountsGeneration)
        _ = try Self.run(step, WebRequest(method: "GET", path: "/"), state)
        _ = try Self.run(step, WebRequest(method: "HEAD", path: "/"), state)
        #expect((changes.dataGeneration, changes.accountsGeneration) == before)
        var seenByHandler: UInt64 = 0
        _ = try step.handle(WebRequest(method: "POST", path: "/domains"), context: state) { _, _ in
            seenByHandler = changes.dataGeneration
            return .seeOther("/")
        }
        // Already moved when the handler runs, and again once it is done.
        #expect(seenByHandler == before.0 + 1)
        #expect(changes.dataGeneration == before.0 + 2)
        #expect(changes.accountsGeneration == before.1 + 2)
        #expect(changes.dataFloor == changes.dataGeneration)
    }

    // MARK: CSRF

    @Test func csrfGivesStrangersAVisitorSecretAndRefusesFormsWithoutItsToken() throws {
        let csrf = CSRF()
        let login = RequestState(route: Self.route(.anonymous), requestID: "r")
        // A first visit to the login page: a visitor secret, set as a cookie on the way out.
        let first = try Self.run(csrf, WebRequest(method: "GET", path: "/login"), login)
        let secret = try #require(first.passed?.csrfSecret)
        #expect(secret.count == 64)
        let cookie = try #require(first.response.header("Set-Cookie"))
        #expect(cookie.hasPrefix("aasa_visitor=\(secret);") && cookie.contains("HttpOnly") && !cookie.contains("Secure"))
        #expect(first.passed?.handlerViewer?.csrf == CSRFToken.make(forSession: secret))
        #expect(first.passed?.handlerViewer?.email == "")
        // The next visit reuses it and sets nothing.
        let again = try Self.run(csrf, WebRequest(method: "GET", path: "/login", headers: [("Cookie", "aasa_visitor=\(secret)")]), login)
        #expect(again.passed?.csrfSecret == secret)
        #expect(again.response.header("Set-Cookie") == nil)

        // A form post with the token reaches the handler, decoded; without it, or with another's, it does not.
        let token = CSRFToken.make(forSession: secret)
        let ok = try Self.run(csrf, Self.form([("email", "a@example.com"), ("csrf", token)], cookies: "aasa_visitor=\(secret)"), login)
        #expect(ok.passed?.form["email"] == "a@example.com")
        for presented in ["", "0123", CSRFToken.make(forSession: String(repeating: "0", count: 64))] {
            let refused = try Self.run(csrf, Self.form([("csrf", presented)], cookies: "aasa_visitor=\(secret)"), login)
            #expect(refused.passed == nil)
            #expect(refused.response.status == 403)
            #expect(refused.response.bodyText.contains("came from another site"))
        }
        // A signed-in form uses the session's secret.
        let signedIn = RequestState(route: Self.route(.admin), csrfSecret: "session secret")
        #expect(try Self.run(csrf, Self.form([("csrf", CSRFToken.make(forSession: "session secret"))]), signedIn).passed != nil)
        #expect(try Self.run(csrf, Self.form([("csrf", token)]), signedIn).passed == nil)
        // The API authenticates by header, so it carries no token.
        let api = RequestState(route: Self.route(.apiAdmin))
        #expect(try Self.run(csrf, WebRequest(method: "POST", path: "/api/v1/domains", body: Array("{}".utf8)), api).passed != nil)
        // A body the form decoder refuses is a 400.
        let small = RequestState(route: Self.route(.admin, limits: FormData.Limits(maxBytes: 4, maxFields: 1)), csrfSecret: "s")
        #expect(throws: WebError.self) { try Self.run(csrf, Self.form([("csrf", "a long value")]), small) }
    }

    // MARK: SetupGate

    @Test func setupGateLeadsEveryPageToSetupUntilTheFirstAccountExists() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let gate = SetupGate(setup: SetupState(database: db))
            func passes(_ access: Access, _ path: String) throws -> Bool {
                try Self.run(gate, WebRequest(method: "GET", path: path), RequestState(route: Self.route(access))).passed != nil
            }
            #expect(try !passes(.signedIn, "/"))
            #expect(try Self.run(gate, WebRequest(method: "GET", path: "/"), RequestState(route: Self.route(.signedIn)))
                .response.header("Location") == "/setup")
            #expect(try !passes(.anonymous, "/login"))
            #expect(try passes(.anonymous, "/setup"))
            #expect(try passes(.open, "/healthz"))
            #expect(try passes(.api, "/api/v1/domains"))
            _ = try db.createUser(email: "a@example.com", passwordHash: "x", role: .admin)
            #expect(try passes(.signedIn, "/"))
            #expect(try passes(.anonymous, "/login"))
        }
    }

    // MARK: Authentication

    @Test func authenticationFindsTheSessionOrTheTokenAndTurnsStrangersAway() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let sessions = Sessions(database: db, changes: ChangeFeed(), cacheLifetime: .seconds(5))
            let auth = Authentication(sessions: sessions, database: db)
            let admin = try #require(try db.createUser(email: "a@example.com", passwordHash: "x", role: .admin))
            let viewer = try #require(try db.createUser(email: "v@example.com", passwordHash: "x", role: .readOnly))
            func cookie(_ userID: Int64) throws -> String {
                String(try sessions.start(userID: userID, secure: false).split(separator: ";")[0])
            }
            let adminCookie = try cookie(admin), viewerCookie = try cookie(viewer)

            // Pages: strangers go to the login form, remembering where they were going on a GET.
            let page = RequestState(route: Self.route(.signedIn))
            let stranger = try Self.run(auth, WebRequest(method: "GET", target: "/settings?x=1"), page)
            #expect(stranger.passed == nil)
            #expect(stranger.response.header("Location") == "/login?next=%2Fsettings%3Fx%3D1")
            #expect(try Self.run(auth, WebRequest(method: "POST", path: "/logout"), page).response.header("Location") == "/login")
            let signedIn = try Self.run(auth, WebRequest(method: "GET", path: "/", headers: [("Cookie", adminCookie)]), page)
            #expect(signedIn.passed?.viewer?.email == "a@example.com")
            #expect(signedIn.passed?.csrfSecret == adminCookie.split(separator: "=")[1].description)
            // A read-only user looks but does not change.
            #expect(try Self.run(auth, WebRequest(method: "GET", path: "/", headers: [("Cookie", viewerCookie)]), page).passed != nil)
            #expect(throws: WebError.self) {
                try Self.run(auth, WebRequest(method: "POST", path: "/tokens", headers: [("Cookie", viewerCookie)]),
                             RequestState(route: Self.route(.admin)))
            }
            // Pre-login pages take anyone, and still know who is signed in.
            let login = RequestState(route: Self.route(.anonymous))
            #expect(try Self.run(auth, WebRequest(method: "GET", path: "/login"), login).passed?.viewer == nil)
            #expect(try Self.run(auth, WebRequest(method: "GET", path: "/login", headers: [("Cookie", adminCookie)]), login)
                .passed?.viewer?.userID == admin)

            // The API: a bearer token, its role deciding what it may change.
            let readToken = SecretToken.generate(), adminToken = SecretToken.generate()
            _ = try db.createAPIToken(name: "read", tokenHash: readToken.digest, userID: nil, role: .readOnly)
            _ = try db.createAPIToken(name: "write", tokenHash: adminToken.digest, userID: nil, role: .admin)
            let list = RequestState(route: Self.route(.api)), create = RequestState(route: Self.route(.apiAdmin))
            func bearer(_ token: String, _ method: String = "GET") -> WebRequest {
                WebRequest(method: method, path: "/api/v1/domains", headers: [("Authorization", "Bearer " + token)])
            }
            let none = try Self.run(auth, WebRequest(method: "GET", path: "/api/v1/domains"), list)
            #expect(none.response.status == 401 && none.response.header("WWW-Authenticate") == "Bearer")
            #expect(try Self.run(auth, bearer("aasa_wrong"), list).response.status == 401)
            // A session cookie is no API credential.
            #expect(try Self.run(auth, WebRequest(method: "GET", path: "/api/v1/domains", headers: [("Cookie", adminCookie)]), list)
                .response.status == 401)
            #expect(try Self.run(auth, bearer(readToken.value), list).passed?.viewer?.email == "token:read")
            #expect(try Self.run(auth, bearer(readToken.value, "POST"), create).response.status == 403)
            #expect(try Self.run(auth, bearer(adminToken.value, "POST"), create).passed?.viewer?.canChange == true)
            // Open routes look at nothing.
            #expect(try Self.run(auth, WebRequest(method: "GET", path: "/healthz"), RequestState(route: Self.route(.open))).passed != nil)
        }
    }
}
