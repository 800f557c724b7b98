import Foundation
import Mustache
import Store
import Vocabulary

/// A webhook whose JSON body is the person's Mustache template (mustache.github.io; rendered by
/// hummingbird-project/swift-mustache), signed like our own webhook.
///
/// Every string value is JSON-escaped before Mustache sees it and Mustache escapes nothing more
/// (content type TEXT), so `"{{title}}"` is a safe JSON string whatever the title holds, and
/// `{{{title}}}` is the same. The `*_json` values are whole JSON values for places outside quotes
/// (`"findings": {{findings_json}}`). A template is accepted only if it renders valid JSON for sample
/// events, and each rendered body is checked again before it is sent.
public enum CustomWebhook {
    static let answer = ProviderAnswer(provider: "The webhook", messagePaths: [["message"], ["error", "message"], ["error"]])

    /// The placeholders a template may use, for the settings page, help texts and the README.
    public static let placeholders: [(name: String, meaning: String)] = [
        ("event", "alert.opened, alert.escalated, alert.resolved, version.published or test"),
        ("title", "what happened, one line"), ("summary", "the email subject line"), ("detail", "the longer explanation, or empty"),
        ("severity", "critical, warning or info"), ("domain", "the domain as people read it"), ("host", "the ASCII host"),
        ("rule", "the alert rule, or empty"), ("alert_id", "the alert's id, or empty"),
        ("incident_key", "the same for an alert's opening and resolution"), ("state", "open or resolved"),
        ("occurred_at", "ISO 8601"), ("link", "the domain's page"),
        ("findings", "a list: {{#findings}}{{code}} {{severity}} {{message}} {{hint}}{{/findings}}"), ("changes", "a list of lines"),
        ("resolved", "a section: {{#resolved}}…{{/resolved}}"),
        ("findings_json", "the findings as a JSON array"), ("changes_json", "the changes as a JSON array"),
        ("event_json", "our whole webhook event as a JSON object"),
    ]

    public struct TemplateError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Parses the template, renders it for sample events, and says why it cannot be used.
    public static func check(_ template: String) throws(TemplateError) {
        let parsed = try parse(template)
        let links = NotificationLinks(baseURL: "https://aasa-monitor.example")
        for event in samples {
            let body = render(parsed, input: ProviderInput(event: event, channel: sampleChannel(template), links: links,
                                                           deliveryKey: "msg_sample"))
            if let problem = jsonProblem(body) {
                throw TemplateError(description: "the template does not render valid JSON for a sample \(event.kind.rawValue) event: \(problem)")
            }
        }
    }

    static func parse(_ template: String) throws(TemplateError) -> MustacheTemplate {
        do {
            // The pragma turns off Mustache's HTML escaping: values arrive JSON-escaped already.
            return try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + template)
        } catch {
            throw TemplateError(description: "the template is not valid Mustache: \(error)")
        }
    }

    /// The body to POST, or why there is none (a template that no longer renders JSON).
    static func body(_ input: ProviderInput) -> Result<[UInt8], TemplateError> {
        let template: MustacheTemplate
        do {
            template = try parse(input.channel.bodyTemplate ?? "")
        } catch {
            return .failure(error)
        }
        let body = render(template, input: input)
        if let problem = jsonProblem(body) {
            return .failure(TemplateError(description: "the template rendered a body that is not JSON (\(problem)); fix the template"))
        }
        return .success(Array(body.utf8))
    }

    static func render(_ template: MustacheTemplate, input: ProviderInput) -> String {
        template.render(values(input))
    }

    /// The values a template sees, strings JSON-escaped.
    static func values(_ input: ProviderInput) -> [String: Any] {
        let event = input.event
        let e = jsonEscaped
        let findings: [[String: Any]] = event.findings.map {
            ["code": e($0.code), "severity": e($0.severity.rawValue), "message": e($0.message), "hint": e($0.hint ?? ""),
             "location": e($0.location?.pointer ?? "")]
        }
        let findingsJSON = ProviderJSON.encode(event.findings.map {
            WebhookPayload.FindingData(code: $0.code, severity: $0.severity.rawValue, message: $0.message,
                                       location: $0.location?.pointer, hint: $0.hint)
        })
        return [
            "event": e(event.kind.rawValue), "title": e(event.title), "summary": e(NotificationText.subject(event)),
            "detail": e(event.detail ?? ""), "severity": e(event.severity.rawValue), "domain": e(event.domainName),
            "host": e(event.domainHost), "rule": e(event.rule ?? ""), "alert_id": event.alertID.map(String.init) ?? "",
            "incident_key": e(input.incidentKey), "state": event.resolvedAt == nil ? "open" : "resolved",
            "occurred_at": UTCTimestamp.iso8601(event.occurredAt), "link": e(input.links.domainPage(event)),
            "findings": findings, "changes": event.diffSummary.map(e), "resolved": event.kind == .alertResolved,
            "findings_json": String(decoding: findingsJSON, as: UTF8.self),
            "changes_json": String(decoding: ProviderJSON.encode(event.diffSummary), as: UTF8.self),
            "event_json": String(decoding: WebhookPayload.body(for: event, format: .event, links: input.links), as: UTF8.self),
        ]
    }

    /// The inside of a JSON string for `text` (RFC 8259 §7), as Foundation's encoder writes it.
    static func jsonEscaped(_ text: String) -> String {
        let quoted = String(decoding: ProviderJSON.encode([text]), as: UTF8.self)
        // ["…"]: drop the brackets and the quotes.
        return String(quoted.dropFirst(2).dropLast(2))
    }

    static func jsonProblem(_ text: String) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [])
            return nil
        } catch {
            let described = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return described ?? "not JSON"
        }
    }

    static func sampleChannel(_ template: String) -> ChannelRecord {
        ChannelRecord(id: 0, kind: .customWebhook, name: "", target: "https://hooks.example/", secret: nil, recipient: nil,
                      bodyTemplate: template, enabled: true, minSeverity: .info, disabledReason: nil, domainIDs: [],
                      createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
    }

    /// An opened alert with a finding whose text needs escaping, its resolution, and a new version.
    static let samples: [NotificationEvent] = {
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        let finding = Finding(code: "sample-code", severity: .error, message: "a \"quoted\" \\ message\nwith a line break",
                              hint: "fix <it>")
        return [
            NotificationEvent(kind: .alertOpened, occurredAt: when, domainID: 1, domainHost: "example.com", alertID: 1,
                              rule: "origin-failing", severity: .critical, title: "the file is \"unreachable\"",
                              detail: "detail", findings: [finding], diffSummary: ["a change"], openedAt: when),
            NotificationEvent(kind: .alertResolved, occurredAt: when, domainID: 1, domainHost: "example.com", alertID: 1,
                              rule: "origin-failing", severity: .critical, title: "fixed", openedAt: when, resolvedAt: when),
            NotificationEvent(kind: .versionPublished, occurredAt: when, domainID: 1, domainHost: "example.com", severity: .info,
                              title: "a new file"),
        ]
    }()
}
