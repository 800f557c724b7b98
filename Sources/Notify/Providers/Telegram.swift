import Foundation
import Store
import Vocabulary

/// Telegram Bot API sendMessage (core.telegram.org/bots/api#sendmessage) with parse_mode HTML: every
/// value we did not write is escaped (`ChatMarkup.telegramHTML`), so a finding's "<" cannot break the message.
enum Telegram {
    static let answer = ProviderAnswer(provider: "Telegram", messagePaths: [["description"]],
                                       retryAfterPaths: [["parameters", "retry_after"]])

    struct SendMessage: Encodable {
        var chat_id: String
        /// At most 4,096 characters after entities are parsed.
        var text: String
        var parse_mode = "HTML"
        var link_preview_options = LinkPreview()
    }

    struct LinkPreview: Encodable {
        var is_disabled = true
    }

    static func message(_ input: ProviderInput) -> ProviderMessage {
        let lines = ChatMarkup.telegramHTML.lines(input)
        // The token is part of the path, as the Bot API wants it; it never leaves this URL.
        let url = input.base + "/bot\(input.channel.secret ?? "")/sendMessage"
        return ProviderMessage(url: url, body: ProviderJSON.encode(SendMessage(chat_id: input.channel.recipient ?? "",
                                                                            text: lines.joined(separator: "\n"))))
    }
}
