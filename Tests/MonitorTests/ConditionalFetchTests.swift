import Fetch
import Foundation
import Outbound
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Monitor

/// Conditional fetches and kept connections against the real fleet (nginx answers ETag/304 itself)
/// and a real database: what a settled check saves, and that the saving hides no change.
@Suite(.serialized) struct ConditionalFetchTests {
    static let path = "/.well-known/apple-app-site-association"

    /// One fetcher for every round, as a worker has: connections and TLS sessions live between checks.
    func withPipeline(cadence: SecondaryCadence = SecondaryCadence(),
                      _ body: (TestTLSFleet, Database, CheckPipeline) async throws -> Void) async throws {
        try await TestTLSFleet.with { fleet in
            try writeDefaultFile(fleet, shopFile())
            let fetcher = try fleetFetcher(fleet)
            defer { fetcher.shutdown() }
            try await TestPostgres.withDatabase { database in
                try await body(fleet, database, CheckPipeline(database: database, fetcher: fetcher, cadence: cadence))
            }
        }
    }

    func round(_ fleet: TestTLSFleet, _ pipeline: CheckPipeline) async throws -> ([FleetRequest], CheckPipeline.Result) {
        let before = fleet.requests().count
        try makeAllDue(pipeline.database)
        let results = try await checkDueDomains(pipeline)
        let result = try #require(results.first?.1)
        return (Array(fleet.requests().dropFirst(before)), result)
    }

    func aasa(_ requests: [FleetRequest], _ host: String) -> [FleetRequest] {
        requests.filter { $0.host == host && $0.uri == Self.path && $0.userAgent.hasPrefix("AASA-Bot") }
    }

    @Test func anUnchangedFileIsA304AndAChangedOneANewVersion() async throws {
        try await withPipeline { fleet, database, pipeline in
            let host = "good.fleet.test"
            _ = try database.importDomain(host: host, displayName: host, wildcard: false, appIDs: [])
            let (first, firstResult) = try await round(fleet, pipeline)
            #expect(aasa(first, host).map(\.status) == [200])
            let etag = try #require(firstResult.step.check.apple?.wellKnownETag)
            #expect(etag.hasPrefix("\""), "nginx's own strong ETag: \(etag)")

            // Unchanged: asked with If-None-Match, answered 304, the stored result stands.
            let (second, secondResult) = try await round(fleet, pipeline)
            #expect(aasa(second, host).map(\.status) == [304], "\(second)")
            #expect(secondResult.step.check.apple?.versionSHA256 == firstResult.step.check.apple?.versionSHA256)
            #expect(secondResult.step.check.apple?.findings == firstResult.step.check.apple?.findings)
            #expect(secondResult.step.changes.isEmpty)
            #expect(try count(database, "SELECT count(*)::int FROM association_versions") == 1)
            #expect(try count(database, "SELECT count(*)::int FROM check_repeats") == 1, "a 304 is an unchanged repeat")

            // The file changes: nginx's ETag changes with it, so the next check gets a 200 and sees it.
            let changed = shopFile(apps: ["ABCDE12345.shop", "ABCDE12345.other"])
            try fleet.serve(Array(changed.utf8), at: Self.path, on: "good")
            let (third, thirdResult) = try await round(fleet, pipeline)
            #expect(aasa(third, host).map(\.status) == [200], "\(third)")
            #expect(thirdResult.step.check.apple?.versionSHA256 == SHA256.hex(Array(changed.utf8)))
            #expect(thirdResult.step.changes.contains { if case .versionChanged = $0 { true } else { false } })
            #expect(try count(database, "SELECT count(*)::int FROM association_versions") == 2)
        }
    }

    /// nginx's ETag is the file's modification second and size: a same-size rewrite within the second
    /// the file was served keeps it. Such an ETag (Last-Modified not before Date) is not trusted, so
    /// the next check fetches in full and sees the rewrite. The clash is made certain here by giving
    /// both versions one modification time, an hour ahead (as a clock ahead of the server's would).
    @Test func anETagOfAFileModifiedWhileServedIsNotTrusted() async throws {
        try await withPipeline { fleet, database, pipeline in
            let host = "good.fleet.test"
            let modified = Date().addingTimeInterval(3600)
            try fleet.serve(Array(shopFile(apps: ["ABCDE12345.shop"]).utf8), at: Self.path, on: "good", modified: modified)
            _ = try database.importDomain(host: host, displayName: host, wildcard: false, appIDs: [])
            let (_, firstResult) = try await round(fleet, pipeline)
            #expect(firstResult.step.check.apple?.versionSHA256 != nil)
            #expect(firstResult.step.check.apple?.wellKnownETag == nil, "modified while served: no validator kept")

            let sameSize = shopFile(apps: ["ABCDE12345.shoq"])
            try fleet.serve(Array(sameSize.utf8), at: Self.path, on: "good", modified: modified)
            let (second, secondResult) = try await round(fleet, pipeline)
            #expect(aasa(second, host).map(\.status) == [200], "asked in full: \(second)")
            #expect(secondResult.step.check.apple?.versionSHA256 == SHA256.hex(Array(sameSize.utf8)))
            #expect(try count(database, "SELECT count(*)::int FROM association_versions") == 2)
        }
    }

