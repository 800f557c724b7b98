import Foundation
import Store
import Vocabulary

/// Mattermost incoming webhooks (developers.mattermost.com, "Incoming webhooks") and Rocket.Chat's,
/// which take the same `{"text": markdown}` body.
enum Mattermost {
    static let answer = ProviderAnswer(provider: "Mattermost", messagePaths: [["message"], ["error"]])

    struct Message: Encodable {
        /// Mattermost splits posts over 16,383 characters; we stay well below.
        var text: String
    }

    static func message(_ input: ProviderInput) -> ProviderMessage {
        let lines = ChatMarkup.markdown.lines(input)
        return ProviderMessage(url: input.channel.target, body: ProviderJSON.encode(Message(text: ProviderJSON.cut(lines.joined(separator: "\n"), 12_000))))
    }
}
