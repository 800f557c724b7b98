/// One row of a domain's expectations: a required app ID in a service, or a watched URL with the
/// app that should open it (nil: the URL should stay in the browser).
public struct ExpectationRow: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case appID(service: String, appID: String)
        case watchedURL(url: String, expectedAppID: String?)
    }

    public var domainID: Int64
    public var kind: Kind

    public init(domainID: Int64, kind: Kind) {
        self.domainID = domainID
        self.kind = kind
    }
}

extension Queryable {
    /// The expectations of several domains at once (a scheduler batch), in insertion order.
    public func expectations(domainIDs: [Int64]) throws -> [ExpectationRow] {
        try rows(Self.expectationsOf, SQLArray(domainIDs.map(Int.init))).compactMap { row in
            let domainID: Int64 = try row.decode("domain_id")
            switch try row.decode("kind", as: String.self) {
            case "app-id":
                guard let service: String = try row.decode("service"), let appID: String = try row.decode("app_id") else { return nil }
                return ExpectationRow(domainID: domainID, kind: .appID(service: service, appID: appID))
            case "url":
                guard let url: String = try row.decode("url") else { return nil }
                return ExpectationRow(domainID: domainID, kind: .watchedURL(url: url, expectedAppID: try row.decode("app_id")))
            default:
                return nil
            }
        }
    }

    /// Adds expectations for a domain (import, registration).
    public func addExpectations(_ rows: [ExpectationRow]) throws {
        for row in rows {
            switch row.kind {
            case .appID(let service, let appID):
                try execute("INSERT INTO expectations (domain_id, kind, service, app_id) VALUES ($1, 'app-id', $2, $3)",
                            row.domainID, service, appID)
            case .watchedURL(let url, let expected):
                try execute("INSERT INTO expectations (domain_id, kind, url, app_id) VALUES ($1, 'url', $2, $3)",
                            row.domainID, url, expected)
            }
        }
    }

    static var expectationsOf: SQL {
        "SELECT domain_id, kind, service, app_id, url FROM expectations WHERE domain_id = ANY($1::bigint[]) ORDER BY id"
    }
}
