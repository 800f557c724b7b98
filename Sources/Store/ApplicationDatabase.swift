import Foundation

/// The application's database as the commands see it: DATABASE_URL when given, otherwise the
/// embedded cluster under the data directory (started, or joined when another aasa-monitor process
/// runs it), migrated, behind a pool. `close()` releases it: the pool closes and the embedded
/// server stops unless another process still uses it.
public final class ApplicationDatabase: Sendable {
    public struct Settings: Sendable {
        /// postgresql:// URL of an existing server; nil: the embedded cluster.
        public var databaseURL: String?
        /// Where the embedded cluster lives (default `.data`).
        public var dataDirectory: String
        /// nil: search (see `MigrationDirectory.locate`).
        public var migrationsDirectory: String?
        public var poolSize: Int

        public init(databaseURL: String?, dataDirectory: String = ".data", migrationsDirectory: String? = nil, poolSize: Int = 10) {
            self.databaseURL = databaseURL
            self.dataDirectory = dataDirectory
            self.migrationsDirectory = migrationsDirectory
            self.poolSize = poolSize
        }
    }

    public let database: Database
    /// The embedded cluster, when DATABASE_URL was not given.
    public let embedded: EmbeddedPostgres?
    /// Migrations applied while opening.
    public let appliedMigrations: [Migration]

    /// Opens (and with `migrate`, migrates) the database. Throws with a message that says what to do.
    public static func open(_ settings: Settings, migrate: Bool = true,
                            log: @escaping @Sendable (String) -> Void) throws -> ApplicationDatabase {
        let embedded: EmbeddedPostgres?
        let configuration: ConnectionConfiguration
        if let url = settings.databaseURL, !url.isEmpty {
            embedded = nil
            configuration = ConnectionConfiguration(url: url)
        } else {
            let server = try EmbeddedPostgres.start(.init(dataDirectory: settings.dataDirectory, log: log))
            if !server.startedServer { log("using the PostgreSQL already running in \(server.clusterDirectory)") }
            embedded = server
            configuration = server.configuration
        }
        do {
            var applied: [Migration] = []
            if migrate {
                let directory = try MigrationDirectory.locate(explicit: settings.migrationsDirectory)
                applied = try Migrator(directory: directory, log: log).migrate(configuration)
            }
            return ApplicationDatabase(database: Database(configuration: configuration, poolSize: settings.poolSize),
                                       embedded: embedded, appliedMigrations: applied)
        } catch {
            try? embedded?.stop()
            throw error
        }
    }

    private init(database: Database, embedded: EmbeddedPostgres?, appliedMigrations: [Migration]) {
        self.database = database
        self.embedded = embedded
        self.appliedMigrations = appliedMigrations
    }

    /// Closes the pool, then leaves the embedded cluster (stopping it if no one else uses it).
    public func close() throws {
        database.close()
        try embedded?.stop()
    }
}
