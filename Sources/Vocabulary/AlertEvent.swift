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
    /// The platform whose file the event is about, typed (never read from the subject's text): a
    /// rule's own (`AlertRule.platform`), or a notice's (a new apple-app-site-association or
    /// assetlinks.json); nil for the host's (the certificate's rules). nil in events stored before
    /// it was kept.
    public var platform: Platform?

    /// `platform`: a notice's file's; a rule's event takes its rule's when nil.
    public init(kind: Kind, key: AlertKey, severity: AlertSeverity, summary: String, at: Date, platform: Platform? = nil) {
        self.kind = kind
        self.key = key
        self.severity = severity
        self.summary = summary
        self.at = at
        self.platform = platform ?? key.rule.platform
    }
}
