import Foundation

/// Something to tell people about: an alert opened, got worse, resolved, or a notice. Monitor's alert
/// rules make it; Store applies it to `alerts` and the outbox in the check's transaction.
public struct AlertEvent: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case opened, escalated, resolved, notice
    }

    public var kind: Kind
    public var key: AlertKey
    public var severity: AlertSeverity
    /// One sentence saying what is wrong (or fine again), for subjects and webhook payloads.
    public var summary: String
    public var at: Date

    public init(kind: Kind, key: AlertKey, severity: AlertSeverity, summary: String, at: Date) {
        self.kind = kind
        self.key = key
        self.severity = severity
        self.summary = summary
        self.at = at
    }
}
