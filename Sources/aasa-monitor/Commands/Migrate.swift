import ArgumentParser
import Store

extension AASAMonitor {
    /// `aasa-monitor migrate`: brings the schema up to date and exits.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the database migrations that have not run yet, then exit.",
            discussion: """
                Applies Migrations/NNNN_name.sql in order, each in a transaction, and records each with its checksum. \
                An applied migration whose file has changed stops it with an error naming the file. Several processes \
                may run it at once: each migration is applied exactly once. `serve` also migrates when it starts.
                """)

        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            let versions = try Migrator.appliedVersions(opened.database)
            if opened.appliedMigrations.isEmpty {
                Terminal.print("The database is up to date (\(versions.count) migrations applied, latest \(versions.last.map(String.init) ?? "none")).")
            } else {
                for migration in opened.appliedMigrations { Terminal.print("applied \(migration.fileName)") }
            }
        }
    }
}
