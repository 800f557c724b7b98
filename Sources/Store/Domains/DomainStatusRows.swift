import Vocabulary
import Foundation

/// A domain's state for `aasa-monitor status`.
public struct DomainStatusRow: Sendable, Hashable {
    public var id: Int64
    public var host: String
    public var lastCheckAt: Date?
    /// pass / warn / fail, counting unmet expectations as fail; nil before the first check.
    public var lastVerdict: Verdict?
    /// Why, in one line (an unmet expectation, else the worst finding).
    public var reason: String?
    /// The file the origin serves (hex SHA-256): the last changed check's, which unchanged repeats share.
    public var versionSHA256: String?
    /// Open alerts as "rule" or "rule subject".
    public var openAlerts: [String]
}

extension DomainStore {
    public func domainStatuses() throws -> [DomainStatusRow] {
        try rows(Self.statuses).map { row in
            let alerts: String? = try row.decode("open_alerts")
            return DomainStatusRow(
                id: try row.decode("id"), host: try row.decode("host"), lastCheckAt: try row.decode("last_checked_at"),
                lastVerdict: try row.decode("last_verdict"), reason: try row.decode("last_reason"), versionSHA256: try row.decode("sha256"),
                openAlerts: alerts.map { $0.split(separator: "\n").map(String.init) } ?? [])
        }
    }

    static var statuses: SQL {
        """
        SELECT d.id, CASE WHEN d.wildcard THEN '*.' || d.host ELSE d.host END AS host, d.last_checked_at,
               d.last_verdict, d.last_reason, v.sha256,
               (SELECT string_agg(CASE WHEN a.subject = '' THEN a.rule ELSE a.rule || ' ' || a.subject END,
                                  E'\\n' ORDER BY a.rule, a.subject)
                FROM alerts a WHERE a.domain_id = d.id AND a.state = 'open') AS open_alerts
        FROM domains d
        LEFT JOIN checks c ON c.id = d.last_check_id
        LEFT JOIN aasa_versions v ON v.id = c.origin_version_id
        ORDER BY d.host, d.wildcard
        """
    }
}
