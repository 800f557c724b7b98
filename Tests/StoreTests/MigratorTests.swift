import Foundation
import Store
import TestSupport
import Testing

@Suite struct MigratorTests {
    private func migration(_ name: String, _ sql: String) throws -> Migration {
        try Migration(fileName: name, contents: Array(sql.utf8))
    }

    @Test func appliesInNumericOrderOnceAndRecordsChecksums() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        // Given out of order; 0002 depends on 0001 and 0010 on 0002.
        let migrations = [
            try migration("0010_index.sql", "CREATE INDEX notes_body ON notes (body);"),
            try migration("0001_notes.sql", "CREATE TABLE notes (id integer PRIMARY KEY);"),
            try migration("0002_body.sql", "ALTER TABLE notes ADD COLUMN body text;\nINSERT INTO notes VALUES (1, 'a');"),
        ]
        let first = try Migrator(migrations: migrations).migrate(database.configuration)
        #expect(first.map(\.version) == [1, 2, 10])
        let second = try Migrator(migrations: migrations).migrate(database.configuration)
        #expect(second.isEmpty)
        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        #expect(try Migrator.appliedVersions(db) == [1, 2, 10])
        let checksum: String = try db.value("SELECT checksum FROM schema_migrations WHERE version = 2")
        #expect(checksum == SHA256.hex(Array("ALTER TABLE notes ADD COLUMN body text;\nINSERT INTO notes VALUES (1, 'a');".utf8)))
        #expect(try db.value("SELECT count(*) FROM notes", as: Int.self) == 1)
    }

    @Test func refusesAnAppliedMigrationWhoseFileChanged() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        try Migrator(migrations: [try migration("0001_notes.sql", "CREATE TABLE notes (id integer);")]).migrate(database.configuration)
        let edited = [try migration("0001_notes.sql", "CREATE TABLE notes (id bigint);"),
                      try migration("0002_more.sql", "CREATE TABLE more (id integer);")]
        do {
            try Migrator(migrations: edited).migrate(database.configuration)
            Issue.record("a changed migration was accepted")
        } catch let error as MigrationError {
            guard case .checksumMismatch(let file, _, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(file == "0001_notes.sql")
            #expect(error.description.contains("0001_notes.sql was changed after it was applied"))
        }
        // Nothing after the refused file ran.
        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        #expect(try Migrator.appliedVersions(db) == [1])
    }

    @Test func aFailingMigrationRollsBackEntirely() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        let broken = [try migration("0001_half.sql", "CREATE TABLE half (id integer);\nSELECT no_such_function();")]
        #expect(throws: MigrationError.self) { try Migrator(migrations: broken).migrate(database.configuration) }
        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        #expect(try db.value("SELECT count(*) FROM pg_tables WHERE tablename = 'half'", as: Int.self) == 0)
        #expect(try Migrator.appliedVersions(db).isEmpty)
    }

    @Test func concurrentStartersApplyEachMigrationExactlyOnce() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        // Not idempotent on purpose: a second application would fail (duplicate table / key),
        // and the sleep widens the window in which the starters overlap.
        let migrations = [
            try migration("0001_runs.sql", "CREATE TABLE runs (n integer PRIMARY KEY);\nSELECT pg_sleep(0.2);"),
            try migration("0002_seed.sql", "INSERT INTO runs VALUES (1);"),
        ]
        let starters = 4
        let results = Results(count: starters)
        DispatchQueue.concurrentPerform(iterations: starters) { index in
            do {
                results.set(index, .success(try Migrator(migrations: migrations).migrate(database.configuration).count))
            } catch {
                results.set(index, .failure(error))
            }
        }
        let applied = try results.values.map { try $0.get() }
        #expect(applied.reduce(0, +) == 2)
        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        #expect(try db.value("SELECT count(*) FROM runs", as: Int.self) == 1)
        #expect(try Migrator.appliedVersions(db) == [1, 2])
    }

    @Test func rejectsBadNamesAndDuplicateNumbers() throws {
        #expect(throws: MigrationError.self) { try Migration(fileName: "1_short.sql", contents: []) }
        #expect(throws: MigrationError.self) { try Migration(fileName: "0001-dash.sql", contents: []) }
        let directory = try TemporaryCluster.makeDirectory(prefix: "aasa-test-migrations")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("SELECT 1;".utf8).write(to: URL(fileURLWithPath: directory + "/0001_a.sql"))
        try Data("SELECT 2;".utf8).write(to: URL(fileURLWithPath: directory + "/0001_b.sql"))
        #expect(throws: MigrationError.self) { try MigrationDirectory.load(directory) }
    }

    @Test func theProjectMigrationsApplyAndFindTheirDirectory() throws {
        let directory = try MigrationDirectory.locate()
        #expect(directory.hasSuffix("/Migrations"))
        let migrations = try MigrationDirectory.load(directory)
        #expect(migrations.first?.version == 1)
        try TestPostgres.withDatabase { db in
            #expect(try Migrator.appliedVersions(db) == migrations.map(\.version))
            for table in ["domains", "expected_app_ids", "watched_urls", "association_versions", "checks", "check_rollups", "alerts",
                          "alert_streaks", "channels", "deliveries", "delivery_attempts", "users", "sessions", "api_tokens", "settings"] {
                #expect(try db.value("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename = $1", table, as: Int.self) == 1,
                        "table \(table)")
            }
            // The schema's own rules hold.
            #expect(throws: DatabaseError.self) {
                try db.execute("INSERT INTO domains (host, display_name, interval_seconds) VALUES ($1, $1, 30)", "example.com")
            }
            try db.execute("INSERT INTO domains (host, display_name) VALUES ($1, $2)", "xn--bcher-kva.example", "bücher.example")
            let interval: Int = try db.value("SELECT interval_seconds FROM domains WHERE host = $1", "xn--bcher-kva.example")
            #expect(interval == 3600)
        }
    }
}

/// Collects one result per concurrent worker.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Result<Int, any Error>]

    init(count: Int) { storage = Array(repeating: .success(0), count: count) }

    func set(_ index: Int, _ value: Result<Int, any Error>) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    var values: [Result<Int, any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
