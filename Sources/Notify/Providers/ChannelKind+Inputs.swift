import Store

/// What each kind of channel asks a person for. The settings form, the API, the CLI and config files
/// all ask through this one description, and `ChannelSetup.add` checks a channel against it.
public struct ChannelInputs: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        /// An email address.
        case emailAddress
        /// A URL the person copies from the provider (a webhook URL, an ntfy topic URL).
        case url(example: String)
        /// The provider's API; `default` unless the person names another (an EU region, a proxy).
        case endpoint(default: String, alternatives: String)
    }

    public var target: Target
    /// The credential's name ("routing key"), nil when the kind has none to enter. Stored in the
    /// channel's secret and never shown again.
    public var credential: String?
    public var credentialRequired = false
    /// We make the credential (a Standard Webhooks signing secret) and show it once.
    public var generatesSigningSecret = false
    /// The recipient's name inside the provider ("chat id"), when the URL does not say it.
    public var recipient: String?
    /// The kind's body is the person's template.
    public var needsTemplate = false
    /// One line for forms and help: what to paste and where to find it.
    public var help: String
    /// Whether the provider has incidents that a resolved alert closes.
    public var closesIncidents = false

    /// The URL itself is a credential: anyone who holds a Slack, Teams, Discord … incoming-webhook
    /// URL (or an ntfy topic's) can post to it. Our signed webhook and the custom one go to the
    /// team's own receivers, and a provider's API URL is public: those are not secret.
    /// The target is a provider's API, which an empty field leaves at the provider's own.
    public var hasProviderEndpoint: Bool {
        if case .endpoint = target { return true }
        return false
    }

    public var targetIsCredential: Bool {
        guard case .url = target else { return false }
        return !(generatesSigningSecret || needsTemplate)
    }
}

extension ChannelKind {
    /// People's name for the kind.
    public var displayName: String {
        switch self {
        case .email: "Email"
        case .webhook: "Webhook (signed JSON event)"
        case .slack: "Slack"
        case .pagerduty: "PagerDuty"
        case .opsgenie: "Opsgenie"
        case .teams: "Microsoft Teams"
        case .discord: "Discord"
        case .googleChat: "Google Chat"
        case .mattermost: "Mattermost / Rocket.Chat"
        case .telegram: "Telegram"
        case .ntfy: "ntfy"
        case .customWebhook: "Webhook with your JSON template"
        }
    }

    /// What the kind asks for beyond its target and help line; what a case leaves out, it does not ask
    /// for (no credential, no recipient, no template, nothing signed, no incidents to close).
    public var inputs: ChannelInputs {
        switch self {
        case .email:
            ChannelInputs(target: .emailAddress, help: "One address; sent through the mail server set under Settings → General.")
        case .webhook:
            ChannelInputs(target: .url(example: "https://hooks.example.com/aasa"), generatesSigningSecret: true,
                          help: "Our JSON event, signed per Standard Webhooks; the signing secret is shown once.")
        case .slack:
            ChannelInputs(target: .url(example: "https://hooks.slack.com/services/T…/B…/…"),
                          help: "A Slack incoming-webhook URL (Slack app → Incoming Webhooks).")
        case .pagerduty:
            ChannelInputs(target: .endpoint(default: "https://events.pagerduty.com", alternatives: "EU: https://events.eu.pagerduty.com"),
                          credential: "routing key", credentialRequired: true,
                          help: "The integration key of an Events API v2 integration (Service → Integrations). "
                              + "Alerts trigger incidents; a resolved alert resolves its incident.",
                          closesIncidents: true)
        case .opsgenie:
            ChannelInputs(target: .endpoint(default: "https://api.opsgenie.com", alternatives: "EU: https://api.eu.opsgenie.com"),
                          credential: "API key", credentialRequired: true,
                          help: "The key of an API integration (Teams → Integrations → API). "
                              + "Alerts create Opsgenie alerts; a resolved alert closes its alert by alias.",
                          closesIncidents: true)
        case .teams:
            ChannelInputs(target: .url(example: "https://prod-00.westus.logic.azure.com/workflows/…"),
                          help: "The URL of a Workflows webhook (channel → Workflows → \"Post to a channel when a webhook request is received\"); "
                              + "messages arrive as Adaptive Cards.")
        case .discord:
            ChannelInputs(target: .url(example: "https://discord.com/api/webhooks/…/…"),
                          help: "A channel webhook URL (channel settings → Integrations → Webhooks).")
        case .googleChat:
            ChannelInputs(target: .url(example: "https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…"),
                          help: "A space's webhook URL (space → Apps & integrations → Webhooks); an alert and its resolution share a thread.")
        case .mattermost:
            ChannelInputs(target: .url(example: "https://chat.example.com/hooks/…"),
                          help: "A Mattermost or Rocket.Chat incoming-webhook URL.")
        case .telegram:
            ChannelInputs(target: .endpoint(default: "https://api.telegram.org", alternatives: "a local Bot API server"),
                          credential: "bot token", credentialRequired: true, recipient: "chat id",
                          help: "A bot token from @BotFather and the chat's id (a number, or @channelname for a public channel).")
        case .ntfy:
            ChannelInputs(target: .url(example: "https://ntfy.sh/your-topic"), credential: "access token",
                          help: "The topic's URL on ntfy.sh or your own server; an access token (tk_…) for a protected topic.")
        case .customWebhook:
            ChannelInputs(target: .url(example: "https://hooks.example.com/alerts"), generatesSigningSecret: true, needsTemplate: true,
                          help: "POSTs your Mustache template of JSON ({{title}}, {{domain}}, {{severity}}, …), signed like the webhook.")
        }
    }
}
