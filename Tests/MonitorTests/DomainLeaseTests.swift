import Vocabulary
import Foundation
@testable import Store
import Testing
import TestSupport
@testable import Monitor

/// The claim statement and the idempotent result write, against a real PostgreSQL.
@Suite struct DomainLeaseTests {
    func register(_ database: Database, _ count: Int) throws {
        for index in 0..<count {
            _ = try database.importDomain(host: "d\(index).example", displayName: "d\(index).example", wildcard: false, appIDs: [])
        }
    }

    func record(for domain: LeasedDomain) -> CheckRecord {
        CheckRecord(domainID: domain.id, attemptKey: domain.attemptKey, startedAt: Date(), finishedAt: Date(),
                    verdict: .pass, version: StoredBody(.apple, sha256: String(repeating: "a", count: 64), bytes: [1, 2, 3]),
                    changed: true, latencyMilliseconds: 12, findings: [], transport: CheckTransport(),
                    expectations: ExpectationResults(), summaryJSON: "{}", eventsJSON: "[]", consecutiveFailures: 0,
                    nextCheckAt: Date().addingTimeInterval(3600), streaks: nil, alertChanges: [])
    }

    @Test func concurrentClaimsNeverShareADomain() async throws {
        try await TestPostgres.withDatabase(poolSize: 8) { database in
            try register(database, 200)
            let batches = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        var mine: [Int64] = []
                        while true {
                            let batch = try database.leaseDueDomains(limit: 7, lease: .seconds(60), worker: "w\(worker)")
                            if batch.isEmpty { return mine }
                            mine += batch.map(\.id)
                        }
                    }
                }
                return try await group.reduce(into: [[Int64]]()) { $0.append($1) }
            }
            let all = batches.flatMap { $0 }
            #expect(all.count == 200)
            #expect(Set(all).count == 200)
        }
    }

    /// A row whose host does not read back (written past the registration's rules) is set apart: the
    /// claim still leases the others, where it used to fail, and roll back, every claim while the row
    /// was due. Deferred one interval, it does not come back with the next claim.
    @Test func anUnreadableRowDoesNotFailTheClaim() throws {
        try TestPostgres.withDatabase { database in
            try register(database, 3)
            try database.execute("INSERT INTO domains (host, display_name) VALUES ('a..example', 'a..example')")
            let claim = try database.claimDueDomains(limit: 10, lease: .seconds(60), worker: "w")
            #expect(claim.leased.map(\.host.ascii).sorted() == ["d0.example", "d1.example", "d2.example"])
            let bad = try #require(claim.unreadable.first)
            #expect(claim.unreadable.count == 1 && bad.reason.contains("domains.host"), "\(claim.unreadable)")
            try database.deferUnreadable([bad.id])
            try database.execute("UPDATE domains SET lease_until = NULL, next_check_at = now() - interval '1 minute' WHERE id <> $1", bad.id)
            let next = try database.claimDueDomains(limit: 10, lease: .seconds(60), worker: "w")
            #expect(next.unreadable.isEmpty && next.leased.count == 3)
        }
    }

    @Test func checkNowJumpsTheQueue() throws {
        try TestPostgres.withDatabase { database in
            try register(database, 5)
            try database.execute("UPDATE domains SET next_check_at = now() + interval '1 hour'")
            try database.execute("UPDATE domains SET next_check_at = now() - interval '1 minute' WHERE host = 'd1.example'")
            #expect(try database.requestCheckNow(hosts: ["d3.example", "nope.example"]).map(\.host) == ["d3.example"])
            let first = try database.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "w")
            #expect(first.map(\.host.ascii) == ["d3.example"])
            let second = try database.leaseDueDomains(limit: 5, lease: .seconds(60), worker: "w")
            #expect(second.map(\.host.ascii) == ["d1.example"])
        }
    }

    @Test func anExpiredLeaseMakesTheDomainDueAgainAndTheLateResultIsDropped() async throws {
        try await TestPostgres.withDatabase { database in
            try register(database, 1)
            let lease = Duration.seconds(1)
            let beforeLease = ContinuousClock.now
            let first = try database.leaseDueDomains(limit: 1, lease: lease, worker: "slow")
            #expect(first.count == 1)
            let late = try #require(first.first)
            let stillHeld = try database.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "other")
            // Only meaningful while the lease can still hold: on a machine so slow that a whole lease
            // passed between the two claims, the second one may rightly take the domain.
            if ContinuousClock.now - beforeLease < lease {
                #expect(stillHeld.isEmpty, "a held lease was claimed again")
            }
            // Poll until the lease has expired (no fixed sleep): another worker then gets the domain.
            var second = stillHeld
            let deadline = Date().addingTimeInterval(60)
            while second.isEmpty, Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
                second = try database.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "other")
            }
            #expect(second.map(\.id) == first.map(\.id))
            let current = try #require(second.first, "the expired lease was never claimed again")
            #expect(current.attemptKey != late.attemptKey)

            #expect(try database.record(record(for: late)) == .superseded)
            guard case .recorded = try database.record(record(for: current)) else {
                Issue.record("the current lease's result was not recorded")
                return
            }
            // Written twice after a crash: counts once.
            #expect(try database.record(record(for: current)) == .superseded)
            #expect(try count(database, "SELECT count(*)::int FROM checks") == 1)
            #expect(try count(database, "SELECT count(*)::int FROM association_versions") == 1)
        }
    }

    /// Unchanged checks go in batches, one statement each: a stale lease's repeat writes nothing,
    /// a repeat written twice counts once, and the others in the same batch are not held back.
    @Test func batchedRepeatsAreIdempotentAndSkipStaleLeases() throws {
        try TestPostgres.withDatabase { database in
            try register(database, 4)
            let sha = String(repeating: "b", count: 64)
            try database.execute("INSERT INTO association_versions (platform, sha256, body, size, last_seen_at) VALUES ('apple', $1, '\\x01', 1, now() - interval '2 hours')", sha)
            let leased = try database.leaseDueDomains(limit: 4, lease: .seconds(60), worker: "w")
            #expect(leased.count == 4)
            let next = Date().addingTimeInterval(3600)
            func repeated(_ domain: LeasedDomain, key: String? = nil) -> RepeatRecord {
                RepeatRecord(domainID: domain.id, attemptKey: key ?? domain.attemptKey, finishedAt: Date(), verdict: .warn,
                             states: PlatformStates(apple: .warn), latencyMilliseconds: 7, consecutiveFailures: 0, nextCheckAt: next, versions: [VersionKey(.apple, sha256: sha)])
            }
            let batch = [repeated(leased[0]), repeated(leased[1]), repeated(leased[2], key: "stale"), repeated(leased[0])]
            #expect(try database.recordRepeats(batch) == [leased[0].id, leased[1].id])
            // Written again after a crash: nothing more.
            #expect(try database.recordRepeats(batch).isEmpty)
            #expect(try count(database, "SELECT count(*)::int FROM check_repeats") == 2)
            #expect(try count(database, "SELECT count(*)::int FROM domains WHERE last_verdict = 'warn' AND lease_attempt_key IS NULL AND check_round = 1") == 2)
            #expect(try count(database, "SELECT count(*)::int FROM domains WHERE lease_attempt_key IS NOT NULL") == 2)
            #expect(try count(database, "SELECT count(*)::int FROM association_versions WHERE last_seen_at > now() - interval '1 minute'") == 1)
            // Each written repeat counts once in /metrics (verdict, latency histogram) and the sparkline.
            let metrics = try database.monitorMetrics()
            #expect(metrics.checksByVerdict["warn"] == 2 && metrics.latencyCount == 2 && metrics.latencySum == 14, "\(metrics)")
            #expect(metrics.latencyBuckets.first?.le == 50 && metrics.latencyBuckets.first?.count == 2, "\(metrics)")
            #expect(try count(database, "SELECT count(*)::int FROM domain_stats WHERE recent_latencies[1:2] = '{7,-2}'") == 2)
        }
    }

    /// The pipeline's writer: many repeats at once from many tasks all arrive, each told its own outcome.
    @Test func theRepeatWriterGroupsConcurrentRepeats() async throws {
        try await TestPostgres.withDatabase { database in
            try register(database, 60)
            let leased = try database.leaseDueDomains(limit: 60, lease: .seconds(60), worker: "w")
            let writer = RepeatWriter(database: database, maxBatch: 16)
            let outcomes = try await withThrowingTaskGroup(of: (Int64, Bool).self) { group in
                for (index, domain) in leased.enumerated() {
                    group.addTask {
                        let key = index % 10 == 0 ? "stale" : domain.attemptKey
                        return (domain.id, try await writer.write(RepeatRecord(
                            domainID: domain.id, attemptKey: key, finishedAt: Date(), verdict: .pass, states: PlatformStates(apple: .pass), latencyMilliseconds: 3,
                            consecutiveFailures: 0, nextCheckAt: Date().addingTimeInterval(60), versions: [])))
                    }
                }
                return try await group.reduce(into: [Int64: Bool]()) { $0[$1.0] = $1.1 }
            }
            #expect(outcomes.count == 60)
            #expect(outcomes.values.filter { $0 }.count == 54)
            #expect(try count(database, "SELECT count(*)::int FROM check_repeats") == 54)
        }
    }

    /// With the database away, every waiting repeat gets the connection error (the pipeline keeps
    /// the result and tries again), and the writer is not left stuck for the next ones.
    @Test func theRepeatWriterFailsEachWaiterWhenTheDatabaseIsAway() async throws {
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-postgres-\(UUID().uuidString)").path
        let database = Database(configuration: ConnectionConfiguration(socketDirectory: nowhere, user: "x", database: "x"), poolSize: 1)
        defer { database.close() }
        let writer = RepeatWriter(database: database, maxBatch: 4)
        for _ in 0..<2 {
            let failures = await withTaskGroup(of: Bool.self) { group in
                for id in 1...10 {
                    group.addTask {
                        do {
                            _ = try await writer.write(RepeatRecord(domainID: Int64(id), attemptKey: "k", finishedAt: Date(),
                                                                    verdict: .pass, states: PlatformStates(apple: .pass),
                                                                    latencyMilliseconds: 1, consecutiveFailures: 0,
                                                                    nextCheckAt: Date(), versions: []))
                            return false
                        } catch let error as DatabaseError {
                            return error.isConnectionProblem
                        } catch {
                            return false
                        }
                    }
                }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(failures == 10)
        }
    }

    @Test func retentionFoldsOldRepeatsIntoRollups() throws {
        try TestPostgres.withDatabase { database in
            try register(database, 1)
            try database.execute("""
                INSERT INTO check_repeats (domain_id, checked_at, latency_ms)
                SELECT (SELECT id FROM domains), now() - interval '20 days' + g * interval '1 hour', g FROM generate_series(1, 48) g
                """)
            try database.execute("INSERT INTO check_repeats (domain_id, checked_at, latency_ms) SELECT id, now(), 5 FROM domains")
            #expect(try database.rollUpRepeats(olderThan: .seconds(7 * 86_400)) == 48)
            #expect(try count(database, "SELECT count(*)::int FROM check_repeats") == 1)
            #expect(try count(database, "SELECT sum(check_count)::int FROM check_rollups") == 48)
            #expect(try count(database, "SELECT max(latency_max_ms) FROM check_rollups") == 48)
            #expect(try database.rollUpRepeats(olderThan: .seconds(7 * 86_400)) == 0)
        }
    }

    /// The scheduler's retention job rolls up whole days past the retention age, then packs every
    /// day before today into one row per domain and day (0056); today's repeats stay rows.
    @Test func theRetentionJobRollsUpOldDaysAndPacksTheWeekBeforeToday() throws {
        try TestPostgres.withDatabase { database in
            try register(database, 2)
            // Noon of a fixed day, so no hour of the test lands on either side of a midnight by chance.
            let now = Date(timeIntervalSince1970: 1_800_000_000 - 1_800_000_000.truncatingRemainder(dividingBy: 86_400) + 12 * 3600)
            try database.execute("""
                INSERT INTO check_repeats (domain_id, checked_at, latency_ms)
                SELECT d.id, $1::timestamptz - g * interval '1 hour', g FROM domains d, generate_series(1, 10 * 24) g
                """, now)
            try DomainScheduler.retain(database, now: now, age: .seconds(7 * 86_400))
            // Before the midnight that began the day 7 days ago: 12 h + 7 × 24 h past, folded.
            #expect(try count(database, "SELECT sum(check_count)::int FROM check_rollups") == 2 * (10 * 24 - 12 - 7 * 24))
            // Today's 12 (00:00 … 11:00) stay rows; the 7 days before today are 7 rows of 24 per domain.
            #expect(try count(database, "SELECT count(*)::int FROM check_repeats") == 2 * 12)
            #expect(try count(database, "SELECT count(*)::int FROM check_repeat_days") == 2 * 7)
            #expect(try count(database, "SELECT min(cardinality(checked_at))::int FROM check_repeat_days") == 24)
            #expect(try count(database, "SELECT max(cardinality(checked_at))::int FROM check_repeat_days") == 24)
            // An hour later nothing more is due.
            try DomainScheduler.retain(database, now: now.addingTimeInterval(3600), age: .seconds(7 * 86_400))
            #expect(try count(database, "SELECT count(*)::int FROM check_repeat_days") == 2 * 7)
            #expect(try count(database, "SELECT count(*)::int FROM check_repeats") == 2 * 12)
        }
    }

    /// Retention runs hourly: repeats of one day rolled up by several runs end in ONE row per domain,
    /// day and repeated check, or hourly checks would keep a roll-up row each.
    @Test func laterRollUpsOfTheSameDayMergeIntoItsRow() throws {
        try TestPostgres.withDatabase { database in
            try register(database, 1)
            let domainID: Int64 = try database.value("SELECT id FROM domains")
            let day = Date(timeIntervalSince1970: 1_800_000_000 - 1_800_000_000.truncatingRemainder(dividingBy: 86_400))
            _ = try database.insertCheck(NewCheckRow(domainID: domainID, startedAt: day, finishedAt: day, verdict: .pass,
                                                     originBody: [1], latencyMilliseconds: 1, changed: true))
            func repeatAt(hour: Int, latency: Int) throws {
                try database.execute("INSERT INTO check_repeats (domain_id, checked_at, latency_ms) VALUES ($1, $2, $3)",
                                     domainID, day.addingTimeInterval(Double(hour) * 3600 + 60), latency)
            }
            for hour in 0..<3 { try repeatAt(hour: hour, latency: 10 + hour) }
            #expect(try database.rollUpRepeats(olderThan: .zero, now: day.addingTimeInterval(3 * 3600)) == 3)
            for hour in 3..<5 { try repeatAt(hour: hour, latency: 100 * hour) }
            #expect(try database.rollUpRepeats(olderThan: .zero, now: day.addingTimeInterval(5 * 3600)) == 2)
            try repeatAt(hour: 25, latency: 1)   // the next day: a row of its own
            #expect(try database.rollUpRepeats(olderThan: .zero, now: day.addingTimeInterval(26 * 3600)) == 1)

            let rows = try database.rows("""
                SELECT check_count, latency_min_ms, latency_max_ms, latency_sum_ms::int, repeated_check_id IS NOT NULL,
                       extract(epoch FROM last_check_at - first_check_at)::int
                FROM check_rollups ORDER BY day
                """)
            #expect(rows.count == 2)
            #expect(try rows.first.map { [try $0.decode(0, as: Int.self), try $0.decode(1), try $0.decode(2), try $0.decode(3)] }
                    == [5, 10, 400, 10 + 11 + 12 + 300 + 400])
            #expect(try rows.first?.decode(4, as: Bool.self) == true)
            #expect(try rows.first?.decode(5, as: Int.self) == 4 * 3600)
            #expect(try rows.last?.decode(0, as: Int.self) == 1)
        }
    }
}
