import Foundation
@testable import Store
import Testing
import TestSupport
import Vocabulary
@testable import Monitor

/// One definition of a platform's state (migrations 0061, 0062): `DomainVerdict`'s `apple` / `android`,
/// stored on the domain row. 0061 fills the rows 0060 left without them (from before it, batched
/// repeats, `insertCheck`) with the same rule in SQL over the stored check; these hold that SQL to the
/// Swift computation, and /metrics' per-platform gauges to what the overview shows, on a database
/// written at 0060 and then migrated.
@Suite struct PlatformStateMigrationTests {
    static let app = "ABCDE12345.com.example.app"
    static let package = "com.example.app"

    /// A check as the pipeline summarises it, and how the row should have been left at 0060.
    struct Case {
        var host: String
        var platforms: WatchedPlatforms = .both
        var summary: CheckSummary
        /// A re-measure after an edit (before 0060 it wrote the verdict and the expectations, not the states).
        var remeasured: ExpectationResults?
        /// The verdict an older rule stored (before each platform counted its own expectations).
        var olderVerdict: Verdict?
    }

    static func apple(_ verdict: Verdict, missing: [Service: [String]] = [:], watched: [WatchedURLResult] = []) -> AppleResult {
        AppleResult(verdict: verdict, originReachable: true, versionSHA256: String(repeating: "a", count: 64), documentParsed: true,
                    expectations: ExpectationResults(missingAppIDs: missing, watchedURLs: watched))
    }

    static func android(_ verdict: Verdict, serves: Bool, expectsApp: Bool = false, unmetURL: Bool = false) -> AndroidResult {
        let identities = expectsApp ? [AndroidIdentityResult(packageName: package, expectedFingerprints: ["AA:BB"], named: false,
                                                             grantedFingerprints: [])] : []
        let urls = [AndroidWatchedURLResult(url: "https://x.example/a", expected: .opensApp(package),
                                            actual: unmetURL ? .staysInBrowser : .opensApp(package),
                                            beforeDynamicRules: .opensApp(package), reason: "rule")]
        return AndroidResult(verdict: verdict, serves: serves, findings: verdict == .fail
                                ? [Finding(code: "expected-package-missing", severity: .error, message: "Missing.")] : [],
                             identities: identities, watchedURLs: urls)
    }

    static func summary(apple: AppleResult?, android: AndroidResult? = nil) -> CheckSummary {
        CheckSummary(checkedAt: Date(), reachable: true, apple: apple, android: android)
    }

    static var cases: [Case] {
        let unmetURL = WatchedURLResult(url: "https://x.example/b", expected: .opensApp(app), actual: .staysInBrowser)
        let metURL = WatchedURLResult(url: "https://x.example/c", expected: .staysInBrowser, actual: .staysInBrowser)
        return [
            // Apple's file passes, an app ID is missing: Apple fails, as on the overview.
            Case(host: "missing-app.example", summary: summary(apple: apple(.pass, missing: [.applinks: [app]]))),
            Case(host: "unmet-url.example", summary: summary(apple: apple(.warn, watched: [metURL, unmetURL]))),
            Case(host: "met-url.example", summary: summary(apple: apple(.warn, watched: [metURL]))),
            Case(host: "broken-file.example", summary: summary(apple: apple(.fail, missing: [.webcredentials: [app]]))),
            Case(host: "apple-only.example", platforms: .apple, summary: summary(apple: apple(.pass))),
            // Android's file passes, a URL watched on Android stays in the browser: Android fails.
            Case(host: "android-url.example", summary: summary(apple: apple(.pass), android: android(.pass, serves: true, unmetURL: true))),
            Case(host: "android-warn.example", summary: summary(apple: apple(.pass), android: android(.warn, serves: true))),
            // No assetlinks.json and no app expected: Android does not count for a domain watched for both…
            Case(host: "android-none.example", summary: summary(apple: apple(.warn), android: android(.fail, serves: false))),
            // …unless an app is expected of it.
            Case(host: "android-app.example", summary: summary(apple: apple(.pass), android: android(.fail, serves: false, expectsApp: true))),
            // A file that fails is Android's verdict, whatever its watched URLs do.
            Case(host: "android-broken.example", summary: summary(apple: apple(.pass), android: android(.fail, serves: true, unmetURL: true))),
            // Watched for Android only: Android's verdict decides even without a file.
            Case(host: "android-only.example", platforms: .android, summary: summary(apple: nil, android: android(.fail, serves: false))),
            Case(host: "android-only-url.example", platforms: .android,
                 summary: summary(apple: nil, android: android(.pass, serves: true, unmetURL: true))),
            // An app ID added after the check, re-measured against the stored file.
            Case(host: "remeasured.example", summary: summary(apple: apple(.pass)),
                 remeasured: ExpectationResults(missingAppIDs: [.applinks: [app]])),
            // Judged by an older rule that let Android's watched URLs pass.
            Case(host: "older-rule.example", summary: summary(apple: apple(.pass), android: android(.pass, serves: true, unmetURL: true)),
                 olderVerdict: .pass),
        ]
    }

