import Vocabulary
import Foundation
import Store
import TextEncoding

/// The words of a notification, shared by email, Slack and the webhook's summary: a subject that
/// says what broke where, a plain-text body and an HTML body (every value escaped).
public struct NotificationText: Sendable, Equatable {
    public var subject: String
    public var plain: String
    public var html: String

    public init(event: NotificationEvent, links: NotificationLinks) {
        let domain = event.domainName
        let link = links.domainPage(event)
        subject = Self.subject(event)

        var lines: [String] = []
        lines.append(Self.headline(event))
        lines.append("")
        if let detail = event.detail { lines.append(detail); lines.append("") }
        if let rule = event.rule { lines.append("Rule: \(rule)") }
        lines.append("Severity: \(event.severity.rawValue)")
        lines.append("Domain: \(domain)" + (event.domainDisplayName != nil ? " (\(event.domainHost))" : ""))
        if let apps = event.apps, !apps.isEmpty { lines.append("Apps affected: \(apps.joined(separator: ", "))") }
        if let opened = event.openedAt { lines.append("Opened: \(Self.utc(opened))") }
        if let resolved = event.resolvedAt { lines.append("Resolved: \(Self.utc(resolved))") }
        if event.openedAt == nil && event.resolvedAt == nil { lines.append("Time: \(Self.utc(event.occurredAt))") }
        if !event.findings.isEmpty {
            lines.append("")
            lines.append("Findings:")
            for f in event.findings { lines.append("- [\(f.severity.rawValue)] \(f.code): \(f.message)" + (f.hint.map { " Fix: \($0)" } ?? "")) }
        }
        if !event.diffSummary.isEmpty {
            lines.append("")
            lines.append("What changed:")
            for d in event.diffSummary { lines.append("- \(d)") }
        }
        lines.append("")
        lines.append("Details: \(link)")
        plain = lines.joined(separator: "\n") + "\n"

        var h = "<!DOCTYPE html>\n<html><body style=\"font-family: sans-serif\">\n"
        h += "<h2>\(MarkupEscaping.html(Self.headline(event)))</h2>\n"
        if let detail = event.detail { h += "<p>\(MarkupEscaping.html(detail))</p>\n" }
        h += "<table>\n"
        if let rule = event.rule { h += "<tr><th align=\"left\">Rule</th><td>\(MarkupEscaping.html(rule))</td></tr>\n" }
        h += "<tr><th align=\"left\">Severity</th><td>\(MarkupEscaping.html(event.severity.rawValue))</td></tr>\n"
        h += "<tr><th align=\"left\">Domain</th><td>\(MarkupEscaping.html(domain))</td></tr>\n"
        if let apps = event.apps, !apps.isEmpty {
            h += "<tr><th align=\"left\">Apps affected</th><td>\(MarkupEscaping.html(apps.joined(separator: ", ")))</td></tr>\n"
        }
        if let opened = event.openedAt { h += "<tr><th align=\"left\">Opened</th><td>\(Self.utc(opened))</td></tr>\n" }
        if let resolved = event.resolvedAt { h += "<tr><th align=\"left\">Resolved</th><td>\(Self.utc(resolved))</td></tr>\n" }
        h += "</table>\n"
        if !event.findings.isEmpty {
            h += "<h3>Findings</h3>\n<ul>\n"
            for f in event.findings {
                h += "<li><strong>\(MarkupEscaping.html(f.severity.rawValue))</strong> <code>\(MarkupEscaping.html(f.code))</code>: \(MarkupEscaping.html(f.message))"
                if let hint = f.hint { h += " <em>Fix: \(MarkupEscaping.html(hint))</em>" }
                h += "</li>\n"
            }
            h += "</ul>\n"
        }
        if !event.diffSummary.isEmpty {
            h += "<h3>What changed</h3>\n<ul>\n"
            for d in event.diffSummary { h += "<li>\(MarkupEscaping.html(d))</li>\n" }
            h += "</ul>\n"
        }
        h += "<p><a href=\"\(MarkupEscaping.html(link))\">Open \(MarkupEscaping.html(domain)) in aasa-monitor</a></p>\n"
        h += "</body></html>\n"
        html = h
    }

    /// "[aasa-monitor] FAILING example.com: the file is unreachable"
    static func subject(_ event: NotificationEvent) -> String {
        let domain = event.domainName
        var text: String
        switch event.kind {
        case .alertOpened:
            let tier = event.severity == .critical ? "FAILING" : event.severity.rawValue.uppercased()
            text = "\(tier) \(domain): \(event.title)"
        case .alertEscalated:
            let tier = event.severity == .critical ? "FAILING" : event.severity.rawValue.uppercased()
            text = "WORSE \(tier) \(domain): \(event.title)"
        case .alertResolved: text = "RESOLVED \(domain): \(event.title)"
        case .versionPublished: text = "New version on \(domain): \(event.title)"
        case .test: text = "Test notification: \(event.title)"
        }
        if let apps = event.apps, !apps.isEmpty, event.kind != .test { text += " (apps: \(apps.joined(separator: ", ")))" }
        // Header fields must stay on one line: a newline in a title would start a new header.
        return "[aasa-monitor] " + text.map { $0.isNewline ? " " : String($0) }.joined()
    }

    static func headline(_ event: NotificationEvent) -> String {
        switch event.kind {
        case .alertOpened: "\(event.domainName): \(event.title)"
        case .alertEscalated: "Worse on \(event.domainName): \(event.title)"
        case .alertResolved: "Resolved on \(event.domainName): \(event.title)"
        case .versionPublished: "A new apple-app-site-association was published on \(event.domainName)"
        case .test: "This is a test notification from aasa-monitor: \(event.title)"
        }
    }

    static func utc(_ date: Date) -> String { UTCTimestamp.iso8601(date) }
}
