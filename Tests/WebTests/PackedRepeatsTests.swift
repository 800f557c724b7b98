import Testing
import Foundation
import Store
import TestSupport
@testable import Web

/// The retention job packs a domain's unchanged repeats of each day before today into one
/// `check_repeat_days` row (migration 0056, issue #17). Nothing a user sees may change: the domain
/// page's chart and timeline and the API's history read the packed days as they read the rows, and
/// the roll-up folds both forms alike. Each history is written through the product's own path.
@Suite(.serialized) struct PackedRepeatsTests {
    /// The midnight that started the current UTC day: the retention job packs everything before it.
    static func startOfToday(_ now: Date) -> Date {
        Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }

    /// A week of history: a change 6 days before today's midnight, 40 repeats 2 hours apart, a second
    /// change 2 days before it, 15 repeats 2 hours apart (all before midnight), and three repeats today (between today's midnight and now, whatever the hour).
    /// Times carry sub-second parts, so the readers' microseconds are compared too.
    static func recordWeek(_ history: RecordedHistory, now: Date) throws -> (past: Int, today: Int) {
        let today = startOfToday(now)
        let first = today.addingTimeInterval(-6 * 86_400 + 3_600.25)
        try history.check(at: first, latency: 90, changed: true, file: RecordedHistory.firstFile)
        var past = 0
        for step in 1...40 {
            try history.check(at: first.addingTimeInterval(Double(step) * 2 * 3_600 + 0.125), latency: 60 + step % 37, changed: false)
            past += 1
        }
        let second = today.addingTimeInterval(-2 * 86_400 + 1_800.5)
        try history.check(at: second, latency: 95, changed: true, verdict: .warn, file: RecordedHistory.secondFile)
        for step in 1...15 {
            try history.check(at: second.addingTimeInterval(Double(step) * 2 * 3_600 + 0.375), latency: 70 + step * 3, changed: false,
                              verdict: .warn, file: RecordedHistory.secondFile)
            past += 1
        }
        let sinceMidnight = now.timeIntervalSince(today)
        for fraction in [0.25, 0.5, 0.75] {
            try history.check(at: today.addingTimeInterval(sinceMidnight * fraction), latency: 80, changed: false, verdict: .warn,
                              file: RecordedHistory.secondFile)
        }
        return (past, 3)
    }

    /// Everything the readers of a domain's history answer: the chart's points, the timeline's
    /// unchanged runs, the domain page, and the API's history.
    struct Readings: Equatable {
        var chart: [String]
        var runs: [Int64: UnchangedRun]
        var page: String
        var api: String
    }

    /// A point with its exact time (a `Date`'s description stops at the second).
    static func describe(_ p: CheckPoint) -> String {
        "\(p.time.timeIntervalSince1970) \(String(describing: p.latencyMilliseconds)) \(String(describing: p.latencyMinMilliseconds)) "
            + "\(String(describing: p.latencyMaxMilliseconds)) \(p.checkCount) \(String(describing: p.certificateNotAfter))"
    }

    static func read(_ db: Database, _ domainID: Int64, now: Date) throws -> Readings {
        let chart = try db.chartPoints(domainID: domainID, since: now.addingTimeInterval(-365 * 86_400), limit: 400)
            .map(Self.describe)
        let runs = try db.unchangedRuns(domainID: domainID, limit: 50)
        let app = WebApp(database: db, configuration: TestApp.configuration)
        let client = WebClient(app: app)
        client.setUpAdmin()
        let page = client.get("/domains/\(domainID)").bodyText
        let token = SecretToken.generate(prefix: "aasa_")
        _ = try db.createAPIToken(name: "history-\(token.value.suffix(6))", tokenHash: token.digest, userID: nil, role: .admin)
        let api = app.respond(WebRequest(method: "GET", target: "/api/v1/domains/\(domainID)/checks",
                                         headers: [("Authorization", "Bearer " + token.value)]))
        #expect(api.status == 200)
        return Readings(chart: chart, runs: runs, page: Self.history(of: page), api: api.bodyText)
    }

