import Foundation
import Store
import Vocabulary

/// PagerDuty Events API v2 (developer.pagerduty.com, "Send an Alert Event" and "Send a Change
/// Event"). An opened or escalated alert triggers; the resolved alert resolves the incident with the
/// same dedup_key; a new version is a change event, which pages nobody.
enum PagerDuty {
    static let answer = ProviderAnswer(provider: "PagerDuty", messagePaths: [["errors"], ["message"]])

    struct AlertEvent: Encodable {
        var routing_key: String
        var event_action: String
        var dedup_key: String
        var payload: Payload?
        var client: String?
        var client_url: String?
        var links: [Link]?
    }

    struct Payload: Encodable {
        /// Required; at most 1024 characters.
        var summary: String
        /// Required: the affected system.
        var source: String
        /// Required: critical, error, warning or info.
        var severity: String
        var timestamp: String
        var component: String?
        var group: String?
        var `class`: String?
        var custom_details: Details
    }

    struct Details: Encodable {
        var domain: String
        var rule: String?
        var detail: String?
        var findings: [String]?
        var changes: [String]?
    }

    struct Link: Encodable {
        var href: String
        var text: String
    }

    struct ChangeEvent: Encodable {
        var routing_key: String
        var payload: ChangePayload
        var links: [Link]
    }

    struct ChangePayload: Encodable {
        var summary: String
        var source: String
        var timestamp: String
        var custom_details: Details
    }

    static func message(_ input: ProviderInput) -> ProviderMessage {
        let event = input.event
        let key = input.channel.secret ?? ""
        let links = [Link(href: input.links.domainPage(event), text: "Open \(event.domainName) in aasa-monitor")]
        let details = Details(domain: event.domainName, rule: event.rule, detail: event.detail,
                              findings: event.findings.isEmpty ? nil : ProviderJSON.findingLines(event),
                              changes: event.diffSummary.isEmpty ? nil : Array(event.diffSummary.prefix(20)))
        switch event.kind {
        case .versionPublished:
            let change = ChangeEvent(routing_key: key,
                                     payload: ChangePayload(summary: ProviderJSON.cut(NotificationText.headline(event), 1024),
                                                            source: event.domainHost, timestamp: UTCTimestamp.iso8601(event.occurredAt),
                                                            custom_details: details),
                                     links: links)
            return ProviderMessage(url: input.base + "/v2/change/enqueue", body: ProviderJSON.encode(change))
        case .alertResolved:
            let resolve = AlertEvent(routing_key: key, event_action: "resolve", dedup_key: input.incidentKey)
            return ProviderMessage(url: input.base + "/v2/enqueue", body: ProviderJSON.encode(resolve))
        case .alertOpened, .alertEscalated, .test:
            let payload = Payload(summary: ProviderJSON.cut(NotificationText.headline(event), 1024), source: event.domainHost,
                                  severity: severity(event.severity), timestamp: UTCTimestamp.iso8601(event.occurredAt),
                                  component: event.domainHost, group: "aasa-monitor", class: event.rule, custom_details: details)
            let trigger = AlertEvent(routing_key: key, event_action: "trigger", dedup_key: input.incidentKey, payload: payload,
                                     client: "aasa-monitor", client_url: input.links.domainPage(event), links: links)
            return ProviderMessage(url: input.base + "/v2/enqueue", body: ProviderJSON.encode(trigger))
        }
    }

    static func severity(_ severity: AlertSeverity) -> String {
        switch severity {
        case .critical: "critical"
        case .warning: "warning"
        case .info: "info"
        }
    }
}
