import Store
import Testing
@testable import Notify

/// What each kind of channel asks a person for: the settings form, the API, the CLI and config files
/// all ask and check by this table, so every kind's answers are pinned here (its help line is prose).
@Suite struct ChannelInputsTests {
    struct Asks: Equatable, CustomStringConvertible {
        var target: ChannelInputs.Target
        var credential: String?
        var credentialRequired = false
        var generatesSigningSecret = false
        var recipient: String?
        var needsTemplate = false
        var closesIncidents = false

        init(_ inputs: ChannelInputs) {
            self.init(target: inputs.target, credential: inputs.credential, credentialRequired: inputs.credentialRequired,
                      generatesSigningSecret: inputs.generatesSigningSecret, recipient: inputs.recipient,
                      needsTemplate: inputs.needsTemplate, closesIncidents: inputs.closesIncidents)
        }

        init(target: ChannelInputs.Target, credential: String? = nil, credentialRequired: Bool = false,
             generatesSigningSecret: Bool = false, recipient: String? = nil, needsTemplate: Bool = false,
             closesIncidents: Bool = false) {
            self.target = target
            self.credential = credential
            self.credentialRequired = credentialRequired
            self.generatesSigningSecret = generatesSigningSecret
            self.recipient = recipient
            self.needsTemplate = needsTemplate
            self.closesIncidents = closesIncidents
        }

        var description: String {
            "\(target) credential=\(credential ?? "-") required=\(credentialRequired) signing=\(generatesSigningSecret) "
                + "recipient=\(recipient ?? "-") template=\(needsTemplate) closes=\(closesIncidents)"
        }
    }

    static let expected: [ChannelKind: Asks] = [
        .email: Asks(target: .emailAddress),
        .webhook: Asks(target: .url(example: "https://hooks.example.com/aasa"), generatesSigningSecret: true),
        .slack: Asks(target: .url(example: "https://hooks.slack.com/services/T…/B…/…")),
        .pagerduty: Asks(target: .endpoint(default: "https://events.pagerduty.com", alternatives: "EU: https://events.eu.pagerduty.com"),
                         credential: "routing key", credentialRequired: true, closesIncidents: true),
        .opsgenie: Asks(target: .endpoint(default: "https://api.opsgenie.com", alternatives: "EU: https://api.eu.opsgenie.com"),
                        credential: "API key", credentialRequired: true, closesIncidents: true),
        .teams: Asks(target: .url(example: "https://prod-00.westus.logic.azure.com/workflows/…")),
        .discord: Asks(target: .url(example: "https://discord.com/api/webhooks/…/…")),
        .googleChat: Asks(target: .url(example: "https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…")),
        .mattermost: Asks(target: .url(example: "https://chat.example.com/hooks/…")),
        .telegram: Asks(target: .endpoint(default: "https://api.telegram.org", alternatives: "a local Bot API server"),
                        credential: "bot token", credentialRequired: true, recipient: "chat id"),
        .ntfy: Asks(target: .url(example: "https://ntfy.sh/your-topic"), credential: "access token"),
        .customWebhook: Asks(target: .url(example: "https://hooks.example.com/alerts"), generatesSigningSecret: true, needsTemplate: true),
    ]

    @Test(arguments: ChannelKind.allCases)
    func eachKindAsksForWhatItNeeds(kind: ChannelKind) throws {
        let expected = try #require(Self.expected[kind], "a new kind: say here what it asks for")
        #expect(Asks(kind.inputs) == expected)
        #expect(!kind.inputs.help.isEmpty)
    }
}
