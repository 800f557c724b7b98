import Foundation

/// An incident as the alerts page lists it, with its domain's names.
public struct AlertListItem: Sendable {
    public var id: Int64
    public var domainID: Int64
    public var displayName: String
    public var rule: String
    public var summary: String
    public var openedAt: Date
    public var resolvedAt: Date?
    /// The apps that claim the domain, by name.
    public var apps: [String] = []
}

extension AlertStore {
    /// Open (`open: true`) or resolved incidents, newest first.
    public func alertList(open: Bool, limit: Int) throws -> [AlertListItem] {
        try rows("""
            SELECT a.id, a.domain_id, d.display_name, a.rule, a.summary, a.opened_at, a.resolved_at,
                   coalesce((SELECT string_agg(DISTINCT p.name, E'\\n' ORDER BY p.name) FROM app_links l JOIN apps p ON p.id = l.app_id
                             WHERE l.domain_id = a.domain_id), '') AS apps
            FROM alerts a JOIN domains d ON d.id = a.domain_id
            WHERE a.state = CASE WHEN $1 THEN 'open' ELSE 'resolved' END
            ORDER BY coalesce(a.resolved_at, a.opened_at) DESC LIMIT $2
            """, open, limit).map {
            AlertListItem(id: try $0.decode("id"), domainID: try $0.decode("domain_id"), displayName: try $0.decode("display_name"),
                          rule: try $0.decode("rule"), summary: try $0.decode("summary"), openedAt: try $0.decode("opened_at"),
                          resolvedAt: try $0.decode("resolved_at"),
                          apps: (try $0.decode("apps") as String).split(separator: "\n").map(String.init))
        }
    }
}
