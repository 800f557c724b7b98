import Foundation

/// Applies migrations in order, each in its own transaction, recording version, name and checksum
/// in `schema_migrations`. A session-level advisory lock makes concurrent starters (several
/// workers, serve + migrate) queue up, so each migration is applied exactly once.
public struct Migrator: Sendable {
    public let migrations: [Migration]
    private let log: @Sendable (String) -> Void

    /// Arbitrary, fixed: 'aasamoni' in ASCII. Every aasa-monitor process uses the same key.
    static let lockKey = 0x6161_7361_6d6f_6e69

    public init(migrations: [Migration], log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.migrations = migrations.sorted { $0.version < $1.version }
        self.log = log
    }

    /// Loads the migrations from `directory` (see `MigrationDirectory.locate`).
    public init(directory: String, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.init(migrations: try MigrationDirectory.load(directory), log: log)
    }

    /// Brings the database up to date; returns the migrations applied by this call.
    @discardableResult
    public func migrate(_ configuration: ConnectionConfiguration) throws -> [Migration] {
        let connection = try Connection(configuration: configuration.applicationName("aasa-monitor migrate"))
        defer { connection.close() }  // closing also releases the advisory lock
        try connection.execute("SELECT pg_advisory_lock($1)", Self.lockKey)
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now(),
                duration_ms integer NOT NULL DEFAULT 0
            )
            """)
        var applied: [Int: (name: String, checksum: String)] = [:]
        for row in try connection.rows("SELECT version, name, checksum FROM schema_migrations") {
            applied[try row.decode("version")] = (try row.decode("name"), try row.decode("checksum"))
        }
        for version in applied.keys.sorted() where !migrations.contains(where: { $0.version == version }) {
            log("the database has migration \(version) (\(applied[version]?.name ?? "")), which this build does not know; it was applied by a newer version")
        }
        var done: [Migration] = []
        for migration in migrations {
            if let record = applied[migration.version] {
                guard record.checksum == migration.checksum else {
                    throw MigrationError.checksumMismatch(file: migration.fileName, applied: record.checksum, current: migration.checksum)
                }
                continue
            }
            try apply(migration, on: connection)
            done.append(migration)
        }
        try connection.execute("SELECT pg_advisory_unlock($1)", Self.lockKey)
        return done
    }

    /// Versions recorded as applied, for `migrate --status` and tests.
    public static func appliedVersions(_ database: some Queryable) throws -> [Int] {
        try database.rows("SELECT version FROM schema_migrations ORDER BY version").map { try $0.decode(0) }
    }

    private func apply(_ migration: Migration, on connection: Connection) throws {
        let started = ContinuousClock.now
        do {
            if migration.runsInTransaction { try connection.execute("BEGIN") }
            try connection.runScript(SQL(trustedFileContents: migration.sql))
            let elapsed = ContinuousClock.now - started
            let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
            try connection.execute("INSERT INTO schema_migrations (version, name, checksum, duration_ms) VALUES ($1, $2, $3, $4)",
                                   migration.version, migration.name, migration.checksum, milliseconds)
            if migration.runsInTransaction { try connection.execute("COMMIT") }
            log("applied migration \(migration.fileName) in \(milliseconds) ms")
        } catch let error as DatabaseError {
            if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
            throw MigrationError.failed(file: migration.fileName, error: error)
        }
    }
}
