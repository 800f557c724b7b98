import Foundation
import Store

/// Where the notifier's settings come from: the environment first (an operator's override, and
/// the way containers are configured), then the settings the dashboard stores in the database.
public enum NotificationSettings {
    /// Keys in the `settings` table, written by the settings page.
    public enum Key {
        public static let smtpURL = "smtp_url"
        public static let smtpFrom = "smtp_from"
        /// "required" or "when-offered".
        public static let smtpStartTLS = "smtp_starttls"
        public static let smtpCAFile = "smtp_ca_file"
        /// The dashboard's public address, for links in messages.
        public static let baseURL = "base_url"
        /// "true" when an admin allows receivers on this machine or a private network.
        public static let allowPrivateReceivers = "allow_private_receivers"
    }

    /// The environment's switch for private receivers; when set, the settings page cannot turn it off.
    public static let allowPrivateEnvironmentKey = "AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS"

    /// Whether webhooks, providers (and the SMTP server) may be on this machine or a private network:
    /// off unless an admin allows it, on the settings page or with AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS=1.
    /// The outbound policy exists because channel URLs are typed by people; an admin who runs an
    /// internal bridge or a compose service as a receiver opts out of it knowingly.
    public static func allowsPrivateReceivers(environment: [String: String], database: some SettingsStore) throws -> Bool {
        if environment[allowPrivateEnvironmentKey] == "1" { return true }
        return try database.setting(Key.allowPrivateReceivers) == "true"
    }

    public static let defaultBaseURL = "http://127.0.0.1:8080"

    /// SMTP settings: env SMTP_URL + SMTP_FROM when both are set, else the stored ones; nil when
    /// neither is complete (email channels then record "email is not configured" per attempt).
    public static func mail(environment: [String: String], database: some SettingsStore) throws -> MailSettings? {
        if let fromEnvironment = MailSettings.fromEnvironment(environment) { return fromEnvironment }
        guard let url = try database.setting(Key.smtpURL), !url.isEmpty,
              let from = try database.setting(Key.smtpFrom), !from.isEmpty else { return nil }
        let mode = try database.setting(Key.smtpStartTLS).flatMap(MailSettings.StartTLS.init(rawValue:)) ?? .whenOffered
        let ca = try database.setting(Key.smtpCAFile).flatMap { $0.isEmpty ? nil : $0 }
        return MailSettings(url: url, from: from, startTLS: mode, caFile: ca,
                            allowPrivateServer: try MailSettings.allowsPrivateServer(environment)
                                || allowsPrivateReceivers(environment: environment, database: database))
    }

    /// Env AASA_MONITOR_BASE_URL, else the stored base URL, else the address this process listens on
    /// (`serve`), else http://127.0.0.1:8080 (a process without a dashboard: `worker`, the CLI).
    public static func links(environment: [String: String], database: some SettingsStore,
                             listening: ListeningAddress? = nil) throws -> NotificationLinks {
        if let env = environment["AASA_MONITOR_BASE_URL"], !env.isEmpty { return NotificationLinks(baseURL: env) }
        if let stored = try database.setting(Key.baseURL), !stored.isEmpty { return NotificationLinks(baseURL: stored) }
        return NotificationLinks(baseURL: listening?.baseURL ?? defaultBaseURL)
    }

    /// A delivery configuration from the environment and the database, with the production
    /// outbound policy (no private addresses) unless an admin allowed private receivers
    /// (`allowsPrivateReceivers`), as tests and closed networks do explicitly.
    public static func deliveryConfiguration(environment: [String: String], database: some SettingsStore,
                                             listening: ListeningAddress? = nil) throws -> DeliveryConfiguration {
        let allowPrivate = try allowsPrivateReceivers(environment: environment, database: database)
        var retry = RetryPolicy()
        // Seconds; for tests and staging that must see retries happen quickly.
        if let initial = environment["AASA_MONITOR_RETRY_INITIAL_SECONDS"].flatMap(Double.init), initial > 0 {
            retry = RetryPolicy(initialDelay: .milliseconds(Int64(initial * 1000)),
                                maximumDelay: max(.milliseconds(Int64(initial * 1000)), .seconds(60)))
        }
        return DeliveryConfiguration(mail: try mail(environment: environment, database: database),
                                     links: try links(environment: environment, database: database, listening: listening),
                                     webhookPolicy: WebhookAddressPolicy(allowPrivateAddresses: allowPrivate),
                                     retry: retry)
    }
}
