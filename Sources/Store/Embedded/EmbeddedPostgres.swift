import CLibPQ
import Foundation
import Glibc
import Synchronization

/// A private PostgreSQL cluster under a data directory, used when no DATABASE_URL is given.
///
/// Layout of the data directory: `postgresql/` (the cluster), `run/` (the Unix socket; the server
/// listens on nothing else), `postgresql.log`, `clients/` (which processes use it) and
/// `embedded.lock`. The first start runs initdb; later starts reuse the cluster, clean up after a
/// crash (stale postmaster.pid), or join a server another process already runs.
public final class EmbeddedPostgres: Sendable {
    public struct Options: Sendable {
        public var dataDirectory: String
        /// `.relaxed` turns off fsync and friends: only for throw-away test clusters.
        public var durability: Durability
        public var maxConnections: Int
        public var log: @Sendable (String) -> Void

        public init(dataDirectory: String, durability: Durability = .full, maxConnections: Int = 100,
                    log: @escaping @Sendable (String) -> Void = { _ in }) {
            self.dataDirectory = dataDirectory
            self.durability = durability
            self.maxConnections = maxConnections
            self.log = log
        }
    }

    public enum Durability: Sendable { case full, relaxed }

    /// The superuser initdb creates and the database the application uses.
    public static let user = "aasa_monitor"
    public static let databaseName = "aasa_monitor"
    static let port = 5432

    public let dataDirectory: String
    /// True when this process started the server; false when it joined one that was running.
    public let startedServer: Bool
    private let options: Options
    private let account: ClusterAccount
    private let token: String
    private let stopped = Mutex(false)

    public var clusterDirectory: String { dataDirectory + "/postgresql" }
    public var socketDirectory: String { dataDirectory + "/run" }
    public var logFile: String { dataDirectory + "/postgresql.log" }

    /// Connection settings for the application database.
    public var configuration: ConnectionConfiguration {
        ConnectionConfiguration(socketDirectory: socketDirectory, port: Self.port, user: Self.user, database: Self.databaseName)
    }

    /// The same as a `postgresql://` URL, for child processes (DATABASE_URL).
    public func url(database: String = EmbeddedPostgres.databaseName) -> String {
        ConnectionConfiguration.url(socketDirectory: socketDirectory, port: Self.port, user: Self.user, database: database)
    }

    /// The running server's process id, from postmaster.pid.
    public var postmasterPID: Int32? {
        if case .running(let pid) = PostmasterPIDFile.inspect(clusterDirectory: clusterDirectory) { return pid }
        return nil
    }

    /// Creates (first run), starts or joins the cluster under `options.dataDirectory`.
    public static func start(_ options: Options) throws -> EmbeddedPostgres {
        let dataDirectory = absolutePath(options.dataDirectory)
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let socket = dataDirectory + "/run/.s.PGSQL.\(port)"
        guard socket.utf8.count < 108 else { throw EmbeddedPostgresError.socketPathTooLong(path: socket) }

        let lock = try DirectoryLock(path: dataDirectory + "/embedded.lock")
        defer { withExtendedLifetime(lock) {} }
        let account = try ClusterAccount.resolve(clusterDirectory: dataDirectory + "/postgresql", log: options.log)
        try account.ensureCanTraverse(dataDirectory, log: options.log)
        let token = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let startedServer = try bringUp(dataDirectory: dataDirectory, account: account, options: options)
        let server = EmbeddedPostgres(dataDirectory: dataDirectory, startedServer: startedServer, options: options,
                                      account: account, token: token)
        try server.createApplicationDatabase()
        try ClusterClients(directory: dataDirectory + "/clients").register(token: token)
        return server
    }

    private init(dataDirectory: String, startedServer: Bool, options: Options, account: ClusterAccount, token: String) {
        self.dataDirectory = dataDirectory
        self.startedServer = startedServer
        self.options = options
        self.account = account
        self.token = token
    }

    /// Starts the server again if it died (a crash, a kill -9, someone's pg_ctl stop). Cheap when it
    /// runs: one ping. Returns true when it had to start it.
    @discardableResult
    public func ensureRunning() throws -> Bool {
        if stopped.withLock({ $0 }) { return false }
        if Self.ping(socketDirectory: socketDirectory) { return false }
        let lock = try DirectoryLock(path: dataDirectory + "/embedded.lock")
        defer { withExtendedLifetime(lock) {} }
        return try Self.bringUp(dataDirectory: dataDirectory, account: account, options: options)
    }

