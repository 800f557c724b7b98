// Worker processes against one PostgreSQL (issue 17, "running many workers"): the release
// `aasa-monitor worker` next to this binary, 1, 2, 4 … processes at a time, each leasing due domains
// with FOR UPDATE SKIP LOCKED. For each count every domain is made due once and the run is timed until
// every domain has had that check (domains.check_round), so checks/s is one full round of unchanged
// checks by fresh processes (no kept connections or TLS sessions from an earlier run).
import Foundation
import Store
import TestSupport
import Vocabulary

func workerScaling(domains: Int, counts: [Int], fleet: TestTLSFleet) throws {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("aasa-monitor")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        print("build it first: swift build -c release --product aasa-monitor (looked for \(binary.path))")
        return
    }
    print("monitor-bench --workers \(counts.map(String.init).joined(separator: ",")): \(domains) domains (both files), one PostgreSQL, load \(loadAverage())")
    let hosts = try economyHosts(domains, fleet: fleet)
    let testDatabase = try TestPostgres.createDatabase()
    defer { testDatabase.drop() }
    let database = Database(configuration: testDatabase.configuration, poolSize: 2)
    defer { database.close() }
    for host in hosts {
        _ = try database.importDomain(host: host.ascii, displayName: host.unicode, wildcard: false, appIDs: [])
    }
    let migrations = try TestPostgres.migrationsDirectory()

    /// Starts `count` workers, waits until every domain's round passed `target`, stops them; returns seconds.
    func round(workers count: Int, target: Int) throws -> Double {
        try database.execute("UPDATE domains SET next_check_at = now() - interval '1 second'")
        let start = ContinuousClock.now
        let processes = try (0..<count).map { index -> Process in
            let process = Process()
            process.executableURL = binary
            process.arguments = ["worker", "--database-url", testDatabase.url, "--migrations-dir", migrations, "--no-notify",
                                 "--worker-id", "bench\(index)", "--max-in-flight", "128", "--pool-size", "4", "--poll-seconds", "0.2",
                                 "--allow-private-addresses", "--ca-file", fleet.caFile, "--cdn-base", fleet.cdnBase,
                                 "--google-dal-base", fleet.googleDALBase] + fleet.connectTo.flatMap { ["--connect-to", $0] }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        defer {
            for process in processes where process.isRunning { process.terminate() }
            for process in processes { process.waitUntilExit() }
        }
        while try database.value("SELECT count(*)::int FROM domains WHERE check_round < $1", target, as: Int.self) > 0 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        return seconds(since: start)
    }

    // The first round stores every file; the measured rounds are unchanged checks.
    var done = 1
    _ = try round(workers: 1, target: done)
    print("| worker processes | checks/s (one round of \(domains) unchanged checks) | load before → after |")
    print("|---:|---:|---|")
    for count in counts {
        let loadBefore = loadAverage()
        done += 1
        let elapsed = try round(workers: count, target: done)
        print("| \(count) | " + String(format: "%.0f", Double(domains) / elapsed) + " | \(loadBefore) → \(loadAverage()) |")
    }
}
