import AASA
import Foundation
import Store
import TestSupport
import Testing
import Vocabulary

/// A check's findings and expectation results are stored and read back as one type each. Rows that
/// main wrote before these types owned the columns (captured below as the exact JSON it wrote) read
/// back unchanged after migration 0013.
@Suite struct TypedHistoryTests {
    /// What the pipeline on main stored (JSONText: sorted keys, ISO 8601): one error finding with a
    /// location, and expectation results with a missing app ID and a watched URL that stayed in the browser.
    static let mainFindings = #"[{"affects":"iOS 14+","code":"http-status","hint":"Serve the file with 200.","location":{"column":3,"line":2,"pointer":"/applinks"},"message":"The origin answered 404.","severity":"error"}]"#
    static let mainExpectations = #"{"missingAppIDs":{"applinks":["ABCDE12345.shop"]},"watchedURLs":[{"actual":{"staysInBrowser":{}},"expected":{"opensApp":{"_0":"ABCDE12345.shop"}},"url":"https://shop.example/p/1"}]}"#

    static let expectedFindings = [Finding(code: "http-status", severity: .error, location: SourceLocation(pointer: "/applinks", line: 2, column: 3),
                                           message: "The origin answered 404.", hint: "Serve the file with 200.", affects: "iOS 14+")]
    static let expectedResults = ExpectationResults(
        missingAppIDs: [.applinks: ["ABCDE12345.shop"]],
        watchedURLs: [WatchedURLResult(url: "https://shop.example/p/1", expected: .opensApp("ABCDE12345.shop"), actual: .staysInBrowser)])

    @Test func theStoredSpellingIsMainsSpelling() throws {
        // Writing the types today produces the very text main wrote, so old and new rows are alike.
        #expect(try StoredJSON.encode(Self.expectedFindings) == Self.mainFindings)
        #expect(try StoredJSON.encode(Self.expectedResults) == Self.mainExpectations)
    }

    @Test func rowsWrittenBeforeTheTypesReadBackUnchangedAfterMigrating() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        let all = try Migrator(directory: TestPostgres.migrationsDirectory()).migrations
        try Migrator(migrations: all.filter { $0.version <= 12 }).migrate(database.configuration)
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        let domain: Int64 = try db.value("INSERT INTO domains (host, display_name) VALUES ('shop.example', 'shop.example') RETURNING id")
        // As main's pipeline wrote a changed check, and as its import/insertCheck wrote one (column defaults).
        let piped: Int64 = try db.value("""
            INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, findings, expectations, changed, latency_ms)
            VALUES ($1, 'k1', now() - interval '1 hour', now() - interval '1 hour', 'fail', $2::jsonb, $3::jsonb, true, 40) RETURNING id
            """, domain, Self.mainFindings, Self.mainExpectations)
        let imported: Int64 = try db.value("""
            INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, changed, latency_ms)
            VALUES ($1, 'k2', now(), now(), 'pass', true, 20) RETURNING id
            """, domain)
        #expect(try db.value("SELECT expectations::text FROM checks WHERE id = $1", imported, as: String.self) == "{}")

