import AASA
import Foundation
import Store
import TestSupport
import Testing
import Vocabulary

/// Association files are content-addressed per platform (`association_versions`, unique on
/// (platform, sha256)): the same bytes served as Apple's and as Android's file are two versions, each
/// stored once however many checks see it.
@Suite struct AssociationVersionsTests {
    static let bytes = Array(#"[{"relation": ["delegate_permission/common.handle_all_urls"]}]"#.utf8)
    static let sha = SHA256.hex(bytes)

    @Test func theSameBytesAreOneVersionPerPlatform() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let now = Date()
            let apple = try db.storeVersion(StoredBody(.apple, sha256: Self.sha, bytes: Self.bytes), seenAt: now)
            let android = try db.storeVersion(StoredBody(.android, sha256: Self.sha, bytes: Self.bytes), seenAt: now)
            #expect(apple != android)
            #expect(try db.storeVersion(StoredBody(.android, sha256: Self.sha, bytes: Self.bytes), seenAt: now) == android)
            #expect(try db.value("SELECT count(*)::int FROM association_versions", as: Int.self) == 2)
            #expect(try db.version(VersionKey(.android, sha256: Self.sha))?.id == android)
            #expect(try db.version(VersionKey(.apple, sha256: Self.sha))?.platform == .apple)
            #expect(try db.versionBody(VersionKey(.android, sha256: Self.sha)) == Self.bytes)
            #expect(try db.versionBody(VersionKey(.android, sha256: String(repeating: "0", count: 64))) == nil)
            // Every writer names the platform: the column has no default to fall back on.
            #expect(throws: DatabaseError.self) {
                try db.execute("INSERT INTO association_versions (sha256, body, size) VALUES ($1, '\\x01', 1)", String(repeating: "1", count: 64))
            }
        }
    }

    /// A served file with NUL bytes (binary noise, the fault campaign's hostile files) is stored with its
    /// reading: jsonb refuses the escape \u0000, which made every check of such a file fail its
    /// transaction, so its domain was never recorded nor alerted. Its text shows U+FFFD; its bytes stay whole.
    @Test func aFileWithNULBytesIsStoredWithItsReading() throws {
        let bytes: [UInt8] = Array("not json\u{0}\u{1}".utf8) + [0x00, 0xFF, 0x0A] + Array("second line \\u0000 as text".utf8)
        let sha = SHA256.hex(bytes)
        try TestPostgres.withDatabase { (db: Database) throws in
            _ = try db.storeVersion(try StoredBody(.apple, sha256: sha, bytes: bytes, reading: VersionReading(aasa: bytes)), seenAt: Date())
            #expect(try db.versionBody(VersionKey(.apple, sha256: sha)) == bytes)
            guard case .read(let reading) = try #require(try db.versionReading(VersionKey(.apple, sha256: sha), of: AASADocument.self)) else {
                Issue.record("the reading was not stored")
                return
            }
            let text = reading.text.lines.map(\.text)
            #expect(text == ["not json\u{FFFD}\u{1}\u{FFFD}\u{FFFD}", "second line \\u0000 as text"])
        }
    }

    /// Files stored before the platform seam are Apple's, under the same ids the checks point at.
    @Test func versionsStoredBeforeTheSeamAreApples() throws {
        let database = try TestPostgres.createDatabase(migrated: false)
        defer { database.drop() }
        let all = try Migrator(directory: TestPostgres.migrationsDirectory()).migrations
        let seam = try #require(all.first { $0.name == "association_versions" })
        try Migrator(migrations: all.filter { $0.version < seam.version }).migrate(database.configuration)
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        let id: Int64 = try db.value("INSERT INTO aasa_versions (sha256, body, size) VALUES ($1, $2, $3) RETURNING id",
                                     Self.sha, Self.bytes, Self.bytes.count)
        try Migrator(migrations: all).migrate(database.configuration)
        let stored = try #require(try db.version(VersionKey(.apple, sha256: Self.sha)))
        #expect(stored.id == id && stored.body == Self.bytes)
        #expect(try db.version(VersionKey(.android, sha256: Self.sha)) == nil)
    }
}
