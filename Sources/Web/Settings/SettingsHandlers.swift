import Foundation
import Notify
import Registry
import Store

/// What the settings sections show — accounts and API tokens, channels with their routing (domains,
/// apps) and last delivery, the stored email settings — and what their forms write in one transaction.
/// The account, channel and email handlers render a section again with their errors, so they take it too.
typealias SettingsPageStore = AccountStore & SettingsStore & AlertStore & AppStore & DomainStore & TransactionalStore

enum SettingsHandlers {
    static func show(_ c: RequestContext, store: any SettingsPageStore) throws -> WebResponse {
        try page(c, store: store, section: .general, errors: [:], values: [:], status: 200)
    }

    /// GET /settings/users, /settings/channels, /settings/alerts.
    static func section(_ section: SettingsSection) -> @Sendable (RequestContext, Database) throws -> WebResponse {
        { c, store in try page(c, store: store, section: section, errors: [:], values: [:], status: 200) }
    }

    /// A section of the settings, with the errors and values of a form of it that was refused.
    static func page(_ c: RequestContext, store: any SettingsPageStore, section: SettingsSection, errors: [String: String],
                     values: [String: String], status: Int, newToken: String? = nil, flash: Flash? = nil,
                     email: EmailSettingsInput? = nil, tested: (id: Int64, outcome: ChannelSetup.TestOutcome)? = nil) throws -> WebResponse {
        var m = SettingsModel(now: c.nowEpoch, section: section)
        switch section {
        case .general:
            m.defaultIntervalMinutes = try c.registry.defaultIntervalMinutes()
            let shown = try email ?? EmailSettingsInput.stored { try store.setting($0) }
            m.email = .init(smtpURL: shown.smtpURL, smtpFrom: shown.smtpFrom, startTLS: shown.startTLS.rawValue, caFile: shown.caFile,
                            baseURL: shown.baseURL, environmentOverrides: EmailSettingsHandlers.environmentOverrides())
        case .users:
            m.users = try store.users().map {
                .init(id: $0.id, email: $0.email, role: $0.role, created: Int64($0.createdAt.timeIntervalSince1970))
            }
            m.tokens = try store.apiTokens().map {
                .init(id: $0.id, name: $0.name, created: Int64($0.createdAt.timeIntervalSince1970),
                      lastUsed: $0.lastUsedAt.map { Int64($0.timeIntervalSince1970) })
            }
            m.newToken = newToken
        case .channels:
            m.channels = try ChannelHandlers.channelRows(c, store: store, tested: tested)
            m.privateReceiversFromEnvironment = ProcessInfo.processInfo.environment[NotificationSettings.allowPrivateEnvironmentKey] == "1"
            m.allowPrivateReceivers = try NotificationSettings.allowsPrivateReceivers(environment: ProcessInfo.processInfo.environment,
                                                                                     database: store)
        case .alerts:
            m.alertTuning = try store.alertTuning()
        }
        m.errors = errors
        m.values = values
        let banner = c.flash
        return c.showing(banner, .html(SettingsPage.render(m, viewer: try c.signedIn, flash: flash ?? banner), status: status))
    }

    /// The admin's explicit switch for webhooks and providers on private addresses.
    static func savePrivateReceivers(_ c: RequestContext, store: any SettingsStore) throws -> WebResponse {
        let allow = c.form["allow"] == "1"
        try store.setSetting(NotificationSettings.Key.allowPrivateReceivers, allow ? "true" : "false")
        return c.redirect("/settings/channels#private-receivers", flash: Flash(.success, allow
            ? "Private receivers allowed: channels may now send to this machine and private networks."
            : "Private receivers refused again."))
    }

    static func saveDefaults(_ c: RequestContext) throws -> WebResponse {
        do {
            try c.registry.setDefaultInterval(minutes: Int(c.form["interval"] ?? "") ?? 0)
        } catch let refusal as RegistrationError {
            throw WebError.badRequest(refusal.first.message, field: "interval")
        }
        return c.redirect("/settings", flash: Flash(.success, "Defaults saved."))
    }

    /// The alert thresholds and retry interval; out of range, the page again with each field's problem.
    static func saveAlertTuning(_ c: RequestContext, store: any SettingsPageStore) throws -> WebResponse {
        let names = ["failure_threshold", "success_threshold", "retry_minutes"]
        let given = Dictionary(uniqueKeysWithValues: names.map { ($0, (c.form[$0] ?? "").trimmingCharacters(in: .whitespaces)) })
        func number(_ name: String) -> Int { given[name].flatMap { Int($0) } ?? 0 }
        let tuning = AlertTuning(failureThreshold: number("failure_threshold"), successThreshold: number("success_threshold"),
                                 retryMinutes: number("retry_minutes"))
        guard tuning.problems.isEmpty else {
            return try page(c, store: store, section: .alerts, errors: tuning.problems, values: given, status: 422)
        }
        try store.withTransaction { try $0.setAlertTuning(tuning) }
        return c.redirect("/settings/alerts", flash: Flash(.success, "Alerting saved: \(tuning.sentence)."))
    }

    static func createToken(_ c: RequestContext, store: any SettingsPageStore) throws -> WebResponse {
        let name = (c.form["name"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100 else {
            return try page(c, store: store, section: .users, errors: ["name": "Give the token a name (up to 100 characters), e.g. ci."], values: ["name": name], status: 422)
        }
        let token = SecretToken.generate(prefix: "aasa_")
        _ = try store.createAPIToken(name: name, tokenHash: token.digest, userID: (try c.signedIn).userID, role: .admin)
        // Shown on this response only; it is not stored anywhere we could show it again.
        return try page(c, store: store, section: .users, errors: [:], values: [:], status: 200, newToken: token.value)
    }

    static func revokeToken(_ c: RequestContext, store: any AccountStore) throws -> WebResponse {
        guard let id = c.parameters.id("id") else { throw WebError.notFound("No such token.") }
        try store.revokeAPIToken(id: id)
        return c.redirect("/settings/users#tokens", flash: Flash(.success, "Token revoked."))
    }
}
