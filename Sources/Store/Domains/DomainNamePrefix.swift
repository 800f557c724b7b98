import Foundation

extension DomainStore {
    /// Up to `limit` domains whose name (lowered, as the overview's search compares it) starts with
    /// `prefix`, by name: the URL tester's chooser for a search of one or two characters, which the
    /// trigram indexes of `domain_names` cannot narrow (a two-character substring search read every
    /// name: 1.4 s at 1,000,000 domains). The name order's index (`domains_name_order`) is walked from
    /// the prefix, so a database in the C collation (the embedded one) reads only the matches; in
    /// another collation the walk stops at the `limit`th match.
    public func domains(namePrefix prefix: String, limit: Int) throws -> [DomainListItem] {
        try rows("""
            SELECT id, host, display_name, wildcard, last_verdict, last_checked_at
            FROM domains WHERE lower(display_name) LIKE $1 ORDER BY lower(display_name), id LIMIT $2
            """, Self.escapeLike(prefix.lowercased()) + "%", limit).map { row in
            DomainListItem(id: try row.decode("id"), host: try row.decode("host"), displayName: try row.decode("display_name"),
                           wildcard: try row.decode("wildcard"), lastVerdict: try row.decode("last_verdict"),
                           lastCheckedAt: try row.decode("last_checked_at"))
        }
    }
}
