import Foundation
import Store
import TestSupport
import Testing
import Vocabulary

/// A check's per-location transport facts are stored and read back as one type (`CheckTransport`).
/// Rows main's pipeline wrote before the type owned the column (captured below from a real check of
/// the TLS fleet: `.well-known` and Apple's CDN, certificates, timings) read back unchanged after
/// migration 0014; rows under the spellings the page used to guess at are rewritten into that one.
@Suite struct TypedTransportTests {
    /// `checks.transport` as main's CheckPipeline stored it (CheckPipelineTests against the fleet).
    static let mainTransport = #"""
        {"cdn": {"tls": {"issuer": "CN = aasa-monitor test CA", "subject": "CN = *.fleet.test", "trusted": true, "notAfter": "2026-12-14T08:17:08Z", "subjectAltNames": ["*.fleet.test", "fleet.test"]}, "url": "https://cdn.fleet.test/a/v1/good.fleet.test", "body": [], "status": 200, "headers": {"age": "5400", "date": "Tue, 24 Nov 2026 08:17:08 GMT", "etag": "\"6b054804-dc\"", "server": "nginx", "apple-from": "https://good.fleet.test/.well-known/apple-app-site-association", "content-type": "application/json", "accept-ranges": "bytes", "cache-control": "max-age=21600,public", "last-modified": "Tue, 24 Nov 2026 08:17:08 GMT", "content-length": "220", "apple-try-direct": "false", "apple-origin-format": "json"}, "timings": {"dns": 0, "tls": 0.003083, "total": 0.004748, "connect": 0.000172, "firstByte": 0.00463}, "location": "cdn", "wireSize": 220, "ipAddress": "127.0.0.1", "userAgent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15", "decodedSize": 220, "bodyTruncated": false}, "wellKnown": {"tls": {"issuer": "CN = aasa-monitor test CA", "subject": "CN = *.fleet.test", "trusted": true, "notAfter": "2026-12-14T08:17:08Z", "subjectAltNames": ["*.fleet.test", "fleet.test"]}, "url": "https://good.fleet.test/.well-known/apple-app-site-association", "body": [], "status": 200, "headers": {"date": "Tue, 24 Nov 2026 08:17:08 GMT", "etag": "\"6b054804-c1\"", "server": "nginx", "content-type": "application/json", "accept-ranges": "bytes", "last-modified": "Tue, 24 Nov 2026 08:17:08 GMT", "content-length": "193"}, "timings": {"dns": 0, "tls": 0.002104, "total": 0.00257, "connect": 0.000083, "firstByte": 0.002515}, "location": "well-known", "wireSize": 193, "ipAddress": "127.0.0.1", "userAgent": "AASA-Bot/1.0.0", "decodedSize": 193, "bodyTruncated": false}, "deviceLocation": "well-known"}
        """#

    static let notAfter = Date(timeIntervalSince1970: 1_797_236_228)   // 2026-12-14T08:17:08Z
    static let fleetTLS = TLSFacts(trusted: true, subject: "CN = *.fleet.test", subjectAltNames: ["*.fleet.test", "fleet.test"],
                                   issuer: "CN = aasa-monitor test CA", notAfter: notAfter)

    /// The value that JSON means, written out field by field.
    static var expectedMain: CheckTransport {
        var wellKnown = TransportFacts(location: .wellKnown, url: "https://good.fleet.test/.well-known/apple-app-site-association", status: 200,
                                       headers: ["date": "Tue, 24 Nov 2026 08:17:08 GMT", "etag": "\"6b054804-c1\"", "server": "nginx",
                                                 "content-type": "application/json", "accept-ranges": "bytes",
                                                 "last-modified": "Tue, 24 Nov 2026 08:17:08 GMT", "content-length": "193"],
                                       decodedSize: 193, tls: fleetTLS)
        wellKnown.timings = TransportTimings(dns: 0, connect: 0.000083, tls: 0.002104, firstByte: 0.002515, total: 0.00257)
        wellKnown.ipAddress = "127.0.0.1"
        wellKnown.userAgent = "AASA-Bot/1.0.0"
        wellKnown.wireSize = 193
        var cdn = TransportFacts(location: .cdn, url: "https://cdn.fleet.test/a/v1/good.fleet.test", status: 200,
                                 headers: ["age": "5400", "date": "Tue, 24 Nov 2026 08:17:08 GMT", "etag": "\"6b054804-dc\"", "server": "nginx",
                                           "apple-from": "https://good.fleet.test/.well-known/apple-app-site-association",
                                           "content-type": "application/json", "accept-ranges": "bytes", "cache-control": "max-age=21600,public",
                                           "last-modified": "Tue, 24 Nov 2026 08:17:08 GMT", "content-length": "220",
                                           "apple-try-direct": "false", "apple-origin-format": "json"],
                                 decodedSize: 220, tls: fleetTLS)
        cdn.timings = TransportTimings(dns: 0, connect: 0.000172, tls: 0.003083, firstByte: 0.00463, total: 0.004748)
        cdn.ipAddress = "127.0.0.1"
        cdn.userAgent = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15"
        cdn.wireSize = 220
        return CheckTransport(wellKnown: wellKnown, cdn: cdn, deviceLocation: .wellKnown)
    }

    /// Spellings the domain page used to accept: the hyphenated key, a lone total in milliseconds, a
    /// date in seconds since 2001 (Foundation's default), a partial object without the fields the
    /// pipeline always writes.
    static let hyphenated = #"{"well-known": {"url": "https://a.example/.well-known/apple-app-site-association", "status": 404, "totalMilliseconds": 31, "tls": {"issuer": "Old CA", "notAfter": 818035200}}}"#
    /// A list of locations under "locations", each naming its own, a failure, ISO dates with fractions.
    static let listed = #"{"locations": [{"location": "root", "url": "https://a.example/apple-app-site-association", "failure": {"kind": "timeout", "message": "took too long"}}, {"location": "cdn", "url": "https://cdn.example/a/v1/a.example", "status": 200, "headers": {"content-type": "application/json"}, "decodedSize": 12, "tls": {"trusted": true, "notAfter": "2027-03-01T00:00:00.250Z"}}]}"#

    @Test func theStoredSpellingIsMainsSpelling() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            // Decoding main's row gives the value above, and encoding that value gives main's row back.
            let decoded = try StoredJSON.decode(CheckTransport.self, from: Self.mainTransport)
            #expect(decoded == Self.expectedMain)
            let same: Bool = try db.value("SELECT $1::jsonb = $2::jsonb", try StoredJSON.encode(decoded), Self.mainTransport)
            #expect(same)
        }
    }

    @Test func rowsWrittenBeforeTheTypeReadBackUnchangedAfterMigrating() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        let all = try Migrator(directory: TestPostgres.migrationsDirectory()).migrations
        try Migrator(migrations: all.filter { $0.version <= 13 }).migrate(database.configuration)
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        let domain: Int64 = try db.value("INSERT INTO domains (host, display_name) VALUES ('a.example', 'a.example') RETURNING id")
        func insert(_ key: String, _ transport: String?) throws -> Int64 {
            try db.value("""
                INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, changed, transport)
                VALUES ($1, $2, now(), now(), 'pass', true, coalesce($3::jsonb, '{}')) RETURNING id
                """, domain, key, transport)
        }
        let piped = try insert("pipeline", Self.mainTransport)
        let hyphenated = try insert("hyphenated", Self.hyphenated)
        let listed = try insert("listed", Self.listed)
        let defaulted = try insert("default", nil)

        try Migrator(migrations: all).migrate(database.configuration)
        #expect(try db.transport(checkID: piped) == Self.expectedMain)
        let unchanged: Bool = try db.value("SELECT transport = $1::jsonb FROM checks WHERE id = $2", Self.mainTransport, piped)
        #expect(unchanged, "main's rows are not rewritten")
        #expect(try db.transport(checkID: defaulted) == CheckTransport())

        // The hyphenated key is .well-known; a lone total stays in latency_ms, never as invented phases.
        let old = try #require(try db.transport(checkID: hyphenated)?.wellKnown)
        #expect(old.location == .wellKnown && old.status == 404 && old.timings == nil && old.body.isEmpty)
        #expect(old.tls == TLSFacts(trusted: false, issuer: "Old CA", notAfter: Date(timeIntervalSinceReferenceDate: 818_035_200)))

        let list = try #require(try db.transport(checkID: listed))
        #expect(list.wellKnown == nil)
        #expect(list.root == TransportFacts(location: .root, url: "https://a.example/apple-app-site-association",
                                            failure: FetchFailure(kind: .timeout, message: "took too long")))
        #expect(list.cdn == TransportFacts(location: .cdn, url: "https://cdn.example/a/v1/a.example", status: 200,
                                           headers: ["content-type": "application/json"], decodedSize: 12,
                                           tls: TLSFacts(trusted: true, notAfter: Date(timeIntervalSince1970: 1_803_859_200))))
    }

    @Test func aStoredShapeThisVersionCannotReadIsAnErrorNamingTheColumn() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let domain: Int64 = try db.value("INSERT INTO domains (host, display_name) VALUES ('a.example', 'a.example') RETURNING id")
            let id: Int64 = try db.value("""
                INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, changed, transport)
                VALUES ($1, 'k', now(), now(), 'pass', true, '{"wellKnown": {"location": "gopher", "url": "", "headers": {}, "body": [], "decodedSize": 0, "bodyTruncated": false}}')
                RETURNING id
                """, domain)
            let error = try #require(throws: DatabaseError.self) { try db.transport(checkID: id) }
            #expect(error.description.contains("checks.transport"), "\(error)")
            #expect(error.description.contains("/wellKnown/location"), "\(error)")
        }
    }
}
