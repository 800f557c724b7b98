import Foundation
import Store
import TextEncoding

/// The chat providers' message, one shape in each chat's markup: the headline in bold, the detail,
/// severity and rule, findings and changes as bullets, a link to the domain's page.
struct ChatMarkup: Sendable {
    var bold: @Sendable (String) -> String
    var code: @Sendable (String) -> String
    var link: @Sendable (_ url: String, _ label: String) -> String
    /// Escapes text we did not write (Telegram's HTML); identity for the markdown chats, which show
    /// a stray "*" as it is at worst.
    var text: @Sendable (String) -> String = { $0 }
    var bullet = "• "

    func lines(_ input: ProviderInput) -> [String] {
        let event = input.event
        var lines = [bold(text(NotificationText.headline(event)))]
        if let detail = event.detail { lines.append(text(detail)) }
        var facts = "Severity: \(event.severity.rawValue)"
        if let rule = event.rule { facts += " · Rule: " + code(text(rule)) }
        lines.append(facts)
        lines += (ProviderJSON.findingLines(event) + event.diffSummary.prefix(10)).map { bullet + text(ProviderJSON.cut($0, 300)) }
        lines.append(link(input.links.domainPage(event), text("Open \(event.domainName) in aasa-monitor")))
        return lines
    }

    /// Google Chat's own markup (*bold*, `code`, <url|label>).
    static let googleChat = ChatMarkup(bold: { "*\($0)*" }, code: { "`\($0)`" }, link: { "<\($0)|\($1)>" })
    /// Markdown, as Mattermost and Rocket.Chat read it.
    static let markdown = ChatMarkup(bold: { "**\($0)**" }, code: { "`\($0)`" }, link: { "[\($1)](\($0))" }, bullet: "- ")
    /// Telegram's parse_mode HTML: every value we did not write is escaped.
    static let telegramHTML = ChatMarkup(bold: { "<b>\($0)</b>" }, code: { "<code>\($0)</code>" },
                                         link: { "<a href=\"\(MarkupEscaping.html($0))\">\($1)</a>" },
                                         text: { MarkupEscaping.html($0) })
}
