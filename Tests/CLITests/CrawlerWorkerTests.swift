import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// `aasa-monitor worker` processes against one real PostgreSQL and the TLS fleet.
@Suite(.serialized) struct CrawlerWorkerTests {
    /// Polls `condition` until it holds or `timeout` passes.
    func waitUntil(_ timeout: Duration, _ condition: () throws -> Bool) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }

    @Test func threeWorkersCheckEveryDomainExactlyOnceEvenWhenOneIsKilled() async throws {
        try await TestTLSFleet.with(workerProcesses: 2) { fleet in
            let testDatabase = try TestPostgres.createDatabase()
            defer { testDatabase.drop() }
            let database = Database(configuration: testDatabase.configuration, poolSize: 2)
            defer { database.close() }
            for index in 0..<500 {
                _ = try database.importDomain(host: "w\(index).fleet.test", displayName: "w\(index).fleet.test",
                                              wildcard: false, appIDs: [])
            }
            let workers = try (0..<3).map {
                try WorkerProcess(databaseURL: testDatabase.url, fleet: fleet, name: "worker\($0)", leaseSeconds: 5)
            }
            defer { workers.forEach { $0.stop() } }

            func checked() throws -> Int {
                try database.value("SELECT count(*)::int FROM domains WHERE last_checked_at IS NOT NULL")
            }
            // Kill one worker mid-crawl, while it holds leases.
            func heldByFirst() throws -> Int {
                try database.value("SELECT count(*)::int FROM domains WHERE leased_by = 'worker0' AND lease_until > now()")
            }
            #expect(try waitUntil(.seconds(120)) { try checked() >= 50 && heldByFirst() > 0 }, "\(workers[0].log)")
            workers[0].kill9()
            let allChecked = try waitUntil(.seconds(180)) { try checked() == 500 }
            let progress = try checked()
            #expect(allChecked, "checked \(progress) of 500; \(workers[1].log.suffix(2000))")

            // Exactly once: one full check row each (a first check is always a change), no repeats,
            // and every next check an interval away, so nothing is due twice.
            #expect(try database.value("SELECT count(*)::int FROM checks", as: Int.self) == 500)
            #expect(try database.value("SELECT count(DISTINCT domain_id)::int FROM checks", as: Int.self) == 500)
            #expect(try database.value("SELECT count(*)::int FROM check_repeats", as: Int.self) == 0)
            #expect(try database.value("SELECT count(*)::int FROM domains WHERE next_check_at < now() + interval '50 minutes'",
                                       as: Int.self) == 0)
            #expect(try database.value("SELECT count(*)::int FROM association_versions", as: Int.self) == 1)
            // The survivors did the work, including the killed worker's leased domains.
            let checkedBy: [String] = try database.rows("SELECT DISTINCT leased_by FROM domains WHERE leased_by IS NOT NULL")
                .map { try $0.decode(0) }
            #expect(checkedBy.isEmpty, "leases still held: \(checkedBy)")
        }
    }

    /// Several intervals, not just the first round: with three workers and every domain on a short
    /// (test-only) interval, each domain is checked once per interval window, never twice, never
    /// skipped. Synchronous: it blocks on processes and libpq, which must not hold the cooperative pool.
    @Test func threeWorkersCheckEachDomainOncePerIntervalOverSeveralIntervals() throws {
        // 120 domains at a 10 s interval ask 12 checks/s of the three workers: enough to share every batch
        // between them, and within what a loaded 2-core CI machine sustains (300, 30 checks/s, did not
        // always: a domain then waited ~2 intervals because the machine, not the scheduler, fell behind).
        let interval = 10.0, domains = 120, rounds = 4   // the first check, then three intervals
        try CrawlTestbed.with(workerProcesses: 2, hosts: (0..<domains).map { "i\($0).fleet.test" }) { testbed in
            let (fleet, database, databaseURL) = (testbed.fleet, testbed.database, testbed.testDatabase.url)
            let workers = try (0..<3).map {
                try WorkerProcess(databaseURL: databaseURL, fleet: fleet, name: "worker\($0)", leaseSeconds: 60,
                                  extraArguments: ["--test-interval-seconds", String(Int(interval))],
                                  environment: ["AASA_MONITOR_ALLOW_TEST_INTERVAL": "1"])
            }
            defer { workers.forEach { $0.stop() } }

            func slowest() throws -> Int { try database.value("SELECT min(check_round)::int FROM domains") }
            let done = try waitUntil(.seconds(150)) { try slowest() >= rounds }
            let reached = try slowest()
            #expect(done, "the slowest domain had \(reached) of \(rounds) checks; \(workers.map { $0.log.suffix(1500) })")
            workers.forEach { $0.stop() }   // SIGTERM: each finishes and records the checks it has in flight

            // Every recorded check: the full rows (changes) and the small repeat rows (unchanged checks).
            let rows = try database.rows("""
                SELECT domain_id, extract(epoch FROM finished_at)::float8 AS at FROM checks
                UNION ALL SELECT domain_id, extract(epoch FROM checked_at)::float8 FROM check_repeats
                ORDER BY 1, 2
                """)
            var times: [Int64: [Double]] = [:]
            for row in rows { times[try row.decode(0), default: []].append(try row.decode(1)) }
            let recordedRounds: [Int64: Int] = Dictionary(uniqueKeysWithValues: try database.rows(
                "SELECT id, check_round::int FROM domains").map { (try $0.decode(0), try $0.decode(1)) })
            #expect(times.count == domains, "domains with checks: \(times.count) of \(domains)")

            // The next check is scheduled an interval (± 10% jitter) after the previous one finished, so
            // two checks closer than 0.9 × interval would be one domain checked twice in a window; a gap
            // of nearly two intervals would be a window without its check.
            let never = interval * 0.9 - 0.001, missed = interval * 1.9
            var twice: [String] = [], skipped: [String] = [], miscounted: [String] = []
            for (id, list) in times {
                if list.count != recordedRounds[id] { miscounted.append("\(id): \(list.count) rows, round \(recordedRounds[id] ?? -1)") }
                for (a, b) in zip(list, list.dropFirst()) {
                    if b - a < never { twice.append("\(id): \(b - a) s") }
                    if b - a > missed { skipped.append("\(id): \(b - a) s") }
                }
            }
            #expect(twice.isEmpty, "checked twice within an interval: \(twice.prefix(10))")
            #expect(skipped.isEmpty, "an interval without a check: \(skipped.prefix(10))")
            #expect(miscounted.isEmpty, "rows and recorded rounds disagree: \(miscounted.prefix(10))")
            #expect(times.values.allSatisfy { $0.count >= rounds })
            // No lease was left behind by the graceful stops.
            let leftLeased: Int = try database.value("SELECT count(*)::int FROM domains WHERE lease_attempt_key IS NOT NULL")
            #expect(leftLeased == 0)
        }
    }

    @Test func theTestIntervalIsRefusedWithoutItsEnvironmentVariable() throws {
        let refused = try BuiltCommand.run(["worker", "--database-url", "postgresql://nowhere.invalid/x", "--test-interval-seconds", "5"],
                                           environment: ["AASA_MONITOR_ALLOW_TEST_INTERVAL": "0"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("AASA_MONITOR_ALLOW_TEST_INTERVAL"), "\(refused.stderr)")
    }

    @Test func aNegativeCadenceIsRefusedBeforeAnythingRuns() throws {
        for option in ["--cdn-interval", "--google-interval", "--comparison-interval", "--certificate-interval", "--full-fetch-interval"] {
            let refused = try BuiltCommand.run(["worker", "--database-url", "postgresql://nowhere.invalid/x", "\(option)=-5"])
            #expect(refused.status == 64, "\(option): \(refused.stderr)")
            #expect(refused.stderr.contains("\(option) must be a number of minutes, 0 or more"), "\(refused.stderr)")
        }
    }

    @Test func workersCarryOnAfterPostgreSQLStopsAndStartsAgain() async throws {
        // A real outage of the database, shorter than the 30 s by default to keep CI quick;
        // AASA_TEST_OUTAGE_SECONDS=30 runs the full one.
        let outage = Double(ProcessInfo.processInfo.environment["AASA_TEST_OUTAGE_SECONDS"] ?? "") ?? 8
        try await TestTLSFleet.with { fleet in
            let directory = try TemporaryCluster.makeDirectory(prefix: "aasa-outage-pg")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let options = EmbeddedPostgres.Options(dataDirectory: directory, durability: .relaxed, log: { _ in })
            var server = try EmbeddedPostgres.start(options)
            defer { try? server.stop() }
            let database = Database(configuration: server.configuration, poolSize: 2)
            defer { database.close() }
            _ = try Migrator(directory: try TestPostgres.migrationsDirectory()).migrate(server.configuration)
            for index in 0..<200 {
                _ = try database.importDomain(host: "o\(index).fleet.test", displayName: "o\(index).fleet.test",
                                              wildcard: false, appIDs: [])
            }
            let workers = try (0..<2).map {
                try WorkerProcess(databaseURL: server.url(), fleet: fleet, name: "worker\($0)", leaseSeconds: 60)
            }
            defer { workers.forEach { $0.stop() } }
            func checked() throws -> Int {
                try database.value("SELECT count(*)::int FROM domains WHERE last_checked_at IS NOT NULL")
            }
            #expect(try waitUntil(.seconds(120)) { try checked() >= 30 })
            try server.stopServerNow()
            try await Task.sleep(for: .milliseconds(Int64(outage * 1000)))
            server = try EmbeddedPostgres.start(options)
            #expect(workers.allSatisfy { $0.process.isRunning }, "a worker died with the database away: \(workers.map { $0.log.suffix(1500) })")
            let allChecked = try waitUntil(.seconds(180)) { (try? checked()) == 200 }
            let progress = (try? checked()) ?? -1
            // Every worker's output, and who still holds what, so a failure here explains itself.
            let held = (try? database.rows("SELECT leased_by, count(*)::int FROM domains WHERE lease_until > now() GROUP BY 1")
                .map { "\(try $0.decode(0, as: String?.self) ?? "-"): \(try $0.decode(1, as: Int.self))" }) ?? []
            #expect(allChecked, "checked \(progress) of 200; leases held: \(held); \(workers.map { $0.log.suffix(2000) })")
            #expect(try database.value("SELECT count(*)::int FROM checks", as: Int.self) == 200)
            #expect(try database.value("SELECT count(*)::int FROM check_repeats", as: Int.self) == 0)
        }
    }
}
