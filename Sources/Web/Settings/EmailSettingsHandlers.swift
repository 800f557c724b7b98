import Foundation
import Notify
import Store

/// Settings → "Email and links": the SMTP server, sender, STARTTLS mode, CA file and the dashboard's
/// public address, stored under the keys the notifier reads (`NotificationSettings.Key`).
enum EmailSettingsHandlers {
    static func save(_ c: RequestContext, store: any SettingsPageStore) throws -> WebResponse {
        let stored = try store.setting(NotificationSettings.Key.smtpURL)
        let (values, typed, errors) = EmailSettingsInput.validate(form: c.form, storedURL: stored)
        guard let values else {
            return try SettingsHandlers.page(c, store: store, section: .general, errors: errors, values: [:], status: 422, email: typed)
        }
        try store.withTransaction { transaction in
            for (key, value) in values { try transaction.setSetting(key, value) }
        }
        return c.redirect("/settings#email", flash: Flash(.success, "Email and link settings saved; the next notification uses them."))
    }

    /// Which of the stored values the environment overrides (the notifier prefers it), for the page to say so.
    static func environmentOverrides(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var names: [String] = []
        if MailSettings.fromEnvironment(environment) != nil { names += ["SMTP_URL", "SMTP_FROM"] }
        if let base = environment["AASA_MONITOR_BASE_URL"], !base.isEmpty { names.append("AASA_MONITOR_BASE_URL") }
        return names
    }
}