    /// What `DomainVerdict` says of the row: the check's, or the re-measure's, judgement.
    static func expected(_ c: Case) -> DomainVerdict {
        guard let remeasured = c.remeasured, let apple = c.summary.apple else { return DomainVerdict(c.summary) }
        return DomainVerdict(fileVerdict: apple.verdict, findings: apple.findings, expectations: remeasured, android: c.summary.android)
    }

    /// The check written as the pipeline writes it (`record`, with DomainVerdict's verdict and states),
    /// then left as 0060 left a row from before it: no states.
    static func write(_ db: Database, _ c: Case) throws -> Int64 {
        guard case .created(let id) = try db.createDomain(DomainDraft(host: c.host, displayName: c.host, wildcard: false, intervalSeconds: 3600,
            badgeEnabled: false, appIDs: [], watchedURLs: [], platforms: c.platforms), requestFirstCheck: false) else {
            throw CheckError.notRecorded
        }
        try db.execute("UPDATE domains SET next_check_at = CASE WHEN id = $1 THEN now() - interval '1 second' ELSE now() + interval '1 day' END", id)
        let lease = try #require(try db.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "state-test").first { $0.id == id })
        let s = c.summary, judged = DomainVerdict(s)
        var record = CheckRecord(
            domainID: id, attemptKey: lease.attemptKey, startedAt: s.checkedAt, finishedAt: s.checkedAt, verdict: s.verdict,
            version: nil, changed: true, latencyMilliseconds: 10, findings: s.apple?.findings ?? [], transport: CheckTransport(),
            expectations: s.apple?.expectations ?? ExpectationResults(), summaryJSON: "{}", eventsJSON: "[]", consecutiveFailures: 0,
            nextCheckAt: s.checkedAt.addingTimeInterval(3600), streaks: nil, alertChanges: [])
        record.domainVerdict = judged.verdict
        record.reason = judged.reason
        record.platformStates = judged.platformStates
        record.domainExpectations = s.apple?.expectations
        record.android = s.android
        guard case .recorded = try db.record(record) else { throw CheckError.notRecorded }
        if let remeasured = c.remeasured {
            let again = expected(c)
            let check: Int64 = try db.value("SELECT last_check_id FROM domains WHERE id = $1", id)
            try db.setDomainState(domainID: id, verdict: again.verdict, reason: again.reason, expectations: remeasured, basedOnCheck: check)
        }
        try db.execute("UPDATE domains SET last_apple_state = NULL, last_android_state = NULL, last_verdict = coalesce($2, last_verdict) WHERE id = $1",
                       id, c.olderVerdict)
        return id
    }
    enum CheckError: Error { case notRecorded }

