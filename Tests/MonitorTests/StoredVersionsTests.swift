import AASA
import AssetLinks
import Foundation
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Monitor

/// A stored association file is read once: by the pipeline when a domain first serves it, or — for a
/// version stored without a reading — by its first reader, which writes the reading back.
@Suite(.serialized) struct StoredVersionsTests {
    static let fingerprint = "AA:" + Array(repeating: "11", count: 31).joined(separator: ":")
    static let assetLinks = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\#(fingerprint)"]}}]"#

    func writeAssetLinks(_ fleet: TestTLSFleet, _ text: String) throws {
        try fleet.deploy(text, at: "/.well-known/assetlinks.json")
    }

    func stored<Document>(_ database: Database, _ key: VersionKey, _ type: Document.Type) throws -> VersionReading<Document>? {
        guard case .read(let reading)? = try database.versionReading(key, of: type) else { return nil }
        return reading
    }

    /// The check that first sees a file stores its reading with it, for both platforms; a later check
    /// of the same file leaves the stored reading alone (it is not read again), and a new file gets its own.
    @Test func theCheckThatFirstSeesAFileStoresItsReading() async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            try writeAssetLinks(fleet, Self.assetLinks)
            _ = try database.importDomain(host: "mutable.fleet.test", displayName: "mutable.fleet.test", wildcard: false, appIDs: [])
            _ = try await checkDueDomains(pipeline)
            let apple = VersionKey(.apple, sha256: SHA256.hex(Array(shopFile().utf8)))
            let android = VersionKey(.android, sha256: SHA256.hex(Array(Self.assetLinks.utf8)))
            #expect(try stored(database, apple, AASADocument.self) == VersionReading(aasa: Array(shopFile().utf8)))
            #expect(try stored(database, android, AssetLinksFile.self) == VersionReading(assetLinks: Array(Self.assetLinks.utf8)))
            #expect(try stored(database, apple, AASADocument.self)?.document?.applinks?.details.first?.appIDs == ["ABCDE12345.shop"])

            try database.execute("UPDATE association_versions SET reading = jsonb_set(reading, '{size}', '1') WHERE sha256 = $1", apple.sha256)
            try makeAllDue(database)
            _ = try await checkDueDomains(pipeline)
            #expect(try stored(database, apple, AASADocument.self)?.size == 1, "the same file is not read again")

