import Foundation
import Registry
import Store

/// What a handler gets: the request, its route parameters, who asked, the decoded form (for POST),
/// and the few services handlers use (not the whole app).
public struct RequestContext: Sendable {
    public let request: WebRequest
    public let parameters: RouteParameters
    public let viewer: Viewer?
    /// The decoded form body of a form POST; empty otherwise.
    public let form: FormData
    public let now: Date
    /// An id for this request, shown on error pages and written to the log with the cause.
    public let requestID: String
    /// Cookies set for this request get `Secure`.
    public let isSecure: Bool
    public let configuration: WebConfiguration
    let services: WebServices

    public var nowEpoch: Int64 { Int64(now.timeIntervalSince1970) }
    public var query: FormData { request.queryItems }
    var sessions: Sessions { services.sessions }
    var setup: SetupState { services.setup }
    var limiter: LoginLimiter { services.limiter }
    var changes: ChangeFeed { services.changes }
    var overviewCache: GenerationCache<SharedPage> { services.overviewCache }
    var setupCode: SetupCode { services.setupCode }
    var passwordCheck: PasswordCheck { services.passwordCheck }
    var registry: DomainRegistry { services.registry }
    var appRegistry: AppRegistry { services.appRegistry }

    /// The signed-in viewer; routes that require one are only reached with it set.
    public var signedIn: Viewer {
        get throws {
            guard let viewer else { throw WebError.forbidden("Log in first.") }
            return viewer
        }
    }
}

/// Who may reach a route.
public enum Access: Sendable {
    /// Anyone, including before the first account exists (health, static, badge).
    case open
    /// Anyone, once setup is done (login).
    case anonymous
    /// A signed-in user of any role.
    case signedIn
    /// A signed-in admin; read-only users get 403.
    case admin
    /// A bearer token of any role.
    case api
    /// A bearer token with the admin role.
    case apiAdmin
}

struct Route: Sendable {
    let access: Access
    /// Form POST routes decode the body with these limits and demand the CSRF token.
    let formLimits: FormData.Limits
    let handler: @Sendable (RequestContext) throws -> WebResponse
}
