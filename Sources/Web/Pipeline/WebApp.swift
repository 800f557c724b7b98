import Foundation
import Store
import Synchronization

/// The dashboard and its API as one responder: `respond` takes a request and returns a response,
/// blocking on the database as needed (the HTTP server runs it on its worker pool).
public final class WebApp: Sendable {
    public let database: Database
    public let configuration: WebConfiguration
    let limiter = LoginLimiter()
    let metrics: WebMetrics
    let router: Router<Route>
    /// When cached answers go out of date; caches are used only while it is live (`startChangeFeed`).
    public let changes = ChangeFeed()
    /// The overview's content per role and query (everything but the per-user header), valid until
    /// domains, checks or alerts change and at most `overviewCacheLifetime` old.
    let overviewCache: GenerationCache<SharedPage>
    /// Session lookups until sessions or users change (logout, password change, user removal, from
    /// any process), and at most `sessionCacheLifetime`.
    let sessionCache: GenerationCache<SessionRecord?>
    /// Set once the first account exists, so later requests skip the count query.
    private let setupDone = Atomic<Bool>(false)

    public init(database: Database, configuration: WebConfiguration = WebConfiguration(), metrics: WebMetrics = WebMetrics()) {
        self.database = database
        self.configuration = configuration
        self.metrics = metrics
        self.router = WebApp.routes()
        self.overviewCache = GenerationCache(ttl: configuration.overviewCacheLifetime)
        self.sessionCache = GenerationCache(ttl: configuration.sessionCacheLifetime, capacity: 10_000)
    }

    /// Listens for changes made by other processes, so the overview and session lookups can be
    /// cached (`serve` calls this; without it nothing is cached).
    public func startChangeFeed() { changes.start(database: database) }

    public func stopChangeFeed() { changes.stop() }

    public func respond(_ request: WebRequest) -> WebResponse {
        let requestID = Crypto.hex(Crypto.randomBytes(6))
        do {
            return try dispatch(request, requestID: requestID)
        } catch let error as WebError {
            return errorResponse(error, request: request, viewer: nil, requestID: requestID)
        } catch let error as DatabaseError where error.isOutage {
            FileHandle.standardError.write(Data("web: request \(requestID) \(request.method) \(request.path): \(error)\n".utf8))
            return errorResponse(.unavailable("The database is unavailable right now; this page works again when it is back."),
                                 request: request, viewer: nil, requestID: requestID)
        } catch {
            // Our own failure: the person gets an id to quote, the log gets the cause.
            FileHandle.standardError.write(Data("web: request \(requestID) \(request.method) \(request.path) failed: \(error)\n".utf8))
            return errorResponse(.unavailable("Something went wrong on our side. Try again; if it persists, quote the request id."),
                                 request: request, viewer: nil, requestID: requestID, status: 500)
        }
    }