    /// A server whose 304 is wrong hides a change from conditional fetches only: the daily full fetch
    /// (and `--full-fetch-interval 0`, every check) sees the file Apple's fetcher sees.
    @Test func aWrong304IsCaughtByTheFullFetchCadence() async throws {
        try await withPipeline { fleet, database, pipeline in
            let host = "stale304.fleet.test"
            _ = try database.importDomain(host: host, displayName: host, wildcard: false, appIDs: [])
            let (_, firstResult) = try await round(fleet, pipeline)
            let changed = shopFile(apps: ["ABCDE12345.shop", "ABCDE12345.other"])
            try fleet.serve(Array(changed.utf8), at: Self.path, on: "stale304")
            let (second, secondResult) = try await round(fleet, pipeline)
            #expect(aasa(second, host).map(\.status) == [304], "the server's wrong 304: \(second)")
            #expect(secondResult.step.check.apple?.versionSHA256 == firstResult.step.check.apple?.versionSHA256)
            // The full fetch's cadence comes round (the time is on the domain, as a restarted worker reads it).
            try database.execute("UPDATE domains SET full_fetch_at = now() - interval '25 hours'")
            let (third, thirdResult) = try await round(fleet, pipeline)
            #expect(aasa(third, host).map(\.status) == [200], "\(third)")
            #expect(thirdResult.step.check.apple?.versionSHA256 == SHA256.hex(Array(changed.utf8)))
        }
    }

    /// Between full handshakes the `.well-known` fetch rides on the kept connection (or resumes the
    /// session), and still reports the certificate; when the cadence comes round it makes its own
    /// handshake again. Counted from nginx's log: a request on a new connection is its first
    /// (`$connection_requests` 1), a resumed session is `r`.
    @Test func theCertificateIsReadOnAFullHandshakeAtItsCadence() async throws {
        try await withPipeline { fleet, database, pipeline in
            let host = "good.fleet.test"
            _ = try database.importDomain(host: host, displayName: host, wildcard: false, appIDs: [])
            let (first, firstResult) = try await round(fleet, pipeline)
            let opened = try #require(aasa(first, host).first)
            #expect(opened.connectionRequest == 1 && !opened.sessionReused, "a full handshake: \(opened)")
            let certificate = try #require(firstResult.step.check.certificate)
            #expect(certificate.trusted && certificate.notAfter != nil)

            let (second, secondResult) = try await round(fleet, pipeline)
            let kept = try #require(aasa(second, host).first)
            #expect(kept.connectionRequest > 1 || kept.sessionReused, "no full handshake between cadences: \(kept)")
            #expect(secondResult.step.check.certificate == certificate)

            try database.execute("UPDATE domains SET certificate_read_at = now() - interval '7 hours'")
            let (third, thirdResult) = try await round(fleet, pipeline)
            let fresh = try #require(aasa(third, host).first)
            #expect(fresh.connectionRequest == 1 && !fresh.sessionReused, "the cadence's full handshake: \(fresh)")
            #expect(thirdResult.step.check.certificate == certificate)
        }
    }

    /// With every cadence at 0 (the behaviour before), each check makes its full handshake and an
    /// unconditional fetch.
    @Test func zeroCadencesHandshakeAndFetchInFullEveryCheck() async throws {
        try await withPipeline(cadence: .everyCheck) { fleet, database, pipeline in
            let host = "good.fleet.test"
            _ = try database.importDomain(host: host, displayName: host, wildcard: false, appIDs: [])
            for _ in 0..<3 {
                let (requests, _) = try await round(fleet, pipeline)
                let own = try #require(aasa(requests, host).first)
                #expect(own.status == 200 && own.connectionRequest == 1 && !own.sessionReused, "\(own)")
            }
        }
    }
}
