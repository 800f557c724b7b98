import Foundation
import Notify
import Store

/// Until the first account exists, every page but `/setup` leads there, and `/setup` itself answers
/// only under a host name the server knows as its own (`HostAllowList`); the form then asks for the
/// one-time code `serve` printed in its log. Open routes (health, badge, metrics, the OpenAPI
/// document) and the token-authenticated API answer as usual.
struct SetupGate: WebMiddleware {
    let setup: SetupState
    let hosts: HostAllowList
    /// The dashboard's address from the environment; the one stored in the settings is read when needed.
    let baseURL: String?

    init(setup: SetupState, hosts: HostAllowList = HostAllowList(), baseURL: String? = nil) {
        self.setup = setup
        self.hosts = hosts
        self.baseURL = baseURL
    }

    func handle(_ request: WebRequest, context: RequestState, next: WebMiddlewareNext) throws -> WebResponse {
        switch context.route.access {
        case .open, .api, .apiAdmin:
            return try next(request, context)
        case .anonymous, .signedIn, .admin:
            if try setup.isSetUp() { return try next(request, context) }
            if request.path != "/setup" { return .seeOther("/setup") }
            let host = request.header("host")
            if !hosts.allows(host, baseURLHost: try baseURLHost()) {
                throw WebError.forbidden("""
                    First-run setup answers only under this server's own names. Open it at http://localhost:PORT/setup \
                    (an SSH tunnel works), or add \(host ?? "the name") to AASA_MONITOR_ALLOWED_HOSTS and restart.
                    """)
            }
            return try next(request, context)
        }
    }

    private func baseURLHost() throws -> String? {
        let url = try baseURL ?? setup.database.setting(NotificationSettings.Key.baseURL)
        return url.flatMap { URLComponents(string: $0)?.host }
    }

}
