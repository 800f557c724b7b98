import Vocabulary
import Foundation
import Store

/// Something to tell people about: an alert opened, got worse, resolved, or a notice.
public struct AlertEvent: Hashable, Sendable, Codable {
    /// The alert change the check's transaction applies: one definition for the rules and the outbox.
    public typealias Kind = AlertChange.Kind

    public var kind: Kind
    public var key: AlertKey
    public var severity: AlertSeverity
    /// One sentence saying what is wrong (or fine again), for subjects and webhook payloads.
    public var summary: String
    public var at: Date
    // Made only by Monitor's alert rules: Swift's memberwise init, internal, is enough.
}