            try writeDefaultFile(fleet, shopFile(excludeBuy: true))
            try makeAllDue(database)
            _ = try await checkDueDomains(pipeline)
            let changed = Array(shopFile(excludeBuy: true).utf8)
            #expect(try stored(database, VersionKey(.apple, sha256: SHA256.hex(changed)), AASADocument.self) == VersionReading(aasa: changed))
        }
    }

    /// A version stored without a reading (main before migration 0033; imports and seeding still)
    /// is read by its first reader, which writes the reading back; every later reader gets the stored one.
    @Test func aVersionWithoutAReadingIsReadOnceAndWrittenBack() throws {
        try TestPostgres.withDatabase { (database: Database) throws in
            let bytes = Array(shopFile().utf8)
            let key = VersionKey(.apple, sha256: SHA256.hex(bytes))
            try database.storeVersion(StoredBody(.apple, sha256: key.sha256, bytes: bytes), seenAt: Date())
            guard case .unread(let raw)? = try database.versionReading(key, of: AASADocument.self) else {
                Issue.record("a version stored without a reading reads as unread")
                return
            }
            #expect(raw == bytes)
            #expect(try StoredVersions.apple(key.sha256, in: database) == VersionReading(aasa: bytes))
            #expect(try stored(database, key, AASADocument.self) == VersionReading(aasa: bytes))

            try database.execute("UPDATE association_versions SET reading = jsonb_set(reading, '{size}', '7') WHERE sha256 = $1", key.sha256)
            #expect(try StoredVersions.apple(key.sha256, in: database)?.size == 7, "read from the column, not parsed again")
            // A writer that read the file does not overwrite a reading already stored.
            try database.storeVersion(try StoredBody(.apple, sha256: key.sha256, bytes: bytes, reading: VersionReading(aasa: bytes)), seenAt: Date())
            #expect(try stored(database, key, AASADocument.self)?.size == 7)
            #expect(try StoredVersions.apple(String(repeating: "0", count: 64), in: database) == nil)

            // Android's the same way, with its own core.
            let links = Array(Self.assetLinks.utf8)
            try database.storeVersion(StoredBody(.android, sha256: SHA256.hex(links), bytes: links), seenAt: Date())
            #expect(try StoredVersions.android(SHA256.hex(links), in: database)?.document?.packageNames == ["com.example.shop"])
            #expect(try database.value("SELECT count(*)::int FROM association_versions WHERE reading IS NULL", as: Int.self) == 0)
        }
    }
    /// The URL tester's read: a version's document alone. It decodes no text: with the reading's text
    /// spoiled the whole reading no longer decodes, the document still does. A file its core could not
    /// read is a version without a document (not "no version"), whether the reading has no document
    /// key or a JSON null; a version without a reading is read once and written back.
    @Test func theDocumentAloneIsReadWithoutTheText() throws {
        try TestPostgres.withDatabase { (database: Database) throws in
            let bytes = Array(shopFile().utf8)
            let key = VersionKey(.apple, sha256: SHA256.hex(bytes))
            try database.storeVersion(StoredBody(.apple, sha256: key.sha256, bytes: bytes), seenAt: Date())
            #expect(try StoredVersions.appleDocument(key.sha256, in: database) == .some(VersionReading(aasa: bytes).document))
            #expect(try database.value("SELECT count(*)::int FROM association_versions WHERE reading IS NULL", as: Int.self) == 0,
                    "an unread version is read once and written back")

            try database.execute(#"UPDATE association_versions SET reading = jsonb_set(reading, '{text}', '"spoiled"') WHERE sha256 = $1"#, key.sha256)
            #expect(throws: DatabaseError.self) { try StoredVersions.apple(key.sha256, in: database) }
            #expect(try StoredVersions.appleDocument(key.sha256, in: database)??.applinks?.details.first?.appIDs == ["ABCDE12345.shop"],
                    "the document decodes without the text")

            let junk = Array("not an association file".utf8)
            try database.storeVersion(try StoredBody(.apple, sha256: SHA256.hex(junk), bytes: junk, reading: VersionReading(aasa: junk)), seenAt: Date())
            #expect(try database.value("SELECT reading ? 'document' FROM association_versions WHERE sha256 = $1", SHA256.hex(junk), as: Bool.self) == false)
            guard case .some(nil) = try StoredVersions.appleDocument(SHA256.hex(junk), in: database) else {
                Issue.record("an unreadable file is a stored version without a document")
                return
            }
            try database.execute("UPDATE association_versions SET reading = jsonb_set(reading, '{document}', 'null') WHERE sha256 = $1", key.sha256)
            guard case .some(nil) = try StoredVersions.appleDocument(key.sha256, in: database) else {
                Issue.record("a JSON null document is no document")
                return
            }
            #expect(try StoredVersions.appleDocument(String(repeating: "0", count: 64), in: database) == nil)

            // Android's the same way, with its own core.
            let links = Array(Self.assetLinks.utf8)
            try database.storeVersion(StoredBody(.android, sha256: SHA256.hex(links), bytes: links), seenAt: Date())
            #expect(try StoredVersions.androidDocument(SHA256.hex(links), in: database)??.packageNames == ["com.example.shop"])
            #expect(try StoredVersions.androidDocument(SHA256.hex(links), in: database) == .some(VersionReading(assetLinks: links).document),
                    "read back from the reading written by the first read")
        }
    }
}
