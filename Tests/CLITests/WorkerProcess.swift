import Foundation
import Glibc
import TestSupport

/// A running worker process whose output goes to files (nothing blocks on a full pipe).
final class WorkerProcess {
    let process = Process()
    let scratch: ScratchDirectory

    init(databaseURL: String, fleet: TestTLSFleet, name: String, leaseSeconds: Int, pollSeconds: Double = 0.2,
         extraArguments: [String] = [], environment: [String: String] = [:]) throws {
        scratch = try ScratchDirectory()
        let log = scratch.url.appendingPathComponent("log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.executableURL = try BuiltCommand.executableURL()
        process.arguments = ["worker", "--database-url", databaseURL, "--migrations-dir", try TestPostgres.migrationsDirectory(),
                             "--no-notify", "--worker-id", name, "--lease-seconds", String(leaseSeconds),
                             "--poll-seconds", String(pollSeconds), "--max-in-flight", "24", "--pool-size", "4",
                             "--allow-private-addresses", "--ca-file", fleet.caFile, "--cdn-base", fleet.cdnBase]
            + fleet.connectTo.flatMap { ["--connect-to", $0] } + extraArguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    /// A test that fails half-way still leaves no worker behind.
    deinit {
        if process.isRunning { kill9() }
    }

    var log: String {
        (try? String(contentsOf: scratch.url.appendingPathComponent("log"), encoding: .utf8)) ?? ""
    }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        // A graceful stop records the checks in flight; only a worker that hangs is killed, so the
        // deadline is generous for a slow, loaded machine (tests check that no lease is left).
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
        if process.isRunning { kill9() }
    }
}
