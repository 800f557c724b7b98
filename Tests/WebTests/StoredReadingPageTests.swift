import AASA
import AssetLinks
import Foundation
@testable import Store
import Testing
import TestSupport
import Vocabulary
@testable import Web

/// The domain page renders a stored file from the reading stored with its version
/// (`association_versions.reading`, written when the version was first stored), never from its bytes.
@Suite(.serialized) struct StoredReadingPageTests {
    static let older = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/product/*"}]}]}}"#.utf8)
    static let newer = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/help/*"}]}]}}"#.utf8)

    /// A reading changed in the database is what the page shows, though the bytes beside it say
    /// otherwise: the page did not parse them. Versions written without a reading (here by
    /// `insertCheck`, as by main before migration 0033) are read on the first view and written back.
    @Test func thePageShowsTheStoredReadingNotTheBytes() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            guard case .added(let id) = try db.importDomain(host: "shop.example", displayName: "shop.example", wildcard: false, appIDs: []) else {
                Issue.record("not registered")
                return
            }
            try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date().addingTimeInterval(-60), finishedAt: Date().addingTimeInterval(-59),
                                           verdict: .pass, originBody: Self.older, latencyMilliseconds: 40, changed: true))
            try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date(), finishedAt: Date(), verdict: .pass, originBody: Self.newer,
                                           latencyMilliseconds: 40, changed: true))
            let unread: SQL = "SELECT count(*)::int FROM association_versions WHERE reading IS NULL"
            #expect(try db.value(unread, as: Int.self) == 2)
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            let first = client.get("/domains/\(id)").bodyText
            #expect(first.contains("&quot;/&quot;: &quot;/help/*&quot;") || first.contains("\"/\": \"/help/*\""), "the current file, pretty")
            #expect(first.contains("rule removed"))
            #expect(try db.value(unread, as: Int.self) == 0, "both versions read once, on the first view, and written back")

            // Doctor the stored readings: the current file's first line, and the older file's document.
            try db.execute("""
                UPDATE association_versions SET reading = jsonb_set(reading, '{text,text}', to_jsonb('STORED READING LINE'
                  || substr(reading #>> '{text,text}', strpos(reading #>> '{text,text}', E'\n')))) WHERE sha256 = $1
                """, SHA256.hex(Self.newer))
            try db.execute("UPDATE association_versions SET reading = jsonb_set(reading, '{document}', 'null') WHERE sha256 = $1",
                           SHA256.hex(Self.older))
            let page = client.get("/domains/\(id)").bodyText
            #expect(page.contains("<span class=\"line\">STORED READING LINE</span>"))
            #expect(page.contains("The old file could not be read; the new one can."))
            #expect(!page.contains("rule removed"))
            // The raw download still serves the bytes, byte for byte.
            #expect(client.get("/versions/\(SHA256.hex(Self.newer))").body == Self.newer)
        }
    }

    /// The URL tester asks a registered domain's file as the domain page shows it: its stored reading,
    /// not its bytes. With the reading's document doctored to another version's, the tester answers by
    /// the doctored one; the problems listed are those the check found in the file itself (a parser's
    /// finding), not in how it was served (a transport one). A pasted file is still read as pasted.
    @Test func theURLTesterAsksTheStoredReadingNotTheBytes() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            guard case .added(let id) = try db.importDomain(host: "shop.example", displayName: "shop.example", wildcard: false, appIDs: []) else {
                Issue.record("not registered")
                return
            }
            try db.insertCheck(NewCheckRow(domainID: id, startedAt: Date(), finishedAt: Date(), verdict: .warn, originBody: Self.newer,
                                           findings: [Finding(code: "content-type-not-json", severity: .warning, message: "Served as text/plain."),
                                                      Finding(code: "unknown-key", severity: .warning, message: "An unknown key.")],
                                           latencyMilliseconds: 40, changed: true))
            var client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            client.get("/tester")
            func test(_ url: String, pasted: String = "") -> String {
                client.post("/tester", [("url", url), ("domain", String(id)), ("aasa", pasted)]).bodyText
            }
            /// Another app on the same database (a restart): it has read no document yet.
            func restart() {
                client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
                _ = client.logIn(email: "admin@example.com", password: "correct horse battery")
                client.get("/tester")
            }
            let first = test("https://shop.example/help/1")
            #expect(first.contains("Opens <code>ABCDE12345.com.example.app</code>"), "the stored file: /help/*")
            #expect(first.contains("warning: An unknown key.") && !first.contains("Served as text/plain."), "the file's own problems only")
            #expect(try db.value("SELECT count(*)::int FROM association_versions WHERE reading IS NULL", as: Int.self) == 0,
                    "an unread version is read once, by its first reader, and written back")

            let older = try StoredJSON.encode(try #require(VersionReading(aasa: Self.older).document))
            try db.execute("UPDATE association_versions SET reading = jsonb_set(reading, '{document}', $2::jsonb) WHERE sha256 = $1",
                           SHA256.hex(Self.newer), older)
            // A version's document never changes, so an app decodes it once (RecentDocuments).
            #expect(test("https://shop.example/help/1").contains("Opens <code>ABCDE12345.com.example.app</code>"),
                    "the same app answers by the document it read")
            restart()
            #expect(test("https://shop.example/product/1").contains("Opens <code>ABCDE12345.com.example.app</code>"), "the stored reading answers")
            #expect(test("https://shop.example/help/1").contains("No app opens this URL"), "not the bytes beside it")
            #expect(test("https://shop.example/help/1", pasted: String(decoding: Self.newer, as: UTF8.self)).contains("Opens <code>"),
                    "a pasted file is read as pasted")
            // It decodes the reading's document alone, not its text (most of a reading): with the text
            // spoiled the domain page cannot read the version, the tester still can.
            try db.execute(#"UPDATE association_versions SET reading = jsonb_set(reading, '{text}', '"spoiled"') WHERE sha256 = $1"#,
                           SHA256.hex(Self.newer))
            restart()
            #expect(test("https://shop.example/product/1").contains("Opens <code>ABCDE12345.com.example.app</code>"),
                    "the document alone is decoded")
        }
    }

    /// By types: what the page is built from holds no bytes, and the diffs take stored readings, so
    /// the view has nothing to hand a parser. (This does not compile if either takes bytes again.)
    @Test func theViewTakesReadingsNotBytes() {
        let apple: (VersionReading<AASADocument>, VersionReading<AASADocument>, String, String, [String]) -> DomainPageModel.DiffView
            = DomainPageBuilder.compare
        let android: (VersionReading<AssetLinksFile>, VersionReading<AssetLinksFile>, String, String, [String]) -> DomainPageModel.DiffView
            = AndroidPanel.compare
        let file = DomainPageModel.FileView(text: FileText(pretty: false, lines: [.init(text: "as stored", pointer: "")]),
                                            size: 9, hash: "ab", firstSeen: 0)
        #expect(file.text.lines.map(\.text) == ["as stored"])
        let diff = apple(VersionReading(aasa: Self.older), VersionReading(aasa: Self.newer), "a", "b", ["https://shop.example/product/1"])
        #expect(diff.watched.map(\.after) == ["stays in the browser"])
        let none = android(VersionReading(assetLinks: Array("[]".utf8)), VersionReading(assetLinks: Array("x".utf8)), "a", "b", [])
        #expect(none.behavioural == ["The new file cannot be read: Android verifies no app for this host."])
    }
}
