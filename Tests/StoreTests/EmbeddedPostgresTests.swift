import Foundation
import Glibc
@testable import Store
import TestSupport
import Testing

@Suite struct EmbeddedPostgresTests {
    private func options(_ directory: String) -> EmbeddedPostgres.Options {
        .init(dataDirectory: directory, durability: .relaxed, maxConnections: 20)
    }

    @Test func startsStopsAndRecoversFromAKilledServer() throws {
        let directory = try TemporaryCluster.makeDirectory(prefix: "aasa-test-embedded")
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // First start: initdb, start, create the application database.
        let first = try EmbeddedPostgres.start(options(directory))
        #expect(first.startedServer)
        let pid = try #require(first.postmasterPID)
        #expect(try roundTrip(first) == 1)
        // The cluster runs as an unprivileged account when we are root, as ourselves otherwise.
        let owner = try clusterOwner(first)
        if geteuid() == 0 { #expect(owner != 0) } else { #expect(owner == geteuid()) }
        // Only a Unix socket: nothing listens on TCP.
        let listen: String = try Database(configuration: first.configuration, poolSize: 1).value("SHOW listen_addresses")
        #expect(listen == "")

        // A second user of the same data directory joins the running server and does not stop it.
        let second = try EmbeddedPostgres.start(options(directory))
        #expect(!second.startedServer)
        #expect(second.postmasterPID == pid)
        try second.stop()
        #expect(try roundTrip(first) == 1)

        // kill -9 the postmaster: postmaster.pid stays behind, and the next start must cope.
        #expect(kill(pid, SIGKILL) == 0)
        try waitUntil { !isAlive(pid) }
        #expect(FileManager.default.fileExists(atPath: first.clusterDirectory + "/postmaster.pid"))
        let third = try EmbeddedPostgres.start(options(directory))
        #expect(third.startedServer)
        #expect(third.postmasterPID != pid)
        #expect(try roundTrip(third) == 1)

        // The last user out stops the server.
        try first.stop()
        #expect(third.postmasterPID != nil)
        try third.stop()
        #expect(third.postmasterPID == nil)
        #expect(!FileManager.default.fileExists(atPath: third.clusterDirectory + "/postmaster.pid"))

        // And it starts again from the stopped cluster without initdb.
        let fourth = try EmbeddedPostgres.start(options(directory))
        #expect(fourth.startedServer)
        #expect(try roundTrip(fourth) == 1)
        try fourth.stop()
    }

    @Test func asRootOpensAClosedParentDirectoryMinimallyAndSaysSo() throws {
        // Only root runs the cluster as another account; a normal user's own directories are fine.
        guard geteuid() == 0 else { return }
        let base = try TemporaryCluster.makeDirectory(prefix: "aasa-test-embedded")
        defer { try? FileManager.default.removeItem(atPath: base) }
        let closed = base + "/closed"   // like /root: 0700, owned by root
        try FileManager.default.createDirectory(atPath: closed, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let messages = LogLines()
        var options = options(closed + "/data")
        options.log = { messages.append($0) }
        let server = try EmbeddedPostgres.start(options)
        defer { try? server.stop() }
        #expect(try roundTrip(server) == 1)
        var info = stat()
        #expect(stat(closed, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o701, "search only, no listing for others")
        #expect(messages.lines.contains { $0.contains("made \(closed) searchable") }, "\(messages.lines)")
    }

    @Test func ensureRunningRestartsAServerThatDied() throws {
        let directory = try TemporaryCluster.makeDirectory(prefix: "aasa-test-embedded")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try EmbeddedPostgres.start(options(directory))
        defer { try? server.stop() }
        #expect(try server.ensureRunning() == false)
        let pid = try #require(server.postmasterPID)
        kill(pid, SIGKILL)
        try waitUntil { !isAlive(pid) }
        #expect(try server.ensureRunning())
        #expect(try roundTrip(server) == 1)
    }

    @Test func poolReconnectsAfterTheServerRestarts() throws {
        let directory = try TemporaryCluster.makeDirectory(prefix: "aasa-test-embedded")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try EmbeddedPostgres.start(options(directory))
        defer { try? server.stop() }
        let db = Database(configuration: server.configuration, poolSize: 3)
        defer { db.close() }
        // Fill the pool with idle connections.
        DispatchQueue.concurrentPerform(iterations: 6) { _ in _ = try? db.execute("SELECT pg_sleep(0.05)") }
        #expect(db.poolCounts.idle >= 1)
        #expect(db.isReachable())

        try server.stopServerNow()
        #expect(!db.isReachable())
        do {
            try db.execute("SELECT 1")
            Issue.record("a query succeeded with the server down")
        } catch let error as DatabaseError {
            #expect(error.isConnectionProblem)
        }

        #expect(try server.ensureRunning())
        // Every idle connection is stale now; the pool must notice and reconnect, without errors.
        for _ in 0..<6 {
            let one: Int = try db.value("SELECT 1")
            #expect(one == 1)
        }
        #expect(db.isReachable())
    }

    @Test func findsBinariesOffPathPreferringTheClusterVersion() throws {
        // Debian keeps initdb/pg_ctl in /usr/lib/postgresql/<major>/bin, off PATH.
        let majors = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).filter { Double($0) != nil }
        guard let highest = majors.max(by: { (Double($0) ?? 0) < (Double($1) ?? 0) }) else { return }
        let found = try PostgresBinaries.locate(clusterMajorVersion: nil, environment: ["PATH": "/nonexistent"])
        #expect(found.directory == "/usr/lib/postgresql/\(highest)/bin")
        for major in majors {
            let matching = try PostgresBinaries.locate(clusterMajorVersion: major, environment: ["PATH": "/usr/local/bin:/usr/bin"])
            #expect(matching.directory == "/usr/lib/postgresql/\(major)/bin")
        }
        #expect(throws: EmbeddedPostgresError.self) {
            try PostgresBinaries.locate(clusterMajorVersion: nil, environment: ["PATH": "/nonexistent", "AASA_MONITOR_PG_BIN": "/nonexistent"],
                                        versionRoot: "/nonexistent")
        }
    }

    private func roundTrip(_ server: EmbeddedPostgres) throws -> Int {
        let db = Database(configuration: server.configuration, poolSize: 1)
        defer { db.close() }
        return try db.value("SELECT 1")
    }

    private func clusterOwner(_ server: EmbeddedPostgres) throws -> uid_t {
        var info = stat()
        #expect(stat(server.clusterDirectory, &info) == 0)
        return info.st_uid
    }
}

/// Collects the log lines of an EmbeddedPostgres.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ line: String) {
        lock.lock()
        storage.append(line)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

func isAlive(_ pid: Int32) -> Bool {
    // A killed child of another process can linger as a zombie; /proc/<pid>/stat says so ("Z").
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let closing = stat.lastIndex(of: ")") else { return true }
    return !stat[stat.index(after: closing)...].hasPrefix(" Z")
}

/// Polls `condition` until it holds or the deadline passes.
func waitUntil(timeout: Duration = .seconds(60), _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within \(timeout)")
            return
        }
        Thread.sleep(forTimeInterval: 0.02)
    }
}