    /// The domain page from its response-time chart to its end: the charts, the timeline and the
    /// versions (the head holds per-request tokens).
    static func history(of page: String) -> String {
        guard let start = page.range(of: "aria-label=\"Response time\"") else { return "" }
        return String(page[start.lowerBound...])
    }

    /// The repeats a database holds when 0056 runs (written by the write path as it was before it,
    /// every repeat a check_repeats row) read back through every reader exactly as the same history
    /// does where it was never packed.
    @Test func migrationPacksStoredRepeatsAndEveryReaderShowsTheSame() throws {
        let now = Date()
        // The same history where it stays rows: a database migrated to the end, no retention job run.
        let unpacked = try TestPostgres.createDatabase()
        defer { unpacked.drop() }
        let plain = Database(configuration: unpacked.configuration, poolSize: 2)
        defer { plain.close() }
        let plainHistory = try RecordedHistory(db: plain, host: "packed.example")
        let (past, today) = try Self.recordWeek(plainHistory, now: now)
        #expect(try plain.value("SELECT count(*) FROM check_repeats") as Int == past + today)
        let before = try Self.read(plain, plainHistory.domainID, now: now)
        #expect(before.runs.values.map(\.count).sorted() == [15 + today, 40])
        #expect(before.chart.count == past + today + 2)
        #expect(before.page.contains("unchanged × 40,"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(before.api.utf8)) as? [String: Any])
        let checks = try #require(json["checks"] as? [[String: Any]])
        #expect(checks.map { ($0["unchanged_after"] as? [String: Any])?["count"] as? Int } == [15 + today, 40])

        // A database without 0056 when the history was written, then migrated.
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        let all = try MigrationDirectory.load(try TestPostgres.migrationsDirectory())
        // Every migration but 0056: the history is recorded by today's write path, which writes the
        // columns later migrations add (0060's platform states); none of them reads the packed days.
        _ = try Migrator(migrations: all.filter { $0.version != 56 }).migrate(database.configuration)
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        let history = try RecordedHistory(db: db, host: "packed.example")
        _ = try Self.recordWeek(history, now: now)
        #expect(try db.value("SELECT count(*) FROM check_repeats") as Int == past + today)
        #expect(try Migrator(migrations: all).migrate(database.configuration).map(\.version) == [56])
        // Today's repeats stay rows; each earlier day is one row.
        #expect(try db.value("SELECT count(*) FROM check_repeats") as Int == today)
        #expect(try db.value("SELECT coalesce(sum(cardinality(checked_at)), 0)::int FROM check_repeat_days") as Int == past)
        let days: Int = try db.value("""
            SELECT count(DISTINCT (checked_at AT TIME ZONE 'UTC')::date)::int FROM (
              SELECT unnest(checked_at) AS checked_at FROM check_repeat_days) e
            """)
        #expect(try db.value("SELECT count(*) FROM check_repeat_days") as Int == days)
        #expect(days >= 5)

        let after = try Self.read(db, history.domainID, now: now)
        #expect(history.domainID == plainHistory.domainID)
        #expect(after.chart == before.chart)
        #expect(after.runs == before.runs)
        #expect(after.page == before.page)
        #expect(after.api == before.api)
    }

    /// What a domain's history reads as, whatever the ids of its rows.
    static func shape(_ db: Database, _ domainID: Int64, now: Date) throws -> [String] {
        let chart = try db.chartPoints(domainID: domainID, since: now.addingTimeInterval(-365 * 86_400), limit: 400)
            .map(Self.describe)
        let runs = try db.unchangedRuns(domainID: domainID, limit: 50).values.map { "\($0)" }.sorted()
        let rollups: [String] = try db.rows("""
            SELECT day::text || ' ' || first_check_at::text || ' ' || last_check_at::text || ' ' || check_count || ' ' ||
                   latency_sum_ms || ' ' || latency_min_ms || ' ' || latency_max_ms || ' ' || latency_p95_ms AS r
            FROM check_rollups WHERE domain_id = $1 ORDER BY day, first_check_at
            """, domainID).map { try $0.decode("r") }
        return chart + runs + rollups
    }

