import ConfigFile
import Foundation
import Registry
import Store
import Testing
import TestSupport
import Vocabulary

/// `paused:` on a domain in a config file, on a real PostgreSQL: apply pauses a new or existing domain
/// (saying so in its plan), leaves it as it is when the file does not say, resumes it due at once,
/// and export writes it back for a paused domain only.
@Suite struct PauseConfigTests {
    static func document(_ text: String) throws -> ConfigDocument {
        try ConfigReader.read(Array(text.utf8), environment: [:]).get()
    }

    @Test func applyPausesAndResumesAndExportWritesItBack() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let registry = DomainRegistry(store: db)
            let added = try registry.apply(try Self.document("""
                domains:
                  - host: paused.example
                    paused: true
                  - host: running.example
                """))
            #expect(added.applied && added.steps.first { $0.subject == .domain("paused.example") }?.details.contains("paused: true") == true)
            let paused = try #require(try db.domain(host: "paused.example"))
            #expect(paused.paused && paused.checkRequestedAt == nil, "a paused new domain is not asked to be checked")
            #expect(try db.domain(host: "running.example")?.paused == false)

            let exported = try ConfigWriter.yaml(try registry.exportConfig())
            #expect(exported.contains("- host: paused.example\n  interval_minutes: 60\n  badge: false\n  paused: true\n"), "\(exported)")
            #expect(!exported.contains("paused: false"))
            // Applying the export changes nothing; a file that leaves paused out leaves it as it is.
            #expect(try registry.apply(try Self.document(exported)).steps.isEmpty)
            #expect(try registry.apply(try Self.document("domains:\n  - host: paused.example\n")).steps.isEmpty)
            #expect(try db.domain(host: "paused.example")?.paused == true)

            try db.execute("UPDATE domains SET next_check_at = now() + interval '1 hour'")
            let resumed = try registry.apply(try Self.document("""
                domains:
                  - host: paused.example
                    paused: false
                  - host: running.example
                    paused: true
                """))
            #expect(resumed.steps.map(\.details) == [["paused: true → false"], ["paused: false → true"]], "\(resumed.steps)")
            let now = try #require(try db.domain(host: "paused.example"))
            #expect(!now.paused && now.nextCheckAt <= Date(), "resumed: due at once")
            #expect(try db.domain(host: "running.example")?.paused == true)

            let refused = ConfigReader.read(Array("domains:\n  - host: x.example\n    paused: sometimes\n".utf8), environment: [:])
            guard case .failure = refused else { Issue.record("paused: sometimes was read"); return }
        }
    }
}
