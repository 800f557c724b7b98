import Foundation
import Store
import Vocabulary

/// The bodies a webhook channel POSTs: our JSON event (Standard Webhooks' `{type, timestamp, data}`
/// envelope) or a Slack-compatible `{text, blocks}` message.
public enum WebhookPayload {
    public enum Format: String, Sendable, Codable, Equatable {
        case event
        case slack
    }

    public static func body(for event: NotificationEvent, format: Format, links: NotificationLinks) -> [UInt8] {
        switch format {
        case .event: eventJSON(event, links: links)
        case .slack: slackJSON(event, links: links)
        }
    }

    struct Envelope: Encodable {
        var type: String
        var timestamp: String
        var data: EventData
    }

    struct EventData: Encodable {
        var domain: DomainData
        var alert: AlertData?
        var rule: String?
        var severity: String
        var title: String
        var detail: String?
        var findings: [FindingData]
        var diffSummary: [String]
        /// The apps that claim the domain (their names); empty when none does.
        var apps: [String]
        var links: [String: String]
        var occurredAt: String
    }

    struct DomainData: Encodable {
        var id: Int64?
        var host: String
        var name: String
    }

    struct AlertData: Encodable {
        var id: Int64
        var rule: String?
        var state: String
        var openedAt: String?
        var resolvedAt: String?
    }

    struct FindingData: Encodable {
        var code: String
        var severity: String
        var message: String
        var location: String?
        var hint: String?
    }

    static func eventJSON(_ event: NotificationEvent, links: NotificationLinks) -> [UInt8] {
        let iso = UTCTimestamp.iso8601
        let alert = event.alertID.map {
            AlertData(id: $0, rule: event.rule, state: event.resolvedAt == nil ? "open" : "resolved",
                      openedAt: event.openedAt.map(iso), resolvedAt: event.resolvedAt.map(iso))
        }
        let data = EventData(
            domain: DomainData(id: event.domainID, host: event.domainHost, name: event.domainName),
            alert: alert, rule: event.rule, severity: event.severity.rawValue, title: event.title,
            detail: event.detail,
            findings: event.findings.map {
                FindingData(code: $0.code, severity: $0.severity.rawValue, message: $0.message,
                            location: $0.location?.pointer, hint: $0.hint)
            },
            diffSummary: event.diffSummary,
            apps: event.apps ?? [],
            links: ["domain": links.domainPage(event), "alerts": links.alertsPage()],
            occurredAt: iso(event.occurredAt))
        return encode(Envelope(type: event.kind.rawValue, timestamp: iso(event.occurredAt), data: data))
    }

    struct SlackText: Encodable {
        var type: String
        var text: String
    }

    struct SlackBlock: Encodable {
        var type: String
        var text: SlackText?
    }

    struct SlackMessage: Encodable {
        var text: String
        var blocks: [SlackBlock]
    }

    static func slackJSON(_ event: NotificationEvent, links: NotificationLinks) -> [UInt8] {
        let words = NotificationText(event: event, links: links)
        var lines: [String] = []
        if let detail = event.detail { lines.append(slackEscape(detail)) }
        if let rule = event.rule { lines.append("*Rule:* `\(slackEscape(rule))`  *Severity:* \(event.severity.rawValue)") }
        for f in event.findings.prefix(10) {
            lines.append("• *\(f.severity.rawValue)* `\(slackEscape(f.code))`: \(slackEscape(f.message))")
        }
        for d in event.diffSummary.prefix(10) { lines.append("• \(slackEscape(d))") }
        lines.append("<\(slackEscape(links.domainPage(event)))|Open \(slackEscape(event.domainName)) in aasa-monitor>")
        let message = SlackMessage(
            text: words.subject,
            blocks: [
                SlackBlock(type: "header", text: SlackText(type: "plain_text", text: String(NotificationText.headline(event).prefix(150)))),
                SlackBlock(type: "section", text: SlackText(type: "mrkdwn", text: String(lines.joined(separator: "\n").prefix(3000)))),
            ])
        return encode(message)
    }

    /// Slack treats &, < and > as control characters in message text.
    static func slackEscape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = PublicJSON.encoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain structs of strings and numbers cannot fail; an empty object is a safe floor.
        return (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
    }
}