    @Test func retentionFoldsPackedDaysAsItFoldsRows() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let now = Date()
            let midnight = Self.startOfToday(now)
            // Two domains with the same history: the first's repeats packed, the second's left as rows.
            let packed = try RecordedHistory(db: db, host: "packed.example")
            let (past, today) = try Self.recordWeek(packed, now: now)
            #expect(try db.packRepeats(before: midnight) == past)
            #expect(try db.packRepeats(before: midnight) == 0)
            let packedDays: Int = try db.value("SELECT count(*) FROM check_repeat_days")
            // A late repeat of a packed day (written after that day was packed) joins the day's row.
            let late = midnight.addingTimeInterval(-3 * 86_400 + 600.5)
            try db.execute("INSERT INTO check_repeats (domain_id, checked_at, latency_ms) VALUES ($1, $2, 77)", packed.domainID, late)
            #expect(try db.packRepeats(before: midnight) == 1)
            #expect(try db.value("SELECT count(*) FROM check_repeat_days") as Int == packedDays)
            #expect(try db.value("SELECT count(*) FROM check_repeats") as Int == today)

            // Out of the leases' way while the second domain is recorded.
            try db.execute("UPDATE domains SET paused = true WHERE id = $1", packed.domainID)
            let rows = try RecordedHistory(db: db, host: "rows.example")
            _ = try Self.recordWeek(rows, now: now)
            try db.execute("INSERT INTO check_repeats (domain_id, checked_at, latency_ms) VALUES ($1, $2, 77)", rows.domainID, late)
            #expect(try Self.shape(db, packed.domainID, now: now) == Self.shape(db, rows.domainID, now: now))

            // A cutoff inside a packed day (not its midnight) splits that day's row; one at a midnight
            // folds whole days. Each time both forms fold alike and read alike.
            for cutoff in [midnight.addingTimeInterval(-3 * 86_400 + 6 * 3_600 + 0.25), midnight.addingTimeInterval(-86_400)] {
                let due: Int = try db.value("SELECT count(*)::int FROM check_repeats WHERE domain_id = $1 AND checked_at < $2",
                                            rows.domainID, cutoff)
                #expect(due > 0)
                #expect(try db.rollUpRepeats(olderThan: .zero, now: cutoff) == 2 * due)
                #expect(try db.value("""
                    SELECT count(*)::int FROM check_repeat_days p, unnest(p.checked_at) t WHERE t < $1
                    """, cutoff) as Int == 0)
                #expect(try Self.shape(db, packed.domainID, now: now) == Self.shape(db, rows.domainID, now: now))
                if cutoff < midnight.addingTimeInterval(-2 * 86_400) {
                    // 06:00 of a packed day: its repeats at 01, 03 and 05 h and the late one went, the
                    // ones at 07 and 09 h stay in the day's row.
                    let kept: [Int] = try db.rows("""
                        SELECT cardinality(checked_at) AS n FROM check_repeat_days WHERE domain_id = $1 AND day = ($2::timestamptz AT TIME ZONE 'UTC')::date
                        """, packed.domainID, cutoff).map { try $0.decode("n") }
                    #expect(kept == [2])
                }
            }

            let left: Int = try db.value("SELECT count(*)::int FROM check_repeats WHERE domain_id = $1", rows.domainID)
            #expect(try db.value("SELECT coalesce(sum(cardinality(checked_at)), 0)::int FROM check_repeat_days") as Int == left - today)
        }
    }
}