    @Test func theMigrationWritesWhatDomainVerdictSaysAndMetricsCountWhatTheOverviewShows() throws {
        let testDatabase = try TestPostgres.createDatabase(migrated: false)
        defer { testDatabase.drop() }
        let all = try MigrationDirectory.load(try TestPostgres.migrationsDirectory())
        // Up to 0060, plus what today's registration, lease and record, which write the rows below, need
        // of the domains table that came later (0066's first-check queue, 0069's reason platform; the
        // migrator applies the rest after).
        try Migrator(migrations: all.filter { $0.version < 61 || $0.version == 66 || $0.version == 69 }).migrate(testDatabase.configuration)
        let db = Database(configuration: testDatabase.configuration, poolSize: 2)
        defer { db.close() }
        let cases = Self.cases
        var ids: [Int64] = []
        for c in cases { ids.append(try Self.write(db, c)) }
        let never = try #require({ () throws -> Int64? in
            guard case .created(let id) = try db.createDomain(DomainDraft(host: "never.example", displayName: "never.example", wildcard: false,
                intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: []), requestFirstCheck: false) else { return nil }
            return id
        }())
        // As 0060 left them: every reader fell back to the file verdicts, so /metrics counted the file.
        #expect(try db.value("SELECT count(*)::int FROM domains WHERE last_apple_state IS NOT NULL OR last_android_state IS NOT NULL") == 0)

        #expect(try Migrator(migrations: all.filter { $0.version <= 62 }).migrate(testDatabase.configuration).map(\.version) == [61, 62])
        _ = try Migrator(migrations: all).migrate(testDatabase.configuration)   // the later ones, as a deploy runs them

        for (c, id) in zip(cases, ids) {
            let want = Self.expected(c)
            let row = try #require(try db.firstRow("""
                SELECT last_apple_state, last_android_state, last_verdict, check_requested_at IS NOT NULL AS requested FROM domains WHERE id = $1
                """, id))
            #expect(try row.decode("last_apple_state", as: Verdict?.self) == want.apple, "\(c.host) Apple")
            #expect(try row.decode("last_android_state", as: Verdict?.self) == want.android, "\(c.host) Android")
            #expect(try row.decode("last_verdict", as: Verdict?.self) == want.verdict, "\(c.host) verdict")
            // Only the row an older rule judged is checked again, to write its reason through the pipeline.
            #expect(try row.decode("requested", as: Bool.self) == (c.olderVerdict != nil && c.olderVerdict != want.verdict), "\(c.host)")
        }
        #expect(try db.platformVerdicts(domainID: never) == (nil, nil))
        try Self.expectMetricsCountWhatTheOverviewShows(db)

        // The domains whose file passes and whose expectation is unmet fail on both surfaces.
        let overview = try db.overview(OverviewFilter(sort: .host, pageSize: 100))
        let shown = Dictionary(uniqueKeysWithValues: overview.items.map { ($0.host, ($0.appleVerdict, $0.androidVerdict)) })
        #expect(shown["missing-app.example"]?.0 == .fail && shown["remeasured.example"]?.0 == .fail)
        #expect(shown["android-url.example"]?.1 == .fail && shown["android-only-url.example"]?.1 == .fail)
        let m = try db.monitorMetrics()
        #expect(m.unmetExpectations == 6)   // missing-app, unmet-url, android-url, android-only-url, remeasured, older-rule

        // The states make the verdict from now on: a writer that forgets them is refused.
        #expect(throws: DatabaseError.self) {
            try db.execute("UPDATE domains SET last_apple_state = NULL WHERE host = 'missing-app.example'")
        }
    }

    /// For each platform and state, /metrics' `aasa_platform_domains` (from `domain_counts`) equals the
    /// domains the overview lists under that platform's filter with that platform's column.
    static func expectMetricsCountWhatTheOverviewShows(_ db: Database) throws {
        let m = try db.monitorMetrics()
        for platform in Platform.allCases {
            let listed = try db.overview(OverviewFilter(platform: platform, sort: .host, pageSize: 1000)).items
            var shown: [Verdict: Int] = [:]
            for item in listed {
                if let v = platform == .apple ? item.appleVerdict : item.androidVerdict { shown[v, default: 0] += 1 }
            }
            #expect(m.domainsByPlatform[platform] ?? [:] == shown, "\(platform)")
            // The failing codes count over the domains failing there.
            let failing = shown[.fail] ?? 0
            #expect(m.failingByCode[platform]?.values.allSatisfy { $0 <= failing } ?? true, "\(platform)")
        }
    }

    /// After 0061 every writer writes the states: the batched repeats keep them, a re-measure moves them,
    /// and /metrics follows the overview through each.
    @Test func everyWriterKeepsTheStatesAndMetricsFollow() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let c = Case(host: "missing-app.example", summary: Self.summary(apple: Self.apple(.pass, missing: [.applinks: [Self.app]])))
            guard case .created(let id) = try db.createDomain(DomainDraft(host: c.host, displayName: c.host, wildcard: false, intervalSeconds: 3600,
                badgeEnabled: false, appIDs: [], watchedURLs: []), requestFirstCheck: false) else { Issue.record("not created"); return }
            try db.execute("UPDATE domains SET next_check_at = now() - interval '1 second' WHERE id = $1", id)
            let lease = try #require(try db.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "state-test").first)
            let judged = DomainVerdict(c.summary)
            var record = CheckRecord(
                domainID: id, attemptKey: lease.attemptKey, startedAt: Date(), finishedAt: Date(), verdict: .pass, version: nil, changed: true,
                latencyMilliseconds: 10, findings: [], transport: CheckTransport(), expectations: c.summary.apple?.expectations ?? ExpectationResults(),
                summaryJSON: "{}", eventsJSON: "[]", consecutiveFailures: 0, nextCheckAt: Date().addingTimeInterval(3600), streaks: nil,
                alertChanges: [])
            (record.domainVerdict, record.platformStates) = (judged.verdict, judged.platformStates)
            guard case .recorded = try db.record(record) else { Issue.record("not recorded"); return }
            try Self.expectMetricsCountWhatTheOverviewShows(db)
            #expect(try db.monitorMetrics().domainsByPlatform[.apple] == [.fail: 1])

            // A batched repeat of a passing domain writes its states (0060's cleared them).
            let passing = CheckRecord(domainID: id, attemptKey: "", startedAt: Date(), finishedAt: Date(), verdict: .pass, version: nil, changed: false,
                                      latencyMilliseconds: 10, findings: [], transport: CheckTransport(), expectations: ExpectationResults(),
                                      summaryJSON: "", eventsJSON: "", consecutiveFailures: 0, nextCheckAt: Date(), streaks: nil, alertChanges: [])
            var fixed = passing
            fixed.domainVerdict = .pass
            fixed.platformStates = PlatformStates(apple: .pass)
            let repeated = try #require(fixed.plainRepeat)
            #expect(repeated.states == PlatformStates(apple: .pass))
            try db.execute("UPDATE domains SET next_check_at = now() - interval '1 second' WHERE id = $1", id)
            let again = try #require(try db.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "state-test").first)
            var batch = repeated
            batch.attemptKey = again.attemptKey
            #expect(try db.recordRepeats([batch]) == [id])
            #expect(try db.platformVerdicts(domainID: id) == (.pass, nil))
            try Self.expectMetricsCountWhatTheOverviewShows(db)
            #expect(try db.monitorMetrics().domainsByPlatform[.apple] == [.pass: 1])

            // A re-measure (an app ID added) moves Apple's state and the gauge with it.
            let check: Int64 = try db.value("SELECT last_check_id FROM domains WHERE id = $1", id)
            #expect(try db.setDomainState(domainID: id, verdict: .fail, reason: DomainReason("App ID missing.", platform: .apple), platforms: PlatformStates(apple: .fail),
                                          expectations: ExpectationResults(missingAppIDs: [.applinks: [Self.app]]), basedOnCheck: check))
            try Self.expectMetricsCountWhatTheOverviewShows(db)
            #expect(try db.monitorMetrics().domainsByPlatform[.apple] == [.fail: 1])
            #expect(try db.monitorMetrics().unmetExpectations == 1)
        }
    }
}
