import Foundation
@testable import Store
import Testing
import TestSupport
import Vocabulary

/// Migration 0065 (issue #29): an app's watched URL states the platforms it is watched on. Rows
/// written by main before it (2583ff2, at 0063) keep their meaning — watched on both, the Apple
/// expectation still placed where the app claims the domain for applinks — and every link's kept
/// judgement is dropped, since the Apple link's rule now counts the app's watched URLs.
@Suite struct WatchedURLPlatformsMigrationTests {
    @Test func aRowFromBeforeIsWatchedOnBothAndEveryJudgementIsMadeAgain() throws {
        let testDatabase = try TestPostgres.createDatabase(migrated: false)
        defer { testDatabase.drop() }
        let all = try MigrationDirectory.load(try TestPostgres.migrationsDirectory())
        // Every later one too (0066's first-check queue: the rows below are written by today's
        // createDomain, whose INSERT names its column); none of them touches what this test reads.
        try Migrator(migrations: all.filter { $0.version != 65 }).migrate(testDatabase.configuration)
        let db = Database(configuration: testDatabase.configuration, poolSize: 2)
        defer { db.close() }

        // As 2583ff2's Store writes an app with a manifest path and an Apple link (Apps.swift, 0058's judgement).
        guard case .created(let domainID) = try db.createDomain(DomainDraft(host: "shop.example", displayName: "shop.example", wildcard: false,
                intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: []), requestFirstCheck: false) else {
            Issue.record("the domain was not created")
            return
        }
        let appID: Int64 = try db.value("INSERT INTO apps (name, android_package) VALUES ('Shop', 'com.example.shop') RETURNING id")
        try db.execute("INSERT INTO app_apple_ids (app_id, apple_app_id, position) VALUES ($1, 'ABCDE12345.shop', 0)", appID)
        try db.execute("""
            INSERT INTO app_links (app_id, domain_id, platform, service, judged_state, judged_check_id, judged_digest)
            VALUES ($1, $2, 'apple', 'applinks', 'passing', NULL, 17), ($1, $2, 'android', 'applinks', 'failing', NULL, 18)
            """, appID, domainID)
        try db.execute("INSERT INTO app_watched_urls (app_id, domain_id, url, position) VALUES ($1, $2, 'https://shop.example/p/', 0)",
                       appID, domainID)

        #expect(try Migrator(migrations: all).migrate(testDatabase.configuration).map(\.version) == [65])

        #expect(try db.appWatchedURLs(appID: appID) == [AppWatchedURLRecord(url: "https://shop.example/p/", domainID: domainID, platforms: .both)])
        let placed = try db.appPlacedExpectations().compactMap { row -> String? in
            if case .watchedURL(let e) = row.kind { e.url } else { nil }
        }
        #expect(placed == ["https://shop.example/p/"], "still Apple's expectation too")
        #expect(try db.androidExpectations(domainIDs: [domainID]).first?.watchedURLs == ["https://shop.example/p/"], "and Android's")
        #expect(try db.value("SELECT count(*)::int FROM app_links WHERE judged_state IS NOT NULL OR judged_digest IS NOT NULL") == 0,
                "judged again by the next reader")
        // Every writer states the platforms: a row without them is refused, not defaulted.
        #expect(throws: (any Error).self) {
            try db.execute("INSERT INTO app_watched_urls (app_id, domain_id, url, position) VALUES ($1, $2, 'https://shop.example/q/', 1)",
                           appID, domainID)
        }
        #expect(throws: (any Error).self) {
            try db.execute("INSERT INTO app_watched_urls (app_id, domain_id, url, position, platforms) VALUES ($1, $2, 'https://shop.example/r/', 2, 'ios')",
                           appID, domainID)
        }
    }
}
