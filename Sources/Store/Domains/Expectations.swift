import Vocabulary
/// One of a domain's expectations: a required app ID in a service, or a watched URL with the app
/// that should open it (nil: the URL should stay in the browser).
public struct ExpectationRow: Sendable, Hashable {
    /// The same types the domain's own expectations are read and written as (`DomainDraft`).
    public enum Kind: Sendable, Hashable {
        case appID(AppIDExpectation)
        case watchedURL(WatchedURLExpectation)
    }

    public var domainID: Int64
    public var kind: Kind

    public init(domainID: Int64, kind: Kind) {
        self.domainID = domainID
        self.kind = kind
    }
}

extension DomainStore {
    /// The expectations of several domains at once (a scheduler batch).
    public func expectations(domainIDs: [Int64]) throws -> [ExpectationRow] {
        let ids = SQLArray(domainIDs.map(Int.init))
        let appIDs = try rows(Self.appIDsOf, ids).map { row in
            ExpectationRow(domainID: try row.decode("domain_id"), kind: .appID(try AppIDExpectation(row: row)))
        }
        let urls = try rows(Self.watchedURLsOf, ids).map { row in
            ExpectationRow(domainID: try row.decode("domain_id"), kind: .watchedURL(try WatchedURLExpectation(row: row)))
        }
        return appIDs + urls
    }

    /// Adds expectations (import); ones already there are kept as they are.
    public func addExpectations(_ rows: [ExpectationRow]) throws {
        for row in rows {
            switch row.kind {
            case .appID(let e):
                try execute("""
                    INSERT INTO expected_app_ids (domain_id, service, app_id) VALUES ($1, $2, $3)
                    ON CONFLICT DO NOTHING
                    """, row.domainID, e.service, e.appID)
            case .watchedURL(let e):
                try execute("""
                    INSERT INTO watched_urls (domain_id, url, expected_outcome, expected_app_id, expected_android)
                    VALUES ($1, $2, CASE WHEN $3::text IS NULL THEN 'stays-in-browser' ELSE 'opens-app' END, $3, $4)
                    ON CONFLICT DO NOTHING
                    """, row.domainID, e.url, e.expectedAppID, e.android)
            }
        }
    }

    static var appIDsOf: SQL {
        "SELECT domain_id, service, app_id FROM expected_app_ids WHERE domain_id = ANY($1::bigint[]) ORDER BY created_at, app_id"
    }

    static var watchedURLsOf: SQL {
        "SELECT domain_id, url, expected_app_id, expected_android FROM watched_urls WHERE domain_id = ANY($1::bigint[]) ORDER BY id"
    }
}
