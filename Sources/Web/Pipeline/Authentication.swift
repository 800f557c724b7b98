import Foundation
import Store

/// Who is asking: a session cookie for pages, a bearer token for the API. Sends strangers on pages
/// that need an account to the login form (remembering where they were going), answers the API's
/// strangers with 401, and refuses read-only users and tokens on routes that change things.
struct Authentication: WebMiddleware {
    let sessions: Sessions
    let database: Database

    func handle(_ request: WebRequest, context: RequestState, next: WebMiddlewareNext) throws -> WebResponse {
        var state = context
        switch context.route.access {
        case .open:
            break
        case .api, .apiAdmin:
            guard let token = Authentication.bearerToken(request),
                  let record = try database.useAPIToken(tokenHash: SecretToken.digest(of: token)) else {
                return APIResponses.error(status: 401, message: "Send a valid API token: Authorization: Bearer TOKEN")
                    .with(header: "WWW-Authenticate", "Bearer")
            }
            let role = record.role
            if context.route.access == .apiAdmin && !role.canChange {
                return APIResponses.error(status: 403, message: "This token is read-only.")
            }
            state.viewer = Viewer(userID: 0, email: "token:" + record.name, role: role, csrf: "")
        case .anonymous, .signedIn, .admin:
            if let session = try sessions.current(request, now: context.now) {
                state.viewer = session.viewer
                state.csrfSecret = session.secret
            }
            guard context.route.access != .anonymous else { break }
            guard let viewer = state.viewer else {
                if request.isSafeMethod {
                    let goingTo = request.path + (request.query.isEmpty ? "" : "?" + request.query)
                    return .seeOther("/login?next=" + PercentEncoding.encode(goingTo))
                }
                return .seeOther("/login")
            }
            if context.route.access == .admin, !viewer.canChange {
                throw WebError.forbidden("Your account is read-only: ask an admin to make this change.")
            }
        }
        return try next(request, state)
    }

    static func bearerToken(_ request: WebRequest) -> String? {
        guard let header = request.header("authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
}