    func dispatch(_ request: WebRequest, requestID: String) throws -> WebResponse {
        let found: (Route, RouteParameters)
        switch router.match(method: request.method, path: request.path) {
        case .found(let route, let params): found = (route, params)
        case .methodNotAllowed(let allowed):
            return errorResponse(.badRequest("This address does not accept \(request.method)."), request: request, viewer: nil,
                                 requestID: requestID, status: 405).with(header: "Allow", allowed.joined(separator: ", "))
        case .notFound:
            throw WebError.notFound("There is no page at this address.")
        }
        let (route, params) = found
        let isAPI = route.access == .api || route.access == .apiAdmin
        var viewer: Viewer?
        var visitorCookie: String?
        var csrfSecret: String?

        switch route.access {
        case .open:
            break
        case .api, .apiAdmin:
            guard let token = bearerToken(request), let record = try database.useAPIToken(tokenHash: SecretToken.digest(of: token)) else {
                return APIResponses.error(status: 401, message: "Send a valid API token: Authorization: Bearer TOKEN")
                    .with(header: "WWW-Authenticate", "Bearer")
            }
            let role = Role(rawValue: record.role) ?? .readOnly
            if route.access == .apiAdmin && !role.canChange {
                return APIResponses.error(status: 403, message: "This token is read-only.")
            }
            viewer = Viewer(userID: 0, email: "token:" + record.name, role: role, csrf: "")
        case .anonymous, .signedIn, .admin:
            if try !isSetUp() {
                if request.path != "/setup" { return .seeOther("/setup") }
            }
            let session = try currentSession(request)
            if let session {
                viewer = session.viewer
                csrfSecret = session.secret
            }
            if route.access == .anonymous {
                // Pre-login forms get their CSRF token from a visitor cookie.
                if let v = request.cookies[SessionCookie.visitorName], v.count == 64 {
                    csrfSecret = v
                } else {
                    let v = Crypto.hex(Crypto.randomBytes(32))
                    visitorCookie = v
                    csrfSecret = v
                }
            } else if viewer == nil {
                if request.method == "GET" || request.method == "HEAD" {
                    let next = request.path + (request.query.isEmpty ? "" : "?" + request.query)
                    return .seeOther("/login?next=" + PercentEncoding.encode(next))
                }
                return .seeOther("/login")
            } else if route.access == .admin, viewer?.canChange != true {
                throw WebError.forbidden("Your account is read-only: ask an admin to make this change.")
            }
        }

        var form = FormData()
        if !isAPI && request.method == "POST" {
            do {
                form = try FormData.decode(request.body, limits: route.formLimits)
            } catch {
                throw WebError.badRequest("The form could not be read (\(error)).")
            }
            // No state change without proof the form came from our own page.
            guard let secret = csrfSecret, CSRFToken.isValid(form["csrf"], forSession: secret) else {
                return errorResponse(.forbidden("The form expired or came from another site. Go back, reload the page and try again."),
                                     request: request, viewer: viewer, requestID: requestID, status: 403)
            }
        }
        var anonymousViewer = viewer
        if anonymousViewer == nil, route.access == .anonymous, let secret = csrfSecret {
            // Carries only the CSRF token for the login/setup forms.
            anonymousViewer = Viewer(userID: 0, email: "", role: .readOnly, csrf: CSRFToken.make(forSession: secret))
        }
        let context = RequestContext(request: request, parameters: params,
                                     viewer: route.access == .anonymous ? anonymousViewer : viewer,
                                     form: form, app: self, now: Date(), requestID: requestID)
        if request.method != "GET" && request.method != "HEAD" {
            // A change through the app: nothing cached may hide it from the person who made it, even
            // before the database's notification of it arrives.
            changes.dataChanged()
            changes.accountsChanged()
        }
        var response: WebResponse
        do {
            response = try route.handler(context)
        } catch let error as WebError {
            if isAPI { return APIResponses.error(status: error.status, message: error.message, field: error.field) }
            response = errorResponse(error, request: request, viewer: viewer, requestID: requestID)
        }
        if request.method != "GET" && request.method != "HEAD" {
            // Again after the change, so a lookup racing with it cannot keep the old answer.
            changes.ownDataChanged()
            changes.accountsChanged()
        }
        if let visitorCookie {
            response.headers.append(("Set-Cookie", SessionCookie.set(name: SessionCookie.visitorName, value: visitorCookie,
                                                                    maxAge: 86_400, secure: context.isSecure)))
        }
        return response
    }

    func isSetUp() throws -> Bool {
        if setupDone.load(ordering: .relaxed) { return true }
        let done = try database.userCount() > 0
        if done { setupDone.store(true, ordering: .relaxed) }
        return done
    }

    struct ActiveSession {
        let secret: String
        let viewer: Viewer
    }

    func currentSession(_ request: WebRequest) throws -> ActiveSession? {
        guard let secret = request.cookies[SessionCookie.sessionName], !secret.isEmpty, secret.utf8.count <= 128 else { return nil }
        let digest = SecretToken.digest(of: secret)
        guard let record = try sessionCache.value(digest, generation: { self.changes.accountsGeneration }, cacheable: changes.isLive,
                                                  compute: { try database.session(tokenHash: digest) }) else { return nil }
        // The cache may hold a session a moment past its expiry; the database would not.
        guard record.expiresAt > Date() else { return nil }
        let viewer = Viewer(userID: record.userID, email: record.email, role: Role(rawValue: record.role) ?? .readOnly,
                            csrf: record.csrfToken)
        return ActiveSession(secret: secret, viewer: viewer)
    }

    func bearerToken(_ request: WebRequest) -> String? {
        guard let header = request.header("authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }

    func errorResponse(_ error: WebError, request: WebRequest, viewer: Viewer?, requestID: String, status: Int? = nil) -> WebResponse {
        let code = status ?? error.status
        if request.path.hasPrefix("/api/") {
            return APIResponses.error(status: code, message: error.message, field: error.field)
        }
        let rid = code >= 500 ? requestID : nil
        return .html(AccountPages.problem(status: code, title: error.title, message: error.message, viewer: viewer, requestID: rid),
                     status: code)
    }

    /// Starts a session for `userID` and returns the cookie header that carries it.
    func startSession(userID: Int64, secure: Bool) throws -> String {
        let token = SecretToken.generate()
        let expires = Date().addingTimeInterval(TimeInterval(SessionCookie.lifetimeSeconds))
        try database.createSession(tokenHash: token.digest, userID: userID, csrfToken: CSRFToken.make(forSession: token.value),
                                   expiresAt: expires)
        return SessionCookie.set(name: SessionCookie.sessionName, value: token.value, maxAge: SessionCookie.lifetimeSeconds,
                                 secure: secure)
    }
}

extension DatabaseError {
    /// The database is unreachable or overloaded (as opposed to a statement our code got wrong).
    var isOutage: Bool {
        switch self {
        case .connectionFailed, .connectionLost, .poolTimeout: true
        case .server, .decoding: false
        }
    }
}
