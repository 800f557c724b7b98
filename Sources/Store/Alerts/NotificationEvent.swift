import Vocabulary
import AASA
import Foundation

/// What happened, as a self-contained snapshot: the monitor writes it into the outbox (one
/// delivery row per matching channel) in the same transaction as the alert change, and Notify
/// renders it later into an email or a webhook without reading anything else. A snapshot, not a
/// reference, so a retry a day later still says what was true when the alert fired.
public struct NotificationEvent: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case alertOpened = "alert.opened"
        /// An open alert got worse (a certificate's next expiry threshold: 14 → 7 → 1 days). Its own
        /// type: a second "alert.opened" for the same alert id reads as a duplicate to a receiver.
        case alertEscalated = "alert.escalated"
        case alertResolved = "alert.resolved"
        case versionPublished = "version.published"
        case test
    }

    public var kind: Kind
    /// When the alert opened/resolved or the version was seen (not when it is delivered).
    public var occurredAt: Date
    public var domainID: Int64?
    /// ASCII (punycode) host, as stored.
    public var domainHost: String
    /// Unicode form for people; nil when it equals the host.
    public var domainDisplayName: String?
    public var alertID: Int64?
    /// Stable rule name, e.g. "origin-failing", "app-id-missing", "cdn-stale".
    public var rule: String?
    public var severity: AlertSeverity
    /// One line that says what broke where: "Apple's CDN serves an older file than the origin".
    public var title: String
    /// Optional longer explanation (the cause and what to do).
    public var detail: String?
    public var findings: [Finding]
    /// The behavioural diff in lines ("applinks: /shop/* no longer opens ABCDE12345.com.example.app").
    public var diffSummary: [String]
    public var openedAt: Date?
    public var resolvedAt: Date?
    /// The apps that claim the domain (their names), so a person sees whose links broke; nil in
    /// events stored before apps existed, and when no app claims the domain.
    public var apps: [String]?

    public init(kind: Kind, occurredAt: Date, domainID: Int64? = nil, domainHost: String,
                domainDisplayName: String? = nil, alertID: Int64? = nil, rule: String? = nil,
                severity: AlertSeverity, title: String, detail: String? = nil, findings: [Finding] = [],
                diffSummary: [String] = [], openedAt: Date? = nil, resolvedAt: Date? = nil, apps: [String]? = nil) {
        self.kind = kind
        self.occurredAt = occurredAt
        self.domainID = domainID
        self.domainHost = domainHost
        self.domainDisplayName = domainDisplayName
        self.alertID = alertID
        self.rule = rule
        self.severity = severity
        self.title = title
        self.detail = detail
        self.findings = findings
        self.diffSummary = diffSummary
        self.openedAt = openedAt
        self.resolvedAt = resolvedAt
        self.apps = apps
    }

    /// The name people read: the Unicode form when there is one.
    public var domainName: String { domainDisplayName ?? domainHost }

    /// The JSON stored in the outbox row (ISO 8601 dates, so the row is readable in psql too).
    public func storedJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        // A jsonb parameter too: a NUL quoted from a served file must not refuse the alert's transaction.
        return StoredJSON.replacingNULEscapes(in: String(decoding: try encoder.encode(self), as: UTF8.self))
    }

    public static func fromStoredJSON(_ text: String) throws -> NotificationEvent {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(NotificationEvent.self, from: Data(text.utf8))
    }
}
