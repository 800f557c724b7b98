import Foundation
import Store
import TestSupport
import Testing
import Vocabulary

/// Columns holding a word of the vocabulary decode to its type, and a word this version does not
/// know is an error naming the table and column — never quietly another word.
@Suite struct VocabularyColumnTests {
    @Test func wordsRoundTripThroughParametersAndColumns() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            for verdict in Verdict.allCases {
                #expect(try db.value("SELECT $1::text", verdict, as: Verdict.self) == verdict)
            }
            for service in Service.allCases {
                #expect(try db.value("SELECT $1::text", service, as: Service.self) == service)
            }
            #expect(try db.value("SELECT NULL::text", as: Verdict?.self) == nil)
            #expect(try db.value("SELECT 'critical'::text", as: AlertSeverity.self) == .critical)
        }
    }

    @Test func anUnknownStoredWordNamesItsTableAndColumn() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            // A newer version that widened the column's CHECK and wrote a word this one lacks.
            try db.execute("ALTER TABLE domains DROP CONSTRAINT domains_last_verdict_check")
            try db.execute("INSERT INTO domains (host, display_name, last_verdict) VALUES ('a.example', 'a.example', 'error')")
            let error = try #require(throws: DatabaseError.self) { try db.domainStatuses() }
            #expect(error.description.contains("domains.last_verdict"), "\(error)")
            #expect(error.description.contains("\"error\" is not a Verdict"), "\(error)")
            // Renamed in the result, the column still says where it is stored.
            let renamed = try #require(throws: DatabaseError.self) {
                try db.value("SELECT last_verdict AS v FROM domains", as: Verdict?.self)
            }
            #expect(renamed.description.contains("v (domains.last_verdict)"), "\(renamed)")
        }
    }

    /// A leased domain's host is read back as a `HostName` (the ASCII column, its display name as the
    /// Unicode form); a stored host that is not a host name is an error naming the column, never a default
    /// (the claim sets that row apart with the error, and leases the others: DomainLeaseTests).
    @Test func aLeasedHostIsAHostNameAndOneThatIsNotNamesItsColumn() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            try db.execute("INSERT INTO domains (host, display_name) VALUES ('xn--bcher-kva.example', 'bücher.example')")
            let leased = try #require(try db.leaseDueDomains(limit: 5, lease: .seconds(60), worker: "w").first)
            #expect(leased.host.ascii == "xn--bcher-kva.example" && leased.host.unicode == "bücher.example" && !leased.host.isWildcard)
            // The column's CHECK admits what HostName refuses: an IPv4 address, an empty or hyphen-led label.
            for bad in ["10.0.0.1", "a..example", "a.-b.example"] {
                try db.execute("DELETE FROM domains")
                try db.execute("INSERT INTO domains (host, display_name) VALUES ($1, $1)", bad)
                let claim = try db.claimDueDomains(limit: 5, lease: .seconds(60), worker: "w")
                let error = try #require(claim.unreadable.first?.reason)
                #expect(claim.leased.isEmpty && claim.unreadable.count == 1)
                #expect(error.contains("domains.host") && error.contains("is not a host name"), "\(error)")
            }
        }
    }

    @Test func aStoredDocumentThatDoesNotDecodeNamesItsColumn() throws {
        struct Shape: SQLJSONCodable, Equatable { var verdict: Verdict }
        try TestPostgres.withDatabase { (db: Database) throws in
            #expect(try db.value("SELECT $1::jsonb", Shape(verdict: .warn), as: Shape.self) == Shape(verdict: .warn))
            try db.execute("CREATE TABLE shapes (doc jsonb NOT NULL)")
            try db.execute(#"INSERT INTO shapes VALUES ('{"verdict": "maybe"}')"#)
            let error = try #require(throws: DatabaseError.self) { try db.value("SELECT doc FROM shapes", as: Shape.self) }
            #expect(error.description.contains("shapes.doc"), "\(error)")
            #expect(error.description.contains("/verdict"), "\(error)")
        }
    }
}
