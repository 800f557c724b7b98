import Foundation
import Glibc
import Store
import Synchronization

/// A real PostgreSQL for tests: one embedded cluster per test process, in a temporary directory,
/// and a fresh database per test (cloned from a migrated template, so it costs one CREATE DATABASE).
/// Works as root (the cluster runs as an unprivileged account) and as a normal user.
///
///     try TestPostgres.withDatabase { db in
///         try db.execute("INSERT INTO settings (key, value) VALUES ($1, $2)", "k", "v")
///     }
public enum TestPostgres {
    private static let state = Mutex<SharedCluster?>(nil)

    private struct SharedCluster: Sendable {
        let server: EmbeddedPostgres
        let directory: String
        var templateReady: Bool
    }

    /// The shared cluster, started on first use and stopped when the test process exits.
    public static func cluster() throws -> EmbeddedPostgres {
        try state.withLock { shared in
            if let shared { return shared.server }
            TemporaryCluster.reapOrphans()
            let directory = try TemporaryCluster.makeDirectory(prefix: "aasa-test-pg")
            let server = try EmbeddedPostgres.start(.init(
                dataDirectory: directory, durability: .relaxed, maxConnections: 300,
                log: { message in FileHandle.standardError.write(Data("TestPostgres: \(message)\n".utf8)) }))
            shared = SharedCluster(server: server, directory: directory, templateReady: false)
            atexit { TestPostgres.shutDown() }
            return server
        }
    }

    /// A new database on the shared cluster, migrated unless `migrated` is false. Drop it with
    /// `drop()` (withDatabase does).
    public static func createDatabase(migrated: Bool = true) throws -> TestDatabase {
        let server = try cluster()
        let admin = try Connection(configuration: server.configuration.database("postgres"))
        defer { admin.close() }
        if migrated { try prepareTemplate(server: server, admin: admin) }
        let name = "test_\(UInt64.random(in: 0...UInt64.max))"
        try admin.createDatabase(name, template: migrated ? templateName : "template0")
        return TestDatabase(name: name, server: server)
    }

    /// Runs `body` with a pooled `Database` on a fresh database, then drops it.
    public static func withDatabase<T>(migrated: Bool = true, poolSize: Int = 4, _ body: (Database) throws -> T) throws -> T {
        let testDatabase = try createDatabase(migrated: migrated)
        let database = Database(configuration: testDatabase.configuration, poolSize: poolSize)
        defer {
            database.close()
            testDatabase.drop()
        }
        return try body(database)
    }

    public static func withDatabase<T>(migrated: Bool = true, poolSize: Int = 4,
                                       _ body: (Database) async throws -> T) async throws -> T {
        let testDatabase = try createDatabase(migrated: migrated)
        let database = Database(configuration: testDatabase.configuration, poolSize: poolSize)
        defer {
            database.close()
            testDatabase.drop()
        }
        return try await body(database)
    }

    /// The repository's Migrations/ directory.
    public static func migrationsDirectory() throws -> String {
        try MigrationDirectory.locate()
    }

    private static let templateName = "aasa_test_template"

    private static func prepareTemplate(server: EmbeddedPostgres, admin: Connection) throws {
        try state.withLock { shared in
            guard shared?.templateReady == false else { return }
            let migrator = try Migrator(directory: try migrationsDirectory())
            try admin.dropDatabase(templateName)
            try admin.createDatabase(templateName, template: "template0")
            try migrator.migrate(server.configuration.database(templateName))
            shared?.templateReady = true
        }
    }

    private static func shutDown() {
        let shared = state.withLock { shared in
            defer { shared = nil }
            return shared
        }
        guard let shared else { return }
        try? shared.server.stop()
        try? FileManager.default.removeItem(atPath: shared.directory)
    }
}

/// One test's database on the shared cluster.
public struct TestDatabase: Sendable {
    public let name: String
    public let server: EmbeddedPostgres

    public var configuration: ConnectionConfiguration { server.configuration.database(name) }
    /// As DATABASE_URL, for a child process (e.g. `aasa-monitor serve` in a CLI test).
    public var url: String { server.url(database: name) }

    public func drop() {
        guard let admin = try? Connection(configuration: server.configuration.database("postgres")) else { return }
        defer { admin.close() }
        try? admin.dropDatabase(name)
    }
}
