import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// `aasa-monitor worker` stops on its first SIGTERM wherever in its life the signal lands (issue #17: a
/// worker sometimes waited in Worker.run for good and needed a second SIGTERM; under systemd or docker
/// it would have been killed instead of finishing its checks).
@Suite(.serialized) struct WorkerSignalTests {
    /// Synchronous: it blocks on processes and libpq, which must not hold the cooperative pool.
    @Test func theFirstSIGTERMStopsAWorkerAtAnyPointOfItsLife() throws {
        let fleet = try TestTLSFleet(workerProcesses: 1)
        defer { fleet.stop() }
        let testDatabase = try TestPostgres.createDatabase()
        defer { testDatabase.drop() }
        let database = Database(configuration: testDatabase.configuration, poolSize: 2)
        defer { database.close() }
        // Enough due domains that the crawler's threads are busy (fetches, claims, writes) when the signal
        // comes: a busy thread is where a signal went missing.
        for index in 0..<300 {
            _ = try database.importDomain(host: "s\(index).fleet.test", displayName: "s\(index).fleet.test", wildcard: false, appIDs: [])
        }

        var stuck: [String] = [], unclean: [String] = []
        for attempt in 0..<24 {
            try database.execute("UPDATE domains SET next_check_at = now(), lease_until = NULL, leased_by = NULL")
            let worker = try WorkerProcess(databaseURL: testDatabase.url, fleet: fleet, name: "signal\(attempt)", leaseSeconds: 30)
            // Even attempts: during start-up, at a spread of moments (before the handler exists the default
            // action ends the process, which is a stop too). Odd ones: once it crawls, a little later each time.
            if attempt.isMultiple(of: 2) {
                usleep(UInt32(attempt) * 40_000)
            } else {
                let deadline = ContinuousClock.now + .seconds(60)
                while !worker.log.contains("worker crawling"), worker.process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
                usleep(UInt32(attempt) * 25_000)
            }
            let crawling = worker.log.contains("worker crawling")
            kill(worker.process.processIdentifier, SIGTERM)
            // "Stopped at all", not how fast: generous for a loaded machine (the checks in flight finish first).
            let deadline = ContinuousClock.now + .seconds(60)
            while worker.process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
            if worker.process.isRunning {
                stuck.append("attempt \(attempt) (\(crawling ? "crawling" : "starting")): \(worker.log.suffix(400))")
                worker.kill9()
                continue
            }
            // Once it said it crawls, the signal is its own: it finishes its checks and exits with 0.
            if crawling, worker.process.terminationReason != .exit || worker.process.terminationStatus != 0 {
                unclean.append("attempt \(attempt): reason \(worker.process.terminationReason.rawValue), status \(worker.process.terminationStatus)")
            }
        }
        #expect(stuck.isEmpty, "still running 60 s after the first SIGTERM: \(stuck)")
        #expect(unclean.isEmpty, "a crawling worker did not exit cleanly: \(unclean)")
    }
}
