import Foundation
import Store
import Vocabulary

/// Opsgenie Alert API (docs.opsgenie.com, "Alert API": create alert, close alert). Every event
/// creates an alert whose alias is the incident's key, so Opsgenie folds an escalation into the open
/// alert; the resolved alert closes it by that alias.
enum Opsgenie {
    static let answer = ProviderAnswer(provider: "Opsgenie", messagePaths: [["message"], ["errors"]])

    struct CreateAlert: Encodable {
        /// Required; at most 130 characters.
        var message: String
        /// At most 512 characters.
        var alias: String
        /// At most 15,000 characters.
        var description: String
        var source: String
        var entity: String
        var priority: String
        var tags: [String]
        var details: [String: String]
    }

    struct CloseAlert: Encodable {
        var source: String
        var note: String
    }

    static func message(_ input: ProviderInput) -> ProviderMessage {
        let event = input.event
        let auth = [ProviderMessage.Header("authorization", "GenieKey \(input.channel.secret ?? "")")]
        if event.kind == .alertResolved {
            // The alias is ours ("aasa-monitor-alert-12"): letters, digits and hyphens, safe in a path.
            let close = CloseAlert(source: "aasa-monitor", note: ProviderJSON.cut(NotificationText.headline(event), 25_000))
            return ProviderMessage(url: input.base + "/v2/alerts/\(input.incidentKey)/close?identifierType=alias",
                                   headers: auth, body: ProviderJSON.encode(close))
        }
        var details = ["domain": event.domainName, "severity": event.severity.rawValue, "link": input.links.domainPage(event)]
        if let rule = event.rule { details["rule"] = rule }
        let create = CreateAlert(
            message: ProviderJSON.cut(NotificationText.headline(event), 130), alias: input.incidentKey,
            description: ProviderJSON.cut(NotificationText(event: event, links: input.links).plain, 15_000),
            source: "aasa-monitor", entity: event.domainHost, priority: priority(event),
            tags: ["aasa-monitor", event.severity.rawValue] + (event.rule.map { [$0] } ?? []), details: details)
        return ProviderMessage(url: input.base + "/v2/alerts", headers: auth, body: ProviderJSON.encode(create))
    }

    /// P1 pages at once; a new version or a test is P5, "informational".
    static func priority(_ event: NotificationEvent) -> String {
        switch (event.kind, event.severity) {
        case (.test, _), (.versionPublished, _), (_, .info): "P5"
        case (_, .critical): "P1"
        case (_, .warning): "P3"
        }
    }
}
