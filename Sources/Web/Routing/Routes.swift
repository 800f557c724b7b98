import Store

/// The route table, built once when the app starts.
extension WebApp {
    /// The one place that holds the whole database: each handler is given here the store aggregates
    /// it uses (a controller's `store`, or a handler's `store:` argument), never the `Database`.
    static func routes(database: Database) -> Router<Route> {
        var r = Router<Route>()
        let alerts = AlertHandlers(store: database), metrics = MetricsHandler(store: database)
        let tester = TesterHandlers(store: database, documents: RecentDocuments())
        func add(_ method: String, _ pattern: String, _ access: Access, limits: FormData.Limits = .form,
                 _ handler: @escaping @Sendable (RequestContext) throws -> WebResponse) {
            r.add(method, pattern, Route(access: access, formLimits: limits, handler: handler))
        }
        /// A handler that takes the store it uses; it is given the database, seen as only that.
        func add(_ method: String, _ pattern: String, _ access: Access, limits: FormData.Limits = .form,
                 _ handler: @escaping @Sendable (RequestContext, Database) throws -> WebResponse) {
            add(method, pattern, access, limits: limits) { try handler($0, database) }
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
        for section in [SettingsSection.users, .channels, .alerts] { add("GET", section.path, .signedIn, SettingsHandlers.section(section)) }
        add("POST", "/settings/defaults", .admin, SettingsHandlers.saveDefaults)
        add("POST", "/settings/email", .admin, EmailSettingsHandlers.save)
        add("POST", "/settings/private-receivers", .admin, SettingsHandlers.savePrivateReceivers)
        add("POST", "/settings/alerts", .admin, SettingsHandlers.saveAlertTuning)
        add("POST", "/users", .admin, AccountHandlers.createUser)
        add("POST", "/users/:id/delete", .admin, AccountHandlers.deleteUser)
        add("POST", "/tokens", .admin, SettingsHandlers.createToken)
        add("POST", "/tokens/:id/delete", .admin, SettingsHandlers.revokeToken)

        // Alerts and channels
        add("GET", "/alerts", .signedIn) { try alerts.alerts($0) }
        add("GET", "/channels/new", .admin, ChannelHandlers.newForm)
        add("POST", "/channels", .admin, ChannelHandlers.create)
        add("POST", "/channels/:id/delete", .admin, ChannelHandlers.delete)
        add("POST", "/channels/:id/test", .admin, ChannelHandlers.sendTest)
        add("GET", "/channels/:id/edit", .admin, ChannelHandlers.editForm)
        add("POST", "/channels/:id/edit", .admin, ChannelHandlers.update)

        // JSON API
        add("GET", "/api/v1/openapi.json", .open) { _ in .json(Array(OpenAPIDocument.json.utf8)) }
        add("GET", "/api/v1/domains", .api, DomainAPI.list)
        add("POST", "/api/v1/domains", .apiAdmin, DomainAPI.create)
        add("GET", "/api/v1/domains/:domain", .api, DomainAPI.read)
        add("PATCH", "/api/v1/domains/:domain", .apiAdmin, DomainAPI.update)
        add("DELETE", "/api/v1/domains/:domain", .apiAdmin, DomainAPI.delete)
        add("POST", "/api/v1/domains/:domain/check", .apiAdmin, DomainAPI.checkNow)
        add("GET", "/api/v1/domains/:domain/checks", .api, DomainAPI.checks)
        add("GET", "/api/v1/domains/:domain/findings", .api, DomainAPI.findings)
        add("GET", "/api/v1/domains/:domain/diff", .api, DomainAPI.diff)
        add("GET", "/api/v1/versions/:hash", .api, VersionDownload.raw)
        add("GET", "/api/v1/channels", .api, ChannelAPI.list)
        add("POST", "/api/v1/channels", .apiAdmin, ChannelAPI.create)
        add("GET", "/api/v1/channels/:id", .api, ChannelAPI.read)
        add("DELETE", "/api/v1/channels/:id", .apiAdmin, ChannelAPI.delete)
        add("POST", "/api/v1/channels/:id/test", .apiAdmin, ChannelAPI.test)
        add("POST", "/api/v1/test-url", .api) { try DomainAPI.testURL($0, tester: tester) }
        add("GET", "/api/v1/settings/alerts", .api, AlertSettingsAPI.read)
        add("PATCH", "/api/v1/settings/alerts", .apiAdmin, AlertSettingsAPI.change)
        add("GET", "/api/v1/apps", .api, AppAPI.list)
        add("POST", "/api/v1/apps", .apiAdmin, AppAPI.create)
        add("GET", "/api/v1/apps/:id", .api, AppAPI.read)
        add("PATCH", "/api/v1/apps/:id", .apiAdmin, AppAPI.change)
        add("DELETE", "/api/v1/apps/:id", .apiAdmin, AppAPI.delete)
        add("POST", "/api/v1/apps/:id/check", .apiAdmin, AppAPI.checkNow)
        // The CLI's operations (`--server`): each runs the registry code its local command runs.
        add("GET", "/api/v1/status", .api, StatusAPI.read)
        add("POST", "/api/v1/import", .apiAdmin, ImportAPI.run)
        add("POST", "/api/v1/check-now", .apiAdmin, CheckNowAPI.run)
        add("GET", "/api/v1/config", .api, ConfigAPI.export)
        add("POST", "/api/v1/config/plan", .api, ConfigAPI.plan)
        add("POST", "/api/v1/config/apply", .apiAdmin, ConfigAPI.apply)

        // For the ecosystem
        add("GET", "/metrics", .open) { try metrics.metrics($0) }
        add("GET", "/badge/:file", .open, EcosystemHandlers.badge)
        add("GET", "/export/domains.csv", .signedIn, EcosystemHandlers.exportCSV)
        add("GET", "/export/domains.json", .signedIn, EcosystemHandlers.exportJSON)

        // Operations
        add("GET", "/healthz", .open) { _ in
            database.isReachable()
                ? .json(Array(#"{"status":"ok","database":"ok"}"#.utf8))
                : .json(Array(#"{"status":"unavailable","database":"unreachable"}"#.utf8), status: 503)
        }
        // Domains
        add("GET", "/", .signedIn, DomainHandlers.overview)
        add("GET", "/domains/new", .admin, DomainHandlers.newForm)
        add("POST", "/domains", .admin, DomainHandlers.create)
        add("GET", "/domains/bulk", .admin, BulkHandlers.confirm)
        add("POST", "/domains/bulk", .admin, BulkHandlers.apply)
        add("GET", "/domains/import", .admin, BulkHandlers.importForm)
        add("POST", "/domains/import/preview", .admin, limits: .appFiles, BulkHandlers.importPreview)
        add("POST", "/domains/import", .admin, limits: .appFiles, BulkHandlers.importList)
        add("GET", "/domains/:id", .signedIn, DomainHandlers.show)
        add("GET", "/domains/:id/status", .signedIn, DomainHandlers.status)
        add("POST", "/domains/:id/check", .admin, DomainHandlers.checkNow)
        add("POST", "/domains/:id/pause", .admin, DomainHandlers.pause)
        add("POST", "/domains/:id/resume", .admin, DomainHandlers.resume)
        add("GET", "/domains/:id/edit", .admin, DomainHandlers.editForm)
        add("POST", "/domains/:id/edit", .admin, DomainHandlers.update)
        add("GET", "/domains/:id/delete", .admin, DomainHandlers.deleteConfirm)
        add("POST", "/domains/:id/delete", .admin, DomainHandlers.delete)
        add("GET", "/versions/:hash", .signedIn, VersionDownload.raw)

        // Apps
        add("GET", "/apps", .signedIn, AppHandlers.list)
        add("GET", "/apps/new", .admin, AppHandlers.newForm)
        add("POST", "/apps/new", .admin, limits: .appFiles, AppHandlers.newForm)
        add("POST", "/apps/preview", .admin, limits: .appFiles, AppHandlers.preview)
        add("POST", "/apps", .admin, limits: .appFiles, AppHandlers.create)
        add("GET", "/apps/:id", .signedIn, AppHandlers.show)
        add("GET", "/apps/:id/edit", .admin, AppHandlers.editForm)
        add("POST", "/apps/:id/edit/preview", .admin, limits: .appFiles, AppHandlers.editPreview)
        add("POST", "/apps/:id/edit", .admin, limits: .appFiles, AppHandlers.update)
        add("POST", "/apps/:id/check", .admin, AppHandlers.checkNow)
        add("GET", "/apps/:id/delete", .admin, AppHandlers.deleteConfirm)
        add("POST", "/apps/:id/delete", .admin, AppHandlers.delete)

        // URL tester
        add("GET", "/tester", .signedIn) { try tester.form($0) }
        add("POST", "/tester", .signedIn, limits: .pastedFile) { try tester.run($0) }
        return r
    }
}
