import Foundation
import Store
import Vocabulary

/// Discord's "Execute Webhook" (discord.com/developers/docs/resources/webhook): a short content
/// line and one embed. Mentions are switched off (`allowed_mentions`), so an "@everyone" in a
/// finding's text never pings a server.
enum Discord {
    static let answer = ProviderAnswer(provider: "Discord", messagePaths: [["message"]], retryAfterPaths: [["retry_after"]])

    struct Message: Encodable {
        /// At most 2,000 characters.
        var content: String
        var username = "aasa-monitor"
        var embeds: [Embed]
        var allowed_mentions = AllowedMentions()
    }

    struct AllowedMentions: Encodable {
        var parse: [String] = []
    }

    struct Embed: Encodable {
        /// At most 256 characters.
        var title: String
        /// At most 4,096 characters.
        var description: String
        var url: String
        var color: Int
        var timestamp: String
        /// At most 25; name ≤ 256, value ≤ 1,024 characters.
        var fields: [Field]
    }

    struct Field: Encodable {
        var name: String
        var value: String
        var inline: Bool
    }

    static func message(_ input: ProviderInput) -> ProviderMessage {
        let event = input.event
        var description = event.detail.map { $0 + "\n\n" } ?? ""
        description += (ProviderJSON.findingLines(event) + event.diffSummary.prefix(10)).map { "• " + $0 }.joined(separator: "\n")
        var fields = [Field(name: "Domain", value: ProviderJSON.cut(event.domainName, 1024), inline: true),
                      Field(name: "Severity", value: event.severity.rawValue, inline: true)]
        if let rule = event.rule { fields.append(Field(name: "Rule", value: ProviderJSON.cut(rule, 1024), inline: true)) }
        let embed = Embed(title: ProviderJSON.cut(NotificationText.headline(event), 256),
                          description: ProviderJSON.cut(description.isEmpty ? event.title : description, 4096),
                          url: input.links.domainPage(event), color: color(event),
                          timestamp: UTCTimestamp.iso8601(event.occurredAt), fields: fields)
        let message = Message(content: ProviderJSON.cut(NotificationText.subject(event), 2000), embeds: [embed])
        return ProviderMessage(url: input.channel.target, body: ProviderJSON.encode(message))
    }

    static func color(_ event: NotificationEvent) -> Int {
        switch (event.kind, event.severity) {
        case (.alertResolved, _): 0x1E8E3E
        case (.test, _), (.versionPublished, _), (_, .info): 0x1A73E8
        case (_, .critical): 0xD93025
        case (_, .warning): 0xF9AB00
        }
    }
}
