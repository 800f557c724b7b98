import Store

/// Which settings a channel kind takes in a config file, and which of them are secrets. A secret
/// never appears in a plan, an export or a log: the export writes the file's `${NAME}` reference
/// (or a placeholder to fill in), never the value.
struct ChannelFields: Sendable {
    /// The key of the target (the address or URL the channel sends to).
    var targetKey: String
    /// The target itself is a credential (a Slack incoming-webhook URL lets anyone post).
    var targetIsSecret: Bool
    /// The kind signs its requests with a `secret:` (`whsec_…`), which a file must give as `${NAME}`.
    var takesSigningSecret: Bool

    var keys: [String] { takesSigningSecret ? [targetKey, "secret"] : [targetKey] }

    /// nil for a kind that config files cannot declare yet (the settings page and CLI still can).
    static func of(_ kind: ChannelKind) -> ChannelFields? {
        switch kind {
        case .email: ChannelFields(targetKey: "to", targetIsSecret: false, takesSigningSecret: false)
        case .webhook: ChannelFields(targetKey: "url", targetIsSecret: false, takesSigningSecret: true)
        case .slack: ChannelFields(targetKey: "url", targetIsSecret: true, takesSigningSecret: false)
        case .pagerduty, .opsgenie, .teams, .discord, .googleChat, .mattermost, .telegram, .ntfy, .customWebhook: nil
        }
    }

    /// What export writes for a secret it has no reference for: a variable named after the channel,
    /// for the person to set (apply refuses the file until it is set).
    static func placeholder(channel: String, key: String) -> String {
        let stem = channel.uppercased().unicodeScalars.map { ("A"..."Z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "_" }
        return "${AASA_MONITOR_CHANNEL_\(String(stem))_\(key.uppercased())}"
    }
}
