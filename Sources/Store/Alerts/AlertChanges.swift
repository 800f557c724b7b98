import Vocabulary
import AASA
import Foundation

/// An alert event of one check and the domain it is about: applied to `alerts` and handed to the
/// outbox in the check's transaction.
public struct AlertChange: Sendable, Hashable {
    public var event: AlertEvent
    public var domainHost: String
    public var domainDisplayName: String?
    /// The findings that explain the alert to its receivers.
    public var findings: [Finding]
    /// A new-version notice's behavioural difference to the previous file, one line per difference.
    public var diffSummary: [String]

    public init(event: AlertEvent, domainHost: String, domainDisplayName: String? = nil, findings: [Finding] = [],
                diffSummary: [String] = []) {
        self.event = event
        self.domainHost = domainHost
        self.domainDisplayName = domainDisplayName
        self.findings = findings
        self.diffSummary = diffSummary
    }
}

/// The alert row an applied change touched.
struct AppliedAlert {
    var id: Int64
    var openedAt: Date
    var resolvedAt: Date?
}

extension AlertStore {
    /// Applies one change to `alerts`; nil for notices, which are not incidents.
    func apply(_ change: AlertChange, domainID: Int64, checkID: Int64?) throws -> AppliedAlert? {
        let row: Row?
        let event = change.event, rule = event.key.rule, subject = event.key.subject
        switch event.kind {
        case .opened:
            row = try firstRow(Self.openAlert, domainID, rule, subject, event.severity, event.summary, event.at, checkID)
                // The unique open index turns a second "opened" into a no-op; report the open alert.
                ?? firstRow(Self.findOpenAlert, domainID, rule, subject)
        case .escalated:
            row = try firstRow(Self.escalateAlert, domainID, rule, subject, event.summary)
        case .resolved:
            row = try firstRow(Self.resolveAlert, domainID, rule, subject, event.at, checkID)
        case .notice:
            return nil
        }
        return try row.map {
            AppliedAlert(id: try $0.decode("id"), openedAt: try $0.decode("opened_at"), resolvedAt: try $0.decode("resolved_at"))
        }
    }

    /// Writes one outbox row per enabled channel that wants this domain and severity (notify's
    /// fan-out, which also wakes the delivery workers at commit); returns how many.
    func enqueueDeliveries(for change: AlertChange, alert: AppliedAlert?, domainID: Int64) throws -> Int {
        let alertEvent = change.event
        let kind: NotificationEvent.Kind = switch alertEvent.kind {
        case .opened: .alertOpened
        // A further certificate threshold of an alert that is already open.
        case .escalated: .alertEscalated
        case .resolved: .alertResolved
        case .notice: .versionPublished
        }
        let event = NotificationEvent(
            kind: kind, occurredAt: alertEvent.at, domainID: domainID, domainHost: change.domainHost,
            domainDisplayName: change.domainDisplayName == change.domainHost ? nil : change.domainDisplayName,
            alertID: alert?.id, rule: alertEvent.key.rule.rawValue, severity: alertEvent.severity,
            title: alertEvent.summary, detail: alertEvent.key.subject.isEmpty ? nil : alertEvent.key.subject,
            findings: change.findings, diffSummary: change.diffSummary, openedAt: alert?.openedAt, resolvedAt: alert?.resolvedAt,
            apps: try appsClaiming(domainID: domainID))
        return try enqueueNotification(event)
    }

    static var openAlert: SQL {
        """
        INSERT INTO alerts (domain_id, rule, subject, severity, summary, state, opened_at, opened_by_check_id)
        VALUES ($1, $2, $3, $4, $5, 'open', $6, $7)
        ON CONFLICT (domain_id, rule, subject) WHERE state = 'open' DO NOTHING
        RETURNING id, opened_at, resolved_at
        """
    }

    static var findOpenAlert: SQL {
        """
        SELECT id, opened_at, resolved_at FROM alerts
        WHERE domain_id = $1 AND rule = $2 AND subject = $3 AND state = 'open'
        """
    }

    static var escalateAlert: SQL {
        """
        UPDATE alerts SET summary = $4 WHERE domain_id = $1 AND rule = $2 AND subject = $3 AND state = 'open'
        RETURNING id, opened_at, resolved_at
        """
    }

    static var resolveAlert: SQL {
        """
        UPDATE alerts SET state = 'resolved', resolved_at = $4, resolved_by_check_id = $5
        WHERE domain_id = $1 AND rule = $2 AND subject = $3 AND state = 'open'
        RETURNING id, opened_at, resolved_at
        """
    }
}
