import Foundation
import Store
import TestSupport

/// What the worker tests start from: the TLS fleet, a fresh migrated database with a pool on it, and
/// `hosts` registered there (due at once, no app expected).
struct CrawlTestbed {
    let fleet: TestTLSFleet
    let testDatabase: TestDatabase
    let database: Database

    /// Synchronous, as the tests that use it: they block on processes and libpq, which must not hold
    /// the cooperative pool. Everything is stopped and dropped when `body` returns or throws.
    static func with<T>(workerProcesses: Int, hosts: [String], _ body: (CrawlTestbed) throws -> T) throws -> T {
        let fleet = try TestTLSFleet(workerProcesses: workerProcesses)
        defer { fleet.stop() }
        let testDatabase = try TestPostgres.createDatabase()
        defer { testDatabase.drop() }
        let database = Database(configuration: testDatabase.configuration, poolSize: 2)
        defer { database.close() }
        for host in hosts {
            _ = try database.importDomain(host: host, displayName: host, wildcard: false, appIDs: [])
        }
        return try body(CrawlTestbed(fleet: fleet, testDatabase: testDatabase, database: database))
    }
}
