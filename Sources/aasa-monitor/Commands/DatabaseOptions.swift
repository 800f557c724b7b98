import ArgumentParser
import Foundation
import Store

/// The database options every subcommand that touches the database shares: DATABASE_URL, or the
/// embedded cluster under --data-dir (joined when a `serve` already runs it).
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("database-url"),
            help: "PostgreSQL URL (postgresql://user:pass@host/db). Default: env DATABASE_URL; if unset, an embedded PostgreSQL under --data-dir.")
    var databaseURL: String?

    @Option(name: .customLong("data-dir"),
            help: "Directory of the embedded PostgreSQL cluster. Default: env AASA_MONITOR_DATA_DIR, else .data")
    var dataDirectory: String?

    @Option(name: .customLong("migrations-dir"),
            help: "Directory of the NNNN_name.sql migrations. Default: env AASA_MONITOR_MIGRATIONS_DIR, else found next to the program.")
    var migrationsDirectory: String?

    @Option(name: .customLong("pool-size"), help: "Most database connections this process opens at once.")
    var poolSize: Int = 10

    func validate() throws {
        guard poolSize >= 1 else { throw ValidationError("--pool-size must be at least 1") }
    }

    var settings: ApplicationDatabase.Settings {
        let environment = ProcessInfo.processInfo.environment
        return ApplicationDatabase.Settings(
            databaseURL: databaseURL ?? environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 },
            dataDirectory: dataDirectory ?? environment["AASA_MONITOR_DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? ".data",
            migrationsDirectory: migrationsDirectory,
            poolSize: poolSize)
    }

    /// Opens the database (starting or joining the embedded cluster), migrated unless told otherwise.
    func open(migrate: Bool = true) throws -> ApplicationDatabase {
        do {
            return try ApplicationDatabase.open(settings, migrate: migrate, log: { StandardError.log("\($0)") })
        } catch {
            // Our own errors carry the fix in their text; print it rather than a Swift dump.
            StandardError.log("error: \(error)")
            throw ExitCode(70)  // EX_SOFTWARE: could not set up the database
        }
    }
}

/// Diagnostics go to standard error, one line each, so standard output stays machine-readable.
enum StandardError {
    static func log(_ message: TerminalText) {
        Terminal.printError("aasa-monitor: \(message)")
    }
}
