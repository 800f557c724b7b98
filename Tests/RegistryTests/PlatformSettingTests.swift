import ConfigFile
import Registry
import Store
import Testing
import TestSupport
import Vocabulary

/// The per-domain platform setting through the one way in: the form's, the API's, the import's and
/// the config file's registrations store it, refuse an unknown word beside its field, and an edit
/// that leaves it out keeps it.
@Suite struct PlatformSettingTests {
    @Test func registerStoresItEditWithoutItKeepsItAndAnUnknownWordIsRefused() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let plain = try registry.register(Registration(host: "plain.example", intervalMinutes: 60))
            #expect(try db.domain(id: plain)?.platforms == .both, "left out: both, what ran before the setting")
            let id = try registry.register(Registration(host: "droid.example", intervalMinutes: 60, platforms: " Android "))
            #expect(try db.domain(id: id)?.platforms == .android)
            try registry.edit(domainID: id, Registration(host: "", intervalMinutes: 15))
            #expect(try db.domain(id: id)?.platforms == .android, "an edit that leaves it out keeps it")
            try registry.edit(domainID: id, Registration(host: "", intervalMinutes: 15, platforms: "apple"))
            #expect(try db.domain(id: id)?.platforms == .apple)
            #expect(throws: RegistrationError.invalid([.platforms: "Unknown platforms \"ios\"; write both, apple or android."])) {
                try registry.register(Registration(host: "ios.example", intervalMinutes: 60, platforms: "ios"))
            }
            let report = try registry.importList("imported.example\n", platforms: .apple)
            #expect(report.added == ["imported.example"])
            #expect(try db.domain(host: "imported.example")?.platforms == .apple)
        }
    }

    @Test func theConfigFileSetsItAndExportsItOnlyWhenChosen() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let text = """
                version: 1
                domains:
                  - host: droid.example
                    platforms: android
                  - host: plain.example
                """
            let document = try ConfigReader.read(Array(text.utf8), environment: [:]).get()
            #expect(document.domains.map(\.platforms) == ["android", nil])
            _ = try registry.apply(document)
            #expect(try db.domain(host: "droid.example")?.platforms == .android)
            #expect(try db.domain(host: "plain.example")?.platforms == .both)
            let exported = try registry.exportConfig()
            #expect(exported.domains.map(\.platforms) == ["android", nil], "the default is left out of an export")
            let yaml = try ConfigWriter.yaml(exported)
            #expect(yaml.contains("platforms: android"))
            var bad = document
            bad.domains[0].platforms = "windows"
            bad.domains[0].lines.platforms = 5
            do {
                _ = try registry.apply(bad)
                Issue.record("an unknown word was applied")
            } catch let refusal as ConfigRefusal {
                #expect(refusal.problems.map(\.line) == [5], "named at its line: \(refusal.problems)")
            }
        }
    }
}
