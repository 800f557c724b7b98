import AASA
import Fetch
import Foundation
import TestSupport
import Testing

/// A fetcher that lives for many checks (the crawler's) keeps connections between them; every check
/// must still report the origin's certificate, or the dashboard loses it and expiry is judged on nothing.
/// (Apple's CDN connection is shared by every check on purpose; its certificate is not the user's.)
@Suite(.serialized) struct RepeatCheckTests {
    @Test func everyCheckOfTheSameHostReportsTheCertificate() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(.fleet(fleet))
            defer { fetcher.shutdown() }
            let host = try Host(fleet.host("both"))
            for round in 1...3 {
                let check = await fetcher.check(host)
                #expect(check.wellKnown.status == 200, "round \(round)")
                #expect(check.wellKnown.tls?.notAfter != nil, "round \(round): the well-known request has no certificate facts")
                #expect(check.root?.tls?.notAfter != nil, "round \(round): the root request has no certificate facts")
            }
        }
    }
}
