import Foundation
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Monitor

/// The summary the monitor reads back as the "previous check" (`checks.summary`, synthesized Codable):
/// one written before the platforms were apart (Apple's fields at the top) reads back as the same check
/// with an Apple side after migration 0035, and one written now passes through the migration unchanged.
@Suite(.serialized) struct CheckSummaryStorageTests {
    /// A summary as main wrote it before 0035 (sorted keys, ISO 8601 dates), with Android beside it.
    static let beforePlatforms = #"{"android":{"findings":[],"identities":[],"serves":true,"verdict":"pass","versionSHA256":"bbbb","watchedURLs":[]},"applinksDetailCount":1,"cdn":{"matchesOrigin":true,"served":true,"versionSHA256":"aaaa"},"certificate":{"notAfter":"2027-04-15T08:00:00Z","trusted":true},"checkedAt":"2027-01-15T08:00:00Z","documentParsed":true,"expectationsKey":"k1","expectations":{"missingAppIDs":{"applinks":["ABCDE12345.shop"]},"watchedURLs":[]},"findings":[{"code":"content-type-not-json","message":"m","severity":"warning"}],"originReachable":true,"verdict":"warn","versionSHA256":"aaaa","versionSince":"2027-01-14T08:00:00Z","wellKnownAnswer":"200 aaaa","wellKnownETag":"\"e1\""}"#

    static let checkedAt = Date(timeIntervalSince1970: 1_800_000_000)

    static var expected: CheckSummary {
        let day = ISO8601DateFormatter()
        func date(_ text: String) -> Date { day.date(from: text) ?? .distantPast }
        return CheckSummary(
            checkedAt: date("2027-01-15T08:00:00Z"), reachable: true,
            certificate: CertificateSummary(trusted: true, notAfter: date("2027-04-15T08:00:00Z")),
            apple: AppleResult(verdict: .warn, originReachable: true, versionSHA256: "aaaa", versionSince: date("2027-01-14T08:00:00Z"),
                               documentParsed: true, findings: [Finding(code: "content-type-not-json", severity: .warning, message: "m")],
                               applinksDetailCount: 1, expectations: ExpectationResults(missingAppIDs: [.applinks: ["ABCDE12345.shop"]]),
                               cdn: CDNSummary(served: true, matchesOrigin: true, versionSHA256: "aaaa"), wellKnownAnswer: "200 aaaa",
                               wellKnownETag: "\"e1\""),
            android: AndroidResult(verdict: .pass, serves: true, versionSHA256: "bbbb"), expectationsKey: "k1")
    }

    /// An Android-only summary as this version writes it: no Apple side.
    static let androidOnly = CheckSummary(checkedAt: checkedAt, reachable: true,
                                          android: AndroidResult(verdict: .fail, serves: false, findings: [
                                              Finding(code: "http-status", severity: .error, message: "404")]))

    @Test func summariesStoredBeforeThePlatformsWereApartReadBackWithAnAppleSide() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        let all = try Migrator(directory: TestPostgres.migrationsDirectory()).migrations
        try Migrator(migrations: all.filter { $0.version < 35 }).migrate(database.configuration)
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        func domain(_ host: String, summary: String) throws -> Int64 {
            let id: Int64 = try db.value("INSERT INTO domains (host, display_name) VALUES ($1, $1) RETURNING id", host)
            let check: Int64 = try db.value("""
                INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, changed, summary)
                VALUES ($1, $2, now(), now(), 'pass', true, $3::jsonb) RETURNING id
                """, id, host, summary)
            try db.execute("UPDATE domains SET last_check_id = $2 WHERE id = $1", id, check)
            return id
        }
        let old = try domain("old.example", summary: Self.beforePlatforms)
        let new = try domain("new.example", summary: try StoredJSON.encode(Self.androidOnly))
        try Migrator(migrations: all).migrate(database.configuration)
        let histories = try db.domainHistories(domainIDs: [old, new])
        #expect(try MonitorState(history: histories[old], consecutiveFailures: 0).last == Self.expected)
        #expect(try MonitorState(history: histories[new], consecutiveFailures: 0).last == Self.androidOnly)
    }
}