    /// Leaves the cluster: stops the server unless another process still uses it. Idempotent.
    public func stop() throws {
        let alreadyStopped = stopped.withLock { value in
            defer { value = true }
            return value
        }
        if alreadyStopped { return }
        let lock = try DirectoryLock(path: dataDirectory + "/embedded.lock")
        defer { withExtendedLifetime(lock) {} }
        let clients = ClusterClients(directory: dataDirectory + "/clients")
        clients.unregister(token: token)
        let others = clients.live()
        guard others.isEmpty else {
            options.log("leaving the embedded PostgreSQL running: \(others.count) other process(es) still use it")
            return
        }
        try Self.stopServer(dataDirectory: dataDirectory, account: account)
    }

    /// Stops the server whoever uses it (tests simulate an outage with this). `ensureRunning` or a
    /// new `start` brings it back.
    public func stopServerNow() throws {
        let lock = try DirectoryLock(path: dataDirectory + "/embedded.lock")
        defer { withExtendedLifetime(lock) {} }
        try Self.stopServer(dataDirectory: dataDirectory, account: account)
    }

    // MARK: - Steps

    /// Makes the server run; returns true when this call started it.
    private static func bringUp(dataDirectory: String, account: ClusterAccount, options: Options) throws -> Bool {
        let clusterDirectory = dataDirectory + "/postgresql"
        let socketDirectory = dataDirectory + "/run"
        if ping(socketDirectory: socketDirectory) { return false }

        let versionFile = clusterDirectory + "/PG_VERSION"
        if !FileManager.default.fileExists(atPath: versionFile) {
            try initialize(dataDirectory: dataDirectory, account: account, options: options)
        }
        let major = (try? String(contentsOfFile: versionFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let binaries = try PostgresBinaries.locate(clusterMajorVersion: major)

        switch PostmasterPIDFile.inspect(clusterDirectory: clusterDirectory) {
        case .running(let pid):
            // Starting up or shutting down: give it time rather than fight over the directory.
            options.log("PostgreSQL (pid \(pid)) is already starting in \(clusterDirectory); waiting for it")
            if waitForPing(socketDirectory: socketDirectory, timeout: .seconds(60)) { return false }
            throw EmbeddedPostgresError.startFailed(
                message: "a PostgreSQL process (pid \(pid)) holds \(clusterDirectory) but does not answer on \(socketDirectory)",
                logTail: logTail(dataDirectory + "/postgresql.log"))
        case .stale(let pid):
            options.log("removing the stale postmaster.pid left by \(pid.map { "pid \($0)" } ?? "a crashed server") in \(clusterDirectory)")
            try? FileManager.default.removeItem(atPath: PostmasterPIDFile.path(in: clusterDirectory))
            try? FileManager.default.removeItem(atPath: socketDirectory + "/.s.PGSQL.\(port)")
            try? FileManager.default.removeItem(atPath: socketDirectory + "/.s.PGSQL.\(port).lock")
        case .absent:
            break
        }

        try prepareDirectories(dataDirectory: dataDirectory, account: account)
        try writeSettings(clusterDirectory: clusterDirectory, socketDirectory: socketDirectory, account: account, options: options)

        let logFile = dataDirectory + "/postgresql.log"
        let start = ExternalCommand(binaries.pgCtl, ["start", "-w", "-t", "120", "-s", "-D", clusterDirectory, "-l", logFile],
                                    workingDirectory: dataDirectory).running(as: account.runAs)
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let outcome = try start.run()
            if outcome.succeeded, waitForPing(socketDirectory: socketDirectory, timeout: .seconds(30)) {
                options.log("started PostgreSQL in \(clusterDirectory) as \(account.displayName), socket in \(socketDirectory)")
                return true
            }
            // After a kill -9, the old server's children may still hold its shared memory for a moment.
            let tail = logTail(logFile)
            let transient = tail.contains("pre-existing shared memory block") || tail.contains("already exists")
            if !transient || ContinuousClock.now > deadline {
                throw EmbeddedPostgresError.startFailed(message: "\(start.commandLine) exited with status \(outcome.status): \(outcome.output)",
                                                        logTail: tail)
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    private static func initialize(dataDirectory: String, account: ClusterAccount, options: Options) throws {
        let clusterDirectory = dataDirectory + "/postgresql"
        if let contents = try? FileManager.default.contentsOfDirectory(atPath: clusterDirectory), !contents.isEmpty {
            throw EmbeddedPostgresError.notACluster(path: clusterDirectory)
        }
        try FileManager.default.createDirectory(atPath: clusterDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try account.own(clusterDirectory)
        let binaries = try PostgresBinaries.locate(clusterMajorVersion: nil)
        options.log("creating a PostgreSQL cluster in \(clusterDirectory) (\(binaries.directory), runs as \(account.displayName))")
        // trust is safe here: the only way in is the socket in run/, a 0700 directory of the account.
        var arguments = ["-D", clusterDirectory, "-U", user, "--auth=trust", "--encoding=UTF8", "--no-locale"]
        if options.durability == .relaxed { arguments.append("--no-sync") }
        try ExternalCommand(binaries.initdb, arguments, workingDirectory: dataDirectory).running(as: account.runAs).runChecked()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: clusterDirectory + "/postgresql.conf"))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n# aasa-monitor rewrites this file at every start (socket path, listen nothing).\ninclude_if_exists 'aasa-monitor.conf'\n".utf8))
    }

    private static func prepareDirectories(dataDirectory: String, account: ClusterAccount) throws {
        let socketDirectory = dataDirectory + "/run"
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try account.own(socketDirectory)
        let logFile = dataDirectory + "/postgresql.log"
        if !FileManager.default.fileExists(atPath: logFile) {
            _ = FileManager.default.createFile(atPath: logFile, contents: nil, attributes: [.posixPermissions: 0o640])
        }
        try account.own(logFile)
    }

    /// Written at every start so a moved data directory still gets the right socket path.
    private static func writeSettings(clusterDirectory: String, socketDirectory: String, account: ClusterAccount, options: Options) throws {
        func quoted(_ value: String) -> String { "'" + value.replacingOccurrences(of: "'", with: "''") + "'" }
        var lines = [
            "# Written by aasa-monitor at every start; put your own settings in postgresql.conf.",
            "listen_addresses = ''",
            "unix_socket_directories = \(quoted(socketDirectory))",
            "unix_socket_permissions = 0700",
            "port = \(port)",
            "max_connections = \(options.maxConnections)",
        ]
        if options.durability == .relaxed {
            lines += ["fsync = off", "synchronous_commit = off", "full_page_writes = off"]
        }
        let path = clusterDirectory + "/aasa-monitor.conf"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try account.own(path)
    }

    private static func stopServer(dataDirectory: String, account: ClusterAccount) throws {
        let clusterDirectory = dataDirectory + "/postgresql"
        guard case .running = PostmasterPIDFile.inspect(clusterDirectory: clusterDirectory) else { return }
        let major = (try? String(contentsOfFile: clusterDirectory + "/PG_VERSION", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let binaries = try PostgresBinaries.locate(clusterMajorVersion: major)
        let outcome = try ExternalCommand(binaries.pgCtl, ["stop", "-w", "-t", "60", "-s", "-m", "fast", "-D", clusterDirectory],
                                          workingDirectory: dataDirectory).running(as: account.runAs).run()
        if !outcome.succeeded, case .running = PostmasterPIDFile.inspect(clusterDirectory: clusterDirectory) {
            throw EmbeddedPostgresError.commandFailed(command: "pg_ctl stop", status: outcome.status, output: outcome.output)
        }
    }

    private func createApplicationDatabase() throws {
        let connection = try Connection(configuration: ConnectionConfiguration(
            socketDirectory: socketDirectory, port: Self.port, user: Self.user, database: "postgres"))
        defer { connection.close() }
        let exists = try connection.firstRow("SELECT 1 FROM pg_database WHERE datname = $1", Self.databaseName) != nil
        if !exists {
            try connection.runScript(SQL(trustedFileContents: "CREATE DATABASE " + (try connection.quotedIdentifier(Self.databaseName))))
        }
    }

    // MARK: - Probes

    static func ping(socketDirectory: String) -> Bool {
        let keywords = ["host", "port", "user", "dbname", "connect_timeout"]
        let values = [socketDirectory, String(port), user, "postgres", "3"]
        let cKeywords = keywords.map { strdup($0) } + [nil]
        let cValues = values.map { strdup($0) } + [nil]
        defer {
            cKeywords.forEach { free($0) }
            cValues.forEach { free($0) }
        }
        let result = cKeywords.withUnsafeBufferPointer { k in
            cValues.withUnsafeBufferPointer { v in
                k.withMemoryRebound(to: UnsafePointer<CChar>?.self) { kp in
                    v.withMemoryRebound(to: UnsafePointer<CChar>?.self) { vp in
                        PQpingParams(kp.baseAddress, vp.baseAddress, 0)
                    }
                }
            }
        }
        return result == PQPING_OK
    }

    static func waitForPing(socketDirectory: String, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if ping(socketDirectory: socketDirectory) { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return ping(socketDirectory: socketDirectory)
    }

    static func logTail(_ path: String, lines: Int = 15) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "(no log at \(path))" }
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    static func absolutePath(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}
