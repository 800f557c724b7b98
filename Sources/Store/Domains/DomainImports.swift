/// What happened to one domain of a bulk import.
public enum DomainImportOutcome: Sendable, Equatable {
    case added(id: Int64)
    case alreadyRegistered
}

extension Database {
    /// Registers a domain with its required app IDs unless it is already registered, in one
    /// transaction. New domains are due at once.
    public func importDomain(host: String, displayName: String, wildcard: Bool,
                             appIDs: [(service: String, appID: String)]) throws -> DomainImportOutcome {
        try withTransaction { connection in
            guard let id: Int64 = try connection.firstRow(Self.insertDomain, host, displayName, wildcard)?.decode("id") else {
                return .alreadyRegistered
            }
            try connection.addExpectations(appIDs.map {
                ExpectationRow(domainID: id, kind: .appID(service: $0.service, appID: $0.appID))
            })
            return .added(id: id)
        }
    }

    static var insertDomain: SQL {
        """
        INSERT INTO domains (host, display_name, wildcard) VALUES ($1, $2, $3)
        ON CONFLICT (host, wildcard) DO NOTHING RETURNING id
        """
    }
}
