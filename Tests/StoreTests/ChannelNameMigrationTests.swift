import Foundation
import Store
import TestSupport
import Testing

/// Migration 0064: channels that already share a name (the form, the API and the CLI accepted them)
/// are renamed deterministically, the oldest keeping the name, and a unique index keeps names apart.
@Suite struct ChannelNameMigrationTests {
    @Test func sharedNamesAreRenamedInIDOrderAndThenRefused() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        let all = try Migrator(directory: TestPostgres.migrationsDirectory()).migrations
        try Migrator(migrations: all.filter { $0.version < 64 }).migrate(database.configuration)
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        // As main stored them: three "ops", one already called "ops (2)" by hand, two nameless, one alone.
        for name in ["ops", "ops", "ops (2)", "ops", "", "", "pager"] {
            try db.execute("INSERT INTO channels (kind, name, target) VALUES ('email', $1, 'ops@example.com')", name)
        }

        try Migrator(migrations: all).migrate(database.configuration)
        // The oldest keeps "ops"; the next ones take the first free suffix, skipping the one taken by hand.
        #expect(try db.channels().map(\.name) == ["ops", "ops (3)", "ops (2)", "ops (4)", "", "", "pager"])
        do {
            _ = try db.createChannel(NewChannel(kind: .email, name: "ops", target: "ops@example.com"))
            Issue.record("a second channel named ops was stored")
        } catch let error as DatabaseError {
            #expect(error.isUniqueViolation)
        }
        // The empty name still repeats.
        _ = try db.createChannel(NewChannel(kind: .email, name: "", target: "ops@example.com"))
        #expect(try db.channels().filter { $0.name.isEmpty }.count == 3)
        #expect(try db.channel(named: "ops (4)")?.id == 4)
        #expect(try db.channel(named: "") == nil)
    }
}
