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
            #expect(try database.value("SELECT count(*)::int FROM aasa_versions", as: Int.self) == 1)
            // The survivors did the work, including the killed worker's leased domains.
            let checkedBy: [String] = try database.rows("SELECT DISTINCT leased_by FROM domains WHERE leased_by IS NOT NULL")
                .map { try $0.decode(0) }
            #expect(checkedBy.isEmpty, "leases still held: \(checkedBy)")
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
            #expect(allChecked, "checked \(progress) of 200; \(workers[0].log.suffix(2000))")
            #expect(try database.value("SELECT count(*)::int FROM checks", as: Int.self) == 200)
            #expect(try database.value("SELECT count(*)::int FROM check_repeats", as: Int.self) == 0)
        }
    }
}
