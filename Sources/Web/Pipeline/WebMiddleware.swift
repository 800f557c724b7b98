import Foundation

/// One step of the request path, after Hummingbird's `RouterMiddleware`: it looks at the request and
/// at what earlier steps learned, then either answers itself or calls `next`, and may add to the
/// answer on its way back. Each step is small and is tested alone (`Tests/WebTests/MiddlewareTests`).
protocol WebMiddleware: Sendable {
    func handle(_ request: WebRequest, context: RequestState, next: WebMiddlewareNext) throws -> WebResponse
}

typealias WebMiddlewareNext = (WebRequest, RequestState) throws -> WebResponse

/// What the request path knows about a request so far. Routing fills in the route; each step passes
/// on a copy with what it learned (who asks, the CSRF secret, the decoded form).
struct RequestState: Sendable {
    let route: Route
    let parameters: RouteParameters
    /// Shown on error pages and written to the log with the cause.
    let requestID: String
    let now: Date
    /// Cookies get `Secure` (the request came over TLS, or the operator says a proxy in front does TLS).
    let isSecure: Bool
    /// The signed-in user or the API token's holder; nil for strangers.
    var viewer: Viewer?
    /// What this browser's CSRF tokens derive from: the session's secret, or before login the visitor cookie's.
    var csrfSecret: String?
    /// The decoded form body of a form POST; empty otherwise.
    var form = FormData()

    init(route: Route, parameters: RouteParameters = RouteParameters(), requestID: String = "", now: Date = Date(),
         isSecure: Bool = false, viewer: Viewer? = nil, csrfSecret: String? = nil) {
        self.route = route
        self.parameters = parameters
        self.requestID = requestID
        self.now = now
        self.isSecure = isSecure
        self.viewer = viewer
        self.csrfSecret = csrfSecret
    }

    var isAPI: Bool { route.access == .api || route.access == .apiAdmin }

    /// The viewer a handler sees. Pre-login pages (login, setup) get one that carries only the CSRF
    /// token for their form when nobody is signed in.
    var handlerViewer: Viewer? {
        guard route.access == .anonymous, viewer == nil, let csrfSecret else { return viewer }
        return Viewer(userID: 0, email: "", role: .readOnly, csrf: CSRFToken.make(forSession: csrfSecret))
    }
}

extension WebRequest {
    /// Reads and HEADs change nothing; everything else may.
    var isSafeMethod: Bool { method == "GET" || method == "HEAD" }
}
