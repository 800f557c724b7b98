/// The route table, built once when the app starts.
extension WebApp {
    static func routes() -> Router<Route> {
        var r = Router<Route>()
        func add(_ method: String, _ pattern: String, _ access: Access, limits: FormData.Limits = .form,
                 _ handler: @escaping @Sendable (RequestContext) throws -> WebResponse) {
            r.add(method, pattern, Route(access: access, formLimits: limits, handler: handler))
        }
        // Accounts
        add("GET", "/login", .anonymous, AccountHandlers.loginForm)
        add("POST", "/login", .anonymous, AccountHandlers.login)
        add("POST", "/logout", .signedIn, AccountHandlers.logout)
        add("GET", "/setup", .anonymous, AccountHandlers.setupForm)
        add("POST", "/setup", .anonymous, AccountHandlers.setup)
        add("GET", "/account/password", .signedIn, AccountHandlers.passwordForm)
        add("POST", "/account/password", .signedIn, AccountHandlers.changePassword)

        // Settings
        add("GET", "/settings", .signedIn, SettingsHandlers.show)
        add("POST", "/settings/defaults", .admin, SettingsHandlers.saveDefaults)
        add("POST", "/users", .admin, AccountHandlers.createUser)
        add("POST", "/users/:id/delete", .admin, AccountHandlers.deleteUser)
        add("POST", "/tokens", .admin, SettingsHandlers.createToken)
        add("POST", "/tokens/:id/delete", .admin, SettingsHandlers.revokeToken)

        // Operations
        add("GET", "/healthz", .open) { c in
            c.database.isReachable() ? .text("ok") : .text("database unreachable", status: 503)
        }
        add("GET", "/", .signedIn) { c in
            .html(AccountPages.problem(status: 200, title: "Domains", message: "The overview is coming.", viewer: c.viewer))
        }
        return r
    }
}
