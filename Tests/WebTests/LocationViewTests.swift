import Vocabulary
import Foundation
import Testing
@testable import Web

@Suite struct LocationViewTests {
    /// The pipeline stores `TransportFacts` with the check (`CheckTransport`), timings in seconds.
    @Test func readsTheStoredTimingsInSecondsAsMilliseconds() throws {
        var facts = TransportFacts(location: .wellKnown, url: "https://example.com/.well-known/apple-app-site-association", status: 200)
        facts.timings = TransportTimings(dns: 0.001, connect: 0.002, tls: 0.010, firstByte: 0.020, total: 0.0234)
        let stored = CheckTransport(wellKnown: facts, deviceLocation: .wellKnown)
        let fact = try #require(stored.locations.first)
        let location = DomainPageModel.LocationView(fact, versionHash: "aaa")
        #expect(location.title == "Origin: /.well-known/apple-app-site-association")
        #expect(location.status == 200)
        let milliseconds = try #require(location.totalMilliseconds)
        #expect(abs(milliseconds - 23.4) < 0.001)
        #expect(location.phaseMilliseconds.map(\.name) == ["DNS", "connect", "TLS", "first byte"])
        #expect(zip(location.phaseMilliseconds.map(\.milliseconds), [1.0, 2, 10, 20]).allSatisfy { abs($0 - $1) < 0.001 })
    }

    @Test func thePageShowsThePhasesAndJudgesTheCDNByBehaviourNotBytes() {
        func location(_ title: String, hash: String, cdn: Bool) -> DomainPageModel.LocationView {
            .init(title: title, url: "https://example.com", status: 200, versionHash: hash, totalMilliseconds: 23.4,
                  phaseMilliseconds: [("DNS", 0.2), ("connect", 2), ("TLS", 10.4), ("first byte", 20)], isCDN: cdn)
        }
        func page(_ locations: [DomainPageModel.LocationView]) -> String {
            DomainPage.locations(DomainPageModel(id: 1, host: "example.com", displayHost: "example.com", state: .passing,
                                                 verdictSentence: "", checking: false, lastCheck: 1, nextCheck: 2,
                                                 locations: locations, now: 3)).rendered
        }
        let reencoded = page([location("origin", hash: "aaa", cdn: false), location("cdn", hash: "bbb", cdn: true)])
        #expect(reencoded.contains("DNS under 1 · connect 2 · TLS 10 · first byte 20"))
        #expect(reencoded.contains("bbb"), "the CDN's version is shown")
        #expect(!reencoded.contains("different files"))
        #expect(page([location("well-known", hash: "aaa", cdn: false), location("root", hash: "bbb", cdn: false)])
            .contains("different files"))
    }
}