        try Migrator(migrations: all).migrate(database.configuration)
        let old = try #require(try db.check(id: piped))
        #expect(old.findings == Self.expectedFindings)
        #expect(old.expectations == Self.expectedResults)
        #expect(old.verdict == .fail)
        let none = try #require(try db.check(id: imported))
        #expect(none.findings == [] && none.expectations == ExpectationResults())
        // Rows written after the migration without expectations get the full spelling from the default.
        let later: Int64 = try db.value("""
            INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, changed) VALUES ($1, 'k3', now(), now(), 'pass', true)
            RETURNING id
            """, domain)
        #expect(try db.check(id: later)?.expectations == ExpectationResults())
    }

    /// A check's Android side as main's pipeline stored it (`checks.android`, every key it writes), and
    /// the value it stands for.
    static let fingerprint = String(repeating: "AB:", count: 31) + "AB"
    static let mainAndroid = #"{"findings":[{"code":"statement-dropped","message":"1 of 2 statements are invalid and dropped; the others still apply.","severity":"warning"}],"google":{"errorCodes":[],"matchesOrigin":true,"maxAgeSeconds":600,"notLinked":[],"staleBeyondGrace":false,"statementCount":1},"identities":[{"expectedFingerprints":["AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB"],"grantedFingerprints":["AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB"],"named":true,"packageName":"com.example.shop","uploadKeys":[]}],"originAnswer":"200 5d41402a","probedAt":"2027-01-15T08:00:00Z","serves":true,"verdict":"warn","versionSHA256":"5d41402a","versionSince":"2027-01-15T08:00:00Z","watchedURLs":[{"actual":{"opensApp":{"_0":"com.example.shop"}},"beforeDynamicRules":{"opensApp":{"_0":"com.example.shop"}},"expected":{"opensApp":{"_0":"com.example.shop"}},"reason":"Rule 1 {\"/\": \"/p/*\"} allows it.","url":"https://shop.example/p/1"}]}"#
    /// As the pipeline stored it before URLs were judged on Android (and before `originAnswer`).
    static let olderAndroid = #"{"findings":[],"identities":[],"serves":false,"verdict":"pass"}"#

    static var expectedAndroid: AndroidResult {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        var google = GoogleVerdict(errorCodes: [], maxAgeSeconds: 600, statementCount: 1)
        google.matchesOrigin = true
        var result = AndroidResult(
            verdict: .warn, serves: true, versionSHA256: "5d41402a", versionSince: at,
            findings: [Finding(code: "statement-dropped", severity: .warning, message: "1 of 2 statements are invalid and dropped; the others still apply.")],
            identities: [AndroidIdentityResult(packageName: "com.example.shop", expectedFingerprints: [fingerprint], named: true,
                                               grantedFingerprints: [fingerprint])],
            google: google, probedAt: at,
            watchedURLs: [AndroidWatchedURLResult(url: "https://shop.example/p/1", expected: .opensApp("com.example.shop"),
                                                  actual: .opensApp("com.example.shop"), beforeDynamicRules: .opensApp("com.example.shop"),
                                                  reason: #"Rule 1 {"/": "/p/*"} allows it."#)])
        result.originAnswer = "200 5d41402a"
        return result
    }

    @Test func androidResultsKeepMainsSpelling() throws {
        #expect(try StoredJSON.encode(Self.expectedAndroid) == Self.mainAndroid)
    }

    /// AndroidResult is read by its synthesized Decodable: a row main wrote reads back as the same value,
    /// and one written before `watchedURLs` existed reads back (migration 0037 spells its "none").
    @Test func androidRowsWrittenByMainReadBackUnchanged() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        let all = try Migrator(directory: TestPostgres.migrationsDirectory()).migrations
        try Migrator(migrations: all.filter { $0.version <= 36 }).migrate(database.configuration)
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        let domain: Int64 = try db.value("INSERT INTO domains (host, display_name) VALUES ('shop.example', 'shop.example') RETURNING id")
        func insert(_ key: String, _ android: String) throws -> Int64 {
            try db.value("""
                INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, changed, android)
                VALUES ($1, $2, now(), now(), 'pass', true, $3::jsonb) RETURNING id
                """, domain, key, android)
        }
        let today = try insert("k1", Self.mainAndroid), older = try insert("k2", Self.olderAndroid)
        try Migrator(migrations: all).migrate(database.configuration)
        #expect(try db.check(id: today)?.android == Self.expectedAndroid)
        #expect(try db.check(id: older)?.android == AndroidResult(verdict: .pass, serves: false))
    }

    /// A stored version's reading (0033) as this version writes it, for a small AASA with a rule,
    /// defaults and a query: the stored spelling of `VersionReading<AASADocument>`. A rename in the
    /// document types changes this text, and rows already stored would no longer read: change them
    /// additively (a new optional field), or write a migration that rewrites the stored readings.
    static let aasaFile = Array(#"{"applinks":{"defaults":{"caseSensitive":false},"details":[{"appIDs":["ABCDE12345.shop"],"components":[{"/":"/p/*","?":{"x":"1"},"comment":"c"}]}]}}"#.utf8)
    static let aasaReading = #"{"document":{"appServices":{},"applinks":{"defaults":{"caseSensitive":false},"details":[{"appIDs":["ABCDE12345.shop"],"location":{"column":60,"line":1,"pointer":"/applinks/details/0"},"rules":[{"comment":"c","location":{"column":104,"line":1,"pointer":"/applinks/details/0/components/0"},"settings":{"path":"/p/*","query":{"items":{"_0":[{"name":"x","pattern":"1"}]}}}}],"rulesSource":"components"}],"detailsForm":"array","location":{"column":13,"line":1,"pointer":"/applinks"},"substitutionVariables":[]},"wasSigned":false},"size":148,"text":{"at":"0,1,2,3,2,4,5,6,7,6,8,9,10,11,12,11,13,9,8,5,4,1,0","pointers":["","/applinks","/applinks/defaults","/applinks/defaults/caseSensitive","/applinks/details","/applinks/details/0","/applinks/details/0/appIDs","/applinks/details/0/appIDs/0","/applinks/details/0/components","/applinks/details/0/components/0","/applinks/details/0/components/0/~1","/applinks/details/0/components/0/?","/applinks/details/0/components/0/?/x","/applinks/details/0/components/0/comment"],"pretty":true,"text":"{\n  \"applinks\": {\n    \"defaults\": {\n      \"caseSensitive\": false\n    },\n    \"details\": [\n      {\n        \"appIDs\": [\n          \"ABCDE12345.shop\"\n        ],\n        \"components\": [\n          {\n            \"/\": \"/p/*\",\n            \"?\": {\n              \"x\": \"1\"\n            },\n            \"comment\": \"c\"\n          }\n        ]\n      }\n    ]\n  }\n}"}}"#
    /// The same reading as stored from 0033 until 0053 (an object per line; dropped by 0053).
    static let aasaReadingBefore0053 = #"{"document":{"appServices":{},"applinks":{"defaults":{"caseSensitive":false},"details":[{"appIDs":["ABCDE12345.shop"],"location":{"column":60,"line":1,"pointer":"/applinks/details/0"},"rules":[{"comment":"c","location":{"column":104,"line":1,"pointer":"/applinks/details/0/components/0"},"settings":{"path":"/p/*","query":{"items":{"_0":[{"name":"x","pattern":"1"}]}}}}],"rulesSource":"components"}],"detailsForm":"array","location":{"column":13,"line":1,"pointer":"/applinks"},"substitutionVariables":[]},"wasSigned":false},"size":148,"text":{"lines":[{"pointer":"","text":"{"},{"pointer":"/applinks","text":"  \"applinks\": {"},{"pointer":"/applinks/defaults","text":"    \"defaults\": {"},{"pointer":"/applinks/defaults/caseSensitive","text":"      \"caseSensitive\": false"},{"pointer":"/applinks/defaults","text":"    },"},{"pointer":"/applinks/details","text":"    \"details\": ["},{"pointer":"/applinks/details/0","text":"      {"},{"pointer":"/applinks/details/0/appIDs","text":"        \"appIDs\": ["},{"pointer":"/applinks/details/0/appIDs/0","text":"          \"ABCDE12345.shop\""},{"pointer":"/applinks/details/0/appIDs","text":"        ],"},{"pointer":"/applinks/details/0/components","text":"        \"components\": ["},{"pointer":"/applinks/details/0/components/0","text":"          {"},{"pointer":"/applinks/details/0/components/0/~1","text":"            \"/\": \"/p/*\","},{"pointer":"/applinks/details/0/components/0/?","text":"            \"?\": {"},{"pointer":"/applinks/details/0/components/0/?/x","text":"              \"x\": \"1\""},{"pointer":"/applinks/details/0/components/0/?","text":"            },"},{"pointer":"/applinks/details/0/components/0/comment","text":"            \"comment\": \"c\""},{"pointer":"/applinks/details/0/components/0","text":"          }"},{"pointer":"/applinks/details/0/components","text":"        ]"},{"pointer":"/applinks/details/0","text":"      }"},{"pointer":"/applinks/details","text":"    ]"},{"pointer":"/applinks","text":"  }"},{"pointer":"","text":"}"}],"pretty":true}}"#

    @Test func versionReadingsKeepTheirStoredSpelling() throws {
        let reading = VersionReading(aasa: Self.aasaFile)
        let written = try StoredJSON.encode(reading)
        #expect(written == Self.aasaReading)
        #expect(try StoredJSON.decode(VersionReading<AASADocument>.self, from: Self.aasaReading) == reading)
    }

    /// Versions main stored (before 0033: bytes, no reading) keep their bytes exactly and read back as
    /// unread, for their first reader to read once (StoredVersionsTests); a reading stored since reads back as written.
    @Test func versionsWrittenByMainReadBackUnchanged() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        let all = try Migrator(directory: TestPostgres.migrationsDirectory()).migrations
        try Migrator(migrations: all.filter { $0.version < 33 }).migrate(database.configuration)
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        let key = VersionKey(.apple, sha256: SHA256.hex(Self.aasaFile))
        try db.execute("INSERT INTO association_versions (platform, sha256, body, size) VALUES ('apple', $1, $2, $3)",
                       key.sha256, Self.aasaFile, Self.aasaFile.count)
        try Migrator(migrations: all).migrate(database.configuration)
        #expect(try db.version(key)?.body == Self.aasaFile)
        guard case .unread(let bytes)? = try db.versionReading(key, of: AASADocument.self) else {
            Issue.record("main's version reads as unread")
            return
        }
        #expect(bytes == Self.aasaFile)
        try db.saveReading(VersionReading(aasa: Self.aasaFile), for: key)
        #expect(try db.value("SELECT reading::text FROM association_versions", as: String.self).isEmpty == false)
        guard case .read(let reading)? = try db.versionReading(key, of: AASADocument.self) else {
            Issue.record("a saved reading reads back")
            return
        }
        #expect(reading == VersionReading(aasa: Self.aasaFile))
        #expect(try db.version(key)?.body == Self.aasaFile, "the bytes stay as served")
    }

    /// Readings stored in the spelling before 0053 (a line an object) are dropped by it, so their
    /// versions read as unread — the bytes, for the first reader to read once — and a reading
    /// written since is in the new spelling.
    @Test func readingsStoredBefore0053AreReadAgainOnce() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        let all = try Migrator(directory: TestPostgres.migrationsDirectory()).migrations
        try Migrator(migrations: all.filter { $0.version < 53 }).migrate(database.configuration)
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        let key = VersionKey(.apple, sha256: SHA256.hex(Self.aasaFile))
        try db.execute("INSERT INTO association_versions (platform, sha256, body, size, reading) VALUES ('apple', $1, $2, $3, $4::jsonb)",
                       key.sha256, Self.aasaFile, Self.aasaFile.count, Self.aasaReadingBefore0053)
        try Migrator(migrations: all).migrate(database.configuration)
        guard case .unread(let bytes)? = try db.versionReading(key, of: AASADocument.self) else {
            Issue.record("a reading in the old spelling is dropped, and the version reads as unread")
            return
        }
        #expect(bytes == Self.aasaFile)
        try db.saveReading(VersionReading(aasa: Self.aasaFile), for: key)
        #expect(try db.value("SELECT reading #>> '{text,text}' FROM association_versions", as: String?.self)?.hasPrefix("{\n  \"applinks\": {") == true)
        guard case .read(let reading)? = try db.versionReading(key, of: AASADocument.self) else {
            Issue.record("the reading written back reads back")
            return
        }
        #expect(reading == VersionReading(aasa: Self.aasaFile))
    }

    @Test func aStoredShapeThisVersionCannotReadIsAnErrorNamingTheColumn() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let domain: Int64 = try db.value("INSERT INTO domains (host, display_name) VALUES ('a.example', 'a.example') RETURNING id")
            let id: Int64 = try db.value("""
                INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, findings, changed)
                VALUES ($1, 'k', now(), now(), 'pass', '[{"code": "x", "severity": "fatal", "message": "m"}]', true) RETURNING id
                """, domain)
            let error = try #require(throws: DatabaseError.self) { try db.check(id: id) }
            #expect(error.description.contains("checks.findings"), "\(error)")
            #expect(error.description.contains("/0/severity"), "\(error)")
        }
    }
}
