import Foundation
@testable import Store
import Testing
import TestSupport
import Vocabulary

/// Migration 0069 (issue #29): a domain's reason carries its platform in `last_reason_platform`
/// instead of an "Android: " prefix in the line. Rows as main (56d7ae4, at 0068) writes them keep
/// what people read, and the platform becomes a typed field no reader parses back out of the text.
@Suite struct ReasonPlatformMigrationTests {
    @Test func aPrefixedReasonBecomesAndroidsAndEveryLineReadsAsBefore() throws {
        let testDatabase = try TestPostgres.createDatabase(migrated: false)
        defer { testDatabase.drop() }
        let all = try MigrationDirectory.load(try TestPostgres.migrationsDirectory())
        try Migrator(migrations: all.filter { $0.version < 69 }).migrate(testDatabase.configuration)
        let db = Database(configuration: testDatabase.configuration, poolSize: 1)
        defer { db.close() }

        // As DomainVerdict wrote them before: Apple's line as it is, Android's after "Android: ", and on
        // a domain that does not fail the summary of its most severe open alert (0068), Android's
        // alerts' summaries naming their platform in their own words.
        func domain(_ host: String, verdict: Verdict?, reason: String?, platforms: WatchedPlatforms = .both) throws -> Int64 {
            try db.value("""
                INSERT INTO domains (host, display_name, platforms, last_verdict, last_reason) VALUES ($1, $1, $2, $3, $4) RETURNING id
                """, host, platforms, verdict, reason)
        }
        let apple = "The server answered HTTP 404."
        let android = "watched URL https://shop.example/p/1 stays in the browser on Android 15+, expected: opens com.example.shop."
        let rotation = "Android: key rotation incomplete — assetlinks.json still lists only the old key."
        let applesID = try domain("apple.example", verdict: .fail, reason: apple)
        let androidsID = try domain("android.example", verdict: .fail, reason: "Android: " + android)
        let androidOnlyID = try domain("only.example", verdict: .fail, reason: "Android: " + apple, platforms: .android)
        let alertLedID = try domain("alert.example", verdict: .warn, reason: rotation)
        try db.execute("INSERT INTO alerts (domain_id, rule, severity, summary, state) VALUES ($1, $2, $3, $4, 'open')",
                       alertLedID, AlertRule.androidIdentityMissing.rawValue, AlertRule.androidIdentityMissing.severity.rawValue, rotation)
        // The same words on a failing domain are its own cause (an alert leads only a domain that does not fail).
        let failingID = try domain("failing.example", verdict: .fail, reason: rotation)
        try db.execute("INSERT INTO alerts (domain_id, rule, severity, summary, state) VALUES ($1, $2, $3, $4, 'open')",
                       failingID, AlertRule.androidIdentityMissing.rawValue, AlertRule.androidIdentityMissing.severity.rawValue, rotation)
        let quietID = try domain("quiet.example", verdict: .pass, reason: nil)
        // A kept judgement of each platform's link (0058): Android's was made by the link's older rule.
        let appID: Int64 = try db.value("INSERT INTO apps (name, android_package) VALUES ('Shop', 'com.example.shop') RETURNING id")
        try db.execute("""
            INSERT INTO app_links (app_id, domain_id, platform, service, judged_state, judged_check_id, judged_digest)
            VALUES ($1, $2, 'apple', 'applinks', 'passing', NULL, 17), ($1, $2, 'android', 'applinks', 'warning', NULL, 18)
            """, appID, alertLedID)
        let neverID = try domain("never.example", verdict: nil, reason: nil)

        #expect(try Migrator(migrations: all).migrate(testDatabase.configuration).map(\.version) == [69])

        func reason(_ id: Int64) throws -> DomainReason? { try #require(try db.domain(id: id)).lastReason }
        #expect(try reason(applesID) == DomainReason(apple, platform: .apple))
        #expect(try reason(androidsID) == DomainReason(android, platform: .android))
        #expect(try reason(androidOnlyID) == DomainReason(apple, platform: .android))
        #expect(try reason(alertLedID) == DomainReason(rotation, platform: nil), "an alert's summary keeps its own words and no platform")
        #expect(try reason(failingID) == DomainReason("key rotation incomplete — assetlinks.json still lists only the old key.", platform: .android))
        #expect(try reason(quietID) == nil && reason(neverID) == nil)
        // What people read is what they read before.
        #expect(try reason(androidsID)?.line == "Android: " + android)
        #expect(try reason(alertLedID)?.line == rotation && reason(failingID)?.line == rotation && reason(applesID)?.line == apple)
        // The overview and `status` read the same typed reason.
        let overview = try db.overview(OverviewFilter(pageSize: 10)).items
        #expect(overview.first { $0.id == androidsID }?.reason == DomainReason(android, platform: .android))
        #expect(try db.domainStatuses().first { $0.host == "android.example" }?.reason == DomainReason(android, platform: .android))

        // Android's link is judged again by its next reader; Apple's rule did not change.
        #expect(try db.value("SELECT count(*)::int FROM app_links WHERE judged_state IS NULL AND platform = 'android'") == 1)
        #expect(try db.value("SELECT count(*)::int FROM app_links WHERE judged_state = 'passing' AND platform = 'apple'") == 1)

        // The column holds one of the two platforms, and only beside a line.
        #expect(throws: (any Error).self) {
            try db.execute("UPDATE domains SET last_reason_platform = 'ios' WHERE id = $1", applesID)
        }
        #expect(throws: (any Error).self) {
            try db.execute("UPDATE domains SET last_reason_platform = 'apple' WHERE id = $1", quietID)
        }
        // A platform this version does not know is an error when read, never another platform.
        let row = try #require(try db.firstRow("SELECT 'x' AS last_reason, 'ios' AS last_reason_platform"))
        #expect(throws: DatabaseError.self) { try row.decodeReason() }
    }
}
