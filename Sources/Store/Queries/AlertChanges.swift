import Foundation

/// An alert event to apply to the `alerts` table (and to hand to the outbox).
public struct AlertChange: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case opened, escalated, resolved, notice
    }

    public var kind: Kind
    public var rule: String
    public var subject: String
    /// critical / warning / info
    public var severity: String
    public var summary: String
    public var at: Date

    public init(kind: Kind, rule: String, subject: String, severity: String, summary: String, at: Date) {
        self.kind = kind
        self.rule = rule
        self.subject = subject
        self.severity = severity
        self.summary = summary
        self.at = at
    }
}

/// An open or resolved incident.
public struct AlertRow: Sendable, Hashable {
    public var id: Int64
    public var domainID: Int64
    public var rule: String
    public var subject: String
    public var severity: String
    public var state: String
    public var summary: String
    public var openedAt: Date
    public var resolvedAt: Date?
}

extension Queryable {
    /// Applies one change; returns the alert's id (nil for notices, which have no incident).
    func apply(_ change: AlertChange, domainID: Int64, checkID: String) throws -> Int64? {
        switch change.kind {
        case .opened:
            // The unique open index makes a replayed "opened" a no-op that still finds its alert.
            if let id: Int64 = try firstRow(Self.openAlert, domainID, change.rule, change.subject, change.severity,
                                            change.summary, change.at, checkID)?.decode("id") {
                return id
            }
            return try openAlertID(domainID: domainID, rule: change.rule, subject: change.subject)
        case .escalated:
            return try firstRow(Self.escalateAlert, domainID, change.rule, change.subject, change.summary)?.decode("id")
        case .resolved:
            return try firstRow(Self.resolveAlert, domainID, change.rule, change.subject, change.at, checkID)?.decode("id")
        case .notice:
            return nil
        }
    }

    func openAlertID(domainID: Int64, rule: String, subject: String) throws -> Int64? {
        try firstRow("SELECT id FROM alerts WHERE domain_id = $1 AND rule = $2 AND subject = $3 AND state = 'open'",
                     domainID, rule, subject)?.decode("id")
    }

    /// The domain's alerts, open ones first, newest first.
    public func alerts(domainID: Int64, limit: Int = 100) throws -> [AlertRow] {
        try rows(Self.alertsOfDomain, domainID, limit).map(AlertRow.init(row:))
    }

    static var openAlert: SQL {
        """
        INSERT INTO alerts (domain_id, rule, subject, severity, summary, state, opened_at, opened_by_check)
        VALUES ($1, $2, $3, $4, $5, 'open', $6, $7::uuid)
        ON CONFLICT (domain_id, rule, subject) WHERE state = 'open' DO NOTHING
        RETURNING id
        """
    }

    static var escalateAlert: SQL {
        "UPDATE alerts SET summary = $4 WHERE domain_id = $1 AND rule = $2 AND subject = $3 AND state = 'open' RETURNING id"
    }

    static var resolveAlert: SQL {
        """
        UPDATE alerts SET state = 'resolved', resolved_at = $4, resolved_by_check = $5::uuid
        WHERE domain_id = $1 AND rule = $2 AND subject = $3 AND state = 'open'
        RETURNING id
        """
    }

    static var alertsOfDomain: SQL {
        """
        SELECT id, domain_id, rule, subject, severity, state, summary, opened_at, resolved_at FROM alerts
        WHERE domain_id = $1 ORDER BY state = 'open' DESC, opened_at DESC LIMIT $2
        """
    }
}

extension AlertRow {
    init(row: Row) throws {
        id = try row.decode("id")
        domainID = try row.decode("domain_id")
        rule = try row.decode("rule")
        subject = try row.decode("subject")
        severity = try row.decode("severity")
        state = try row.decode("state")
        summary = try row.decode("summary")
        openedAt = try row.decode("opened_at")
        resolvedAt = try row.decode("resolved_at")
    }
}
