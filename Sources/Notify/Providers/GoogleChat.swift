import Foundation
import Store
import Vocabulary

/// Google Chat incoming webhooks (developers.google.com/workspace/chat/quickstart/webhooks): a text
/// message in Chat's own markup (*bold*, `code`, <url|label>). An alert's opening, escalation and
/// resolution share a thread (threadKey, and a new thread when the first one is gone).
enum GoogleChat {
    static let answer = ProviderAnswer(provider: "Google Chat", messagePaths: [["error", "message"], ["message"]])

    struct Message: Encodable {
        /// Chat takes up to 4,096 characters of text.
        var text: String
    }

    static func message(_ input: ProviderInput) -> ProviderMessage {
        let event = input.event
        let lines = ChatMarkup.googleChat.lines(input)
        var url = input.channel.target
        if event.alertID != nil {
            url += (url.contains("?") ? "&" : "?")
                + "threadKey=\(input.incidentKey)&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD"
        }
        return ProviderMessage(url: url, body: ProviderJSON.encode(Message(text: ProviderJSON.cut(lines.joined(separator: "\n"), 4096))))
    }
}
