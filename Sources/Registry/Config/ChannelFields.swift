import Notify
import Store

/// Which settings a channel kind takes in a config file, and which of them are secrets, derived
/// from the one description every form reads (`kind.inputs`). A secret never appears in a plan, an
/// export or a log: the export writes the file's `${NAME}` reference (or a placeholder to fill in).
struct ChannelFields: Sendable {
    /// The key of the target: `to` (an address) or `url`.
    var targetKey: String
    /// False for provider APIs (PagerDuty, Opsgenie, Telegram): left out, the provider's own.
    var targetRequired: Bool
    /// The provider's API when the file names none.
    var defaultTarget: String?
    /// The URL itself is a credential (a Slack, Teams, Discord … webhook URL lets anyone post).
    var targetIsSecret: Bool
    /// The key of the kind's secret (`secret` for a webhook's whsec_ signing secret, `routing_key`,
    /// `api_key`, `bot_token`, `access_token`), which a file must give as `${NAME}`.
    var secretKey: String?
    /// A new channel of the kind cannot do without it.
    var secretRequired: Bool
    /// Telegram's `chat_id`.
    var recipientKey: String?
    /// The custom webhook's `template` (its JSON body, Mustache).
    var templateKey: String?

    var keys: [String] { [targetKey] + [secretKey, recipientKey, templateKey].compactMap { $0 } }

    static func of(_ kind: ChannelKind) -> ChannelFields {
        let inputs = kind.inputs
        var fields = ChannelFields(targetKey: "url", targetRequired: true, defaultTarget: nil, targetIsSecret: false, secretKey: nil,
                                   secretRequired: false, recipientKey: nil, templateKey: inputs.needsTemplate ? "template" : nil)
        switch inputs.target {
        case .emailAddress:
            fields.targetKey = "to"
        case .url:
            fields.targetIsSecret = inputs.targetIsCredential
        case .endpoint(let fallback, _):
            fields.targetRequired = false
            fields.defaultTarget = fallback
        }
        if inputs.generatesSigningSecret {
            fields.secretKey = "secret"
            fields.secretRequired = true
        } else if let credential = inputs.credential {
            fields.secretKey = credential.lowercased().replacingOccurrences(of: " ", with: "_")
            fields.secretRequired = inputs.credentialRequired
        }
        if let recipient = inputs.recipient { fields.recipientKey = recipient.lowercased().replacingOccurrences(of: " ", with: "_") }
        return fields
    }

    /// What export writes for a secret it has no reference for: a variable named after the channel,
    /// for the person to set (apply refuses the file until it is set).
    static func placeholder(channel: String, key: String) -> String {
        let stem = channel.uppercased().unicodeScalars.map { ("A"..."Z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "_" }
        return "${AASA_MONITOR_CHANNEL_\(String(stem))_\(key.uppercased())}"
    }
}
