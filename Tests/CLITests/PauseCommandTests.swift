import Foundation
import Store
import TestSupport
import Testing

@Suite struct PauseCommandTests {
    /// `pause HOST…` and `resume HOST…` through the built binary: each registered host is paused
    /// (Unicode or Punycode as typed), one that is not registered is named and exits 1, and a
    /// resumed domain is due at once.
    @Test func pauseAndResumeByHost() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let imported = try BuiltCommand.run(["import", "-", "--database-url", database.url], stdin: Array("bücher.example\nother.example\n".utf8))
        #expect(imported.status == 0, "\(imported.stderr)")

        let paused = try BuiltCommand.run(["pause", "Bücher.example", "other.example", "missing.example", "--database-url", database.url])
        #expect(paused.status == 1)
        #expect(paused.stdout.contains("paused xn--bcher-kva.example") && paused.stdout.contains("paused other.example"), "\(paused.stdout)")
        #expect(paused.stderr.contains("missing.example is not registered"), "\(paused.stderr)")

        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        #expect(try db.domain(host: "xn--bcher-kva.example")?.paused == true)
        #expect(try db.domain(host: "other.example")?.paused == true)

        // "check now" on a paused host says it is paused (and requests nothing), not "requested".
        let checkNow = try BuiltCommand.run(["check-now", "other.example", "--database-url", database.url])
        #expect(checkNow.status == 1)
        #expect(!checkNow.stdout.contains("requested"), "\(checkNow.stdout)")
        #expect(checkNow.stderr.contains("other.example is paused: resume it to check it"), "\(checkNow.stderr)")
        #expect(try db.domain(host: "other.example")?.checkRequestedAt == nil)

        try db.execute("UPDATE domains SET next_check_at = now() + interval '1 hour'")
        let resumed = try BuiltCommand.run(["resume", "xn--bcher-kva.example", "--database-url", database.url])
        #expect(resumed.status == 0 && resumed.stdout.contains("resumed xn--bcher-kva.example"), "\(resumed.stderr)")
        let domain = try #require(try db.domain(host: "xn--bcher-kva.example"))
        #expect(!domain.paused && domain.nextCheckAt <= Date(), "resumed: due at once")
        #expect(try db.domain(host: "other.example")?.paused == true)
    }
}
