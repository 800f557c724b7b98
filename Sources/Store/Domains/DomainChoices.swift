import Foundation

/// A few domains by part of their name, for a chooser (the URL tester's): never every domain, and
/// never a walk of every domain to find a few.
extension DomainStore {
    /// Up to `limit` domains whose host or name contains `text` (case-insensitive, matched literally),
    /// by name; which ones, when more match, is whichever the scan meets first. Through `domain_names`'
    /// trigram indexes (migration 0040) like the overview's search, but not in the name order: the
    /// overview ranks or walks its order for a page, and a search matching 11,111 names that sort last
    /// ("d99" among 1,000,000) walked 1.1 s for 20 of them; unordered, the scan stops at the `limit`th.
    public func domains(nameContaining text: String, limit: Int) throws -> [DomainListItem] {
        try rows("""
            SELECT
            """ + Self.sqlChoiceColumns + """
            FROM domains d WHERE d.id IN (
              SELECT n.domain_id FROM domain_names n WHERE n.name LIKE $1 OR n.host LIKE $1 LIMIT $2)
            ORDER BY lower(d.display_name), d.id
            """, Self.searchPattern(text), limit).map(Self.choice)
    }

    /// Up to `limit` domains whose name (lowered, as the overview's search compares it) starts with
    /// `prefix`, by name: for a search of one or two characters, which the trigram indexes cannot
    /// narrow (a two-character substring search read every name: 1.4 s at 1,000,000 domains). The
    /// name order's index (`domains_name_order`) is walked from the prefix, so a database in the C
    /// collation (the embedded one) reads only the matches; in another the walk stops at the `limit`th.
    public func domains(namePrefix prefix: String, limit: Int) throws -> [DomainListItem] {
        try rows("SELECT " + Self.sqlChoiceColumns + """
            FROM domains d WHERE lower(d.display_name) LIKE $1 ORDER BY lower(d.display_name), d.id LIMIT $2
            """, Self.escapeLike(prefix.lowercased()) + "%", limit).map(Self.choice)
    }

    static var sqlChoiceColumns: SQL { " d.id, d.host, d.display_name, d.wildcard, d.last_verdict, d.last_checked_at " }

    static func choice(_ row: Row) throws -> DomainListItem {
        DomainListItem(id: try row.decode("id"), host: try row.decode("host"), displayName: try row.decode("display_name"),
                       wildcard: try row.decode("wildcard"), lastVerdict: try row.decode("last_verdict"),
                       lastCheckedAt: try row.decode("last_checked_at"))
    }
}
