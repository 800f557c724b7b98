import Vocabulary
import Foundation

/// A domain as the home page lists it.
public struct DomainListItem: Sendable, Equatable {
    public var id: Int
    public var host: String
    public var displayName: String
    public var wildcard: Bool
    public var lastVerdict: Verdict?
    public var lastCheckedAt: Date?
}

extension DomainStore {
    /// Registered domains by display name, a page at a time.
    public func listDomains(limit: Int = 100, offset: Int = 0) throws -> [DomainListItem] {
        try rows("""
            SELECT id, host, display_name, wildcard, last_verdict, last_checked_at
            FROM domains ORDER BY lower(display_name), id LIMIT $1 OFFSET $2
            """, limit, offset).map { row in
            DomainListItem(id: try row.decode("id"), host: try row.decode("host"), displayName: try row.decode("display_name"),
                           wildcard: try row.decode("wildcard"), lastVerdict: try row.decode("last_verdict"),
                           lastCheckedAt: try row.decode("last_checked_at"))
        }
    }
}
