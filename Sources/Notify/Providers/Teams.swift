import Foundation
import Store
import Vocabulary

/// Microsoft Teams through a Workflows webhook ("Post to a channel when a webhook request is
/// received"): a message whose one attachment is an Adaptive Card (adaptivecards.io, schema 1.4, the
/// version Teams renders), with a link back to the dashboard.
enum Teams {
    static let answer = ProviderAnswer(provider: "Microsoft Teams", messagePaths: [["error", "message"], ["message"]])

    struct Message: Encodable {
        var type = "message"
        var attachments: [Attachment]
    }

    struct Attachment: Encodable {
        var contentType = "application/vnd.microsoft.card.adaptive"
        var content: Card

        enum CodingKeys: String, CodingKey { case contentType, contentUrl, content }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(contentType, forKey: .contentType)
            // Microsoft's examples send "contentUrl": null, and the Workflows trigger expects the key.
            try c.encodeNil(forKey: .contentUrl)
            try c.encode(content, forKey: .content)
        }
    }

    struct Card: Encodable {
        var schema = "http://adaptivecards.io/schemas/adaptive-card.json"
        var type = "AdaptiveCard"
        var version = "1.4"
        var body: [Element]
        var actions: [Action]
        enum CodingKeys: String, CodingKey {
            case schema = "$schema", type, version, body, actions
        }
    }

    struct Element: Encodable {
        var type: String
        var text: String?
        var weight: String?
        var size: String?
        var color: String?
        var wrap: Bool?
        var facts: [Fact]?
    }

    struct Fact: Encodable {
        var title: String
        var value: String
    }

    struct Action: Encodable {
        var type = "Action.OpenUrl"
        var title: String
        var url: String
    }

    static func message(_ input: ProviderInput) -> ProviderMessage {
        let event = input.event
        var body: [Element] = [
            Element(type: "TextBlock", text: NotificationText.headline(event), weight: "Bolder", size: "Medium",
                    color: color(event), wrap: true),
        ]
        if let detail = event.detail { body.append(Element(type: "TextBlock", text: detail, wrap: true)) }
        var facts = [Fact(title: "Domain", value: event.domainName), Fact(title: "Severity", value: event.severity.rawValue)]
        if let rule = event.rule { facts.append(Fact(title: "Rule", value: rule)) }
        if let opened = event.openedAt { facts.append(Fact(title: "Opened", value: UTCTimestamp.iso8601(opened))) }
        if let resolved = event.resolvedAt { facts.append(Fact(title: "Resolved", value: UTCTimestamp.iso8601(resolved))) }
        body.append(Element(type: "FactSet", facts: facts))
        let lines = ProviderJSON.findingLines(event) + event.diffSummary.prefix(10)
        if !lines.isEmpty {
            body.append(Element(type: "TextBlock", text: lines.map { "- " + $0 }.joined(separator: "\n"), wrap: true))
        }
        let card = Card(body: body, actions: [Action(title: "Open \(event.domainName) in aasa-monitor", url: input.links.domainPage(event))])
        return ProviderMessage(url: input.channel.target, body: ProviderJSON.encode(Message(attachments: [Attachment(content: card)])))
    }

    /// Adaptive Cards' named colours: red for a failure, amber for a warning, green when resolved.
    static func color(_ event: NotificationEvent) -> String {
        switch (event.kind, event.severity) {
        case (.alertResolved, _): "Good"
        case (.test, _), (.versionPublished, _), (_, .info): "Accent"
        case (_, .critical): "Attention"
        case (_, .warning): "Warning"
        }
    }
}
