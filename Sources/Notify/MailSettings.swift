/// How to reach the SMTP server. From env `SMTP_URL` / `SMTP_FROM` (`SMTP_STARTTLS`, `SMTP_CA_FILE`)
/// or the settings stored in the database.
///
/// `smtp://user:password@host:587` speaks plain SMTP and upgrades with STARTTLS; `smtps://host:465`
/// is TLS from the first byte. User and password come from the URL (percent-encoded).
public struct MailSettings: Sendable, Equatable {
    public enum StartTLS: String, Sendable, Equatable {
        /// Upgrade whenever the server offers STARTTLS; send in the clear only to a server that
        /// offers none (CURLUSESSL_TRY).
        case whenOffered = "when-offered"
        /// Refuse to send unless the session is encrypted (CURLUSESSL_ALL).
        case required
    }

    public var url: String
    public var from: String
    public var startTLS: StartTLS
    /// A CA bundle to trust instead of the system's (a company CA, or the tests' CA).
    public var caFile: String?
    public var timeoutSeconds: Int
    /// Whether the SMTP server may be on this machine or a private network. Off by default: the
    /// server is under the outbound policy like every other connection. An admin whose relay is
    /// local (a postfix on localhost, a mail container beside this one) turns it on explicitly with
    /// SMTP_ALLOW_PRIVATE=1, or with AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS=1, which allows private receivers of every kind.
    public var allowPrivateServer: Bool

    public init(url: String, from: String, startTLS: StartTLS = .whenOffered, caFile: String? = nil,
                timeoutSeconds: Int = 30, allowPrivateServer: Bool = false) {
        self.url = url
        self.from = from
        self.startTLS = startTLS
        self.caFile = caFile
        self.timeoutSeconds = timeoutSeconds
        self.allowPrivateServer = allowPrivateServer
    }

    /// Reads SMTP_URL and SMTP_FROM (both needed), SMTP_STARTTLS (`required` | `when-offered`),
    /// SMTP_CA_FILE and the private-server opt-in. Nil when email is not configured.
    public static func fromEnvironment(_ env: [String: String]) -> MailSettings? {
        guard let url = env["SMTP_URL"], !url.isEmpty, let from = env["SMTP_FROM"], !from.isEmpty else { return nil }
        let mode = env["SMTP_STARTTLS"].flatMap(StartTLS.init(rawValue:)) ?? .whenOffered
        return MailSettings(url: url, from: from, startTLS: mode, caFile: env["SMTP_CA_FILE"],
                            allowPrivateServer: allowsPrivateServer(env))
    }

    /// The admin's explicit opt-in for a private SMTP server (see `allowPrivateServer`).
    public static func allowsPrivateServer(_ env: [String: String]) -> Bool {
        env["SMTP_ALLOW_PRIVATE"] == "1" || env["AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS"] == "1"
    }

    /// The URL without its password, for logs and the delivery log.
    public var redactedURL: String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        guard let at = rest.lastIndex(of: "@") else { return url }
        let userInfo = rest[..<at]
        let user = userInfo.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        return String(url[..<schemeEnd.upperBound]) + user + ":***" + String(rest[at...])
    }
}
