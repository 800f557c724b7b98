import Foundation
import Glibc
import Store
import Testing
import TestSupport

/// Imports that start at once (issue #31): `aasa-monitor import` through the built binary, then a real
/// `worker` process against the TLS fleet and a real PostgreSQL.
@Suite(.serialized) struct ImportFirstChecksTests {
    /// Every imported host is checked as soon as the worker has room, though the hourly interval puts
    /// their places up to an hour away (before, their first checks were due there: a few of 50 in the
    /// first minutes). Each second check is then due at the host's place, 0.9 to 1.9 intervals after the
    /// first, so the hosts checked together in seconds are spread over the hour, not bunched an hour on.
    ///
    /// AASA_TEST_IMPORT_HOSTS=500 runs the size (the worker then at its default 256 checks in
    /// flight) and prints how long the first checks took: a figure for the docs, not an assertion.
    @Test func importedHostsAreAllCheckedAtOnceThenSpreadOverTheInterval() throws {
        let count = Int(ProcessInfo.processInfo.environment["AASA_TEST_IMPORT_HOSTS"] ?? "") ?? 50
        try CrawlTestbed.with(workerProcesses: 2, hosts: []) { testbed in
            let (fleet, database) = (testbed.fleet, testbed.database)
            let list = (0..<count).map { "first\($0).fleet.test" }.joined(separator: "\n")
            let imported = try BuiltCommand.run(["import", "-", "--database-url", testbed.testDatabase.url], stdin: Array(list.utf8))
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains("added \(count), skipped 0"), "\(imported.stdout)")
            // The places in the hour: spread, so without the queue most would wait many minutes.
            let notDueSoon: Int = try database.value(
                "SELECT count(*)::int FROM domains WHERE next_check_at > now() + interval '5 minutes' AND first_check_queued_at IS NOT NULL")
            #expect(notDueSoon > count / 2, "\(notDueSoon) of \(count) due later than 5 minutes from now")

            let started = ContinuousClock.now
            let worker = try WorkerProcess(databaseURL: testbed.testDatabase.url, fleet: fleet, name: "importer", leaseSeconds: 60,
                                           extraArguments: count > 50 ? ["--max-in-flight", "256"] : [])
            defer { worker.stop() }
            func checked() throws -> Int {
                try database.value("SELECT count(*)::int FROM domains WHERE last_checked_at IS NOT NULL")
            }
            // A deadline, not a measurement: generous for a loaded machine, far shorter than the hour.
            let deadline = ContinuousClock.now + .seconds(count > 50 ? 300 : 150)
            while try checked() < count, ContinuousClock.now < deadline { usleep(200_000) }
            let done = try checked()
            #expect(done == count, "checked \(done) of \(count); \(worker.log.suffix(2000))")
            print("import of \(count) hosts: \(done) checked \(ContinuousClock.now - started) after the worker started")

            let rows = try database.rows("""
                SELECT extract(epoch FROM next_check_at - last_checked_at)::float8 AS gap, extract(epoch FROM next_check_at)::float8 AS next
                FROM domains WHERE last_checked_at IS NOT NULL
                """)
            let gaps: [Double] = try rows.map { try $0.decode("gap") }
            let nexts: [Double] = try rows.map { try $0.decode("next") }
            #expect(gaps.allSatisfy { $0 >= 0.9 * 3600 - 1 && $0 < 1.9 * 3600 }, "\(gaps.min() ?? 0) … \(gaps.max() ?? 0)")
            // Interval ± 10 % after checks made within seconds of each other would span at most ~0.2 h.
            #expect((nexts.max() ?? 0) - (nexts.min() ?? 0) > 0.5 * 3600, "second checks span \(((nexts.max() ?? 0) - (nexts.min() ?? 0)) / 3600) h")
            #expect(try database.value("SELECT count(*)::int FROM domains WHERE first_check_queued_at IS NOT NULL", as: Int.self) == 0)
            #expect(try database.value("SELECT count(*)::int FROM checks", as: Int.self) == count, "each checked once")
        }
    }
}
