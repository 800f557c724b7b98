import Foundation

/// A domain's state for `aasa-monitor status` and the overview.
public struct DomainStatusRow: Sendable, Hashable {
    public var id: Int64
    public var host: String
    public var lastCheckAt: Date?
    /// pass / warn / fail; nil before the first check.
    public var lastVerdict: String?
    public var versionSHA256: String?
    /// Open alerts as "rule" or "rule subject".
    public var openAlerts: [String]
}

extension Queryable {
    public func domainStatuses() throws -> [DomainStatusRow] {
        try rows(Self.statuses).map { row in
            let alerts: String? = try row.decode("open_alerts")
            return DomainStatusRow(
                id: try row.decode("id"), host: try row.decode("host"), lastCheckAt: try row.decode("last_check_at"),
                lastVerdict: try row.decode("last_verdict"), versionSHA256: try row.decode("last_version_sha256"),
                openAlerts: alerts.map { $0.split(separator: "\n").map(String.init) } ?? [])
        }
    }

    static var statuses: SQL {
        """
        SELECT d.id, d.host, d.last_check_at, d.last_verdict, d.last_version_sha256,
               (SELECT string_agg(CASE WHEN a.subject = '' THEN a.rule ELSE a.rule || ' ' || a.subject END, E'\\n' ORDER BY a.rule, a.subject)
                FROM alerts a WHERE a.domain_id = d.id AND a.state = 'open') AS open_alerts
        FROM domains d ORDER BY d.host
        """
    }
}
