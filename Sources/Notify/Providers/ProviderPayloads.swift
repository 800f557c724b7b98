import Foundation
import Store

/// Which payload builder and which reading of the answer each provider kind uses.
public enum ProviderPayloads {
    /// The request for one event through one provider channel, or why none can be made (a custom
    /// webhook's template that no longer renders JSON). Pure: the golden tests call it directly.
    public static func message(_ input: ProviderInput) -> Result<ProviderMessage, CustomWebhook.TemplateError> {
        switch input.channel.kind {
        case .pagerduty: .success(PagerDuty.message(input))
        case .opsgenie: .success(Opsgenie.message(input))
        case .teams: .success(Teams.message(input))
        case .discord: .success(Discord.message(input))
        case .googleChat: .success(GoogleChat.message(input))
        case .mattermost: .success(Mattermost.message(input))
        case .telegram: .success(Telegram.message(input))
        case .ntfy: .success(Ntfy.message(input))
        case .customWebhook: CustomWebhook.body(input).map { body in
            var message = ProviderMessage(url: input.channel.target, body: body)
            // Signed like our own webhook, so the receiver can check where it came from.
            if let secret = input.channel.secret.flatMap(WebhookSecret.init) {
                let timestamp = Int(input.now.timeIntervalSince1970)
                message.headers += [.init("webhook-id", input.deliveryKey), .init("webhook-timestamp", String(timestamp)),
                                    .init("webhook-signature", secret.signature(id: input.deliveryKey, timestamp: timestamp, body: body))]
            }
            return message
        }
        case .email, .webhook, .slack:
            .failure(CustomWebhook.TemplateError(description: "\(input.channel.kind.rawValue) is not a provider kind"))
        }
    }

    static func answer(_ kind: ChannelKind) -> ProviderAnswer {
        switch kind {
        case .pagerduty: PagerDuty.answer
        case .opsgenie: Opsgenie.answer
        case .teams: Teams.answer
        case .discord: Discord.answer
        case .googleChat: GoogleChat.answer
        case .mattermost: Mattermost.answer
        case .telegram: Telegram.answer
        case .ntfy: Ntfy.answer
        case .customWebhook, .email, .webhook, .slack: CustomWebhook.answer
        }
    }

    /// Builds, posts and judges one delivery. Blocking; never throws.
    static func send(_ input: ProviderInput, through http: HTTPDelivery) -> DeliveryResult {
        switch message(input) {
        case .failure(let problem):
            return DeliveryResult(verdict: .refused, error: problem.description)
        case .success(let message):
            let exchange = http.post(url: message.url, headers: message.headers.map { ($0.name, $0.value) }, body: message.body)
            return answer(input.channel.kind).result(of: exchange, now: input.now)
        }
    }
}
