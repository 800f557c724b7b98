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

    /// The Certificate row names what the certificate is for (its SANs, else its subject's CN) and its
    /// issuer; the expiry follows (issue #32: the row showed the issuer alone).
    @Test func theCertificateRowNamesTheSubjectTheIssuerAndTheExpiry() throws {
        var facts = TransportFacts(location: .wellKnown, url: "https://shop.example/.well-known/apple-app-site-association", status: 200)
        let notAfter = Date(timeIntervalSince1970: 1_796_256_000)  // 2026-12-03
        facts.tls = TLSFacts(trusted: true, subject: "CN = shop.example", subjectAltNames: ["shop.example", "www.shop.example"],
                             issuer: "C = US, O = Example CA, CN = R3", notAfter: notAfter)
        func page(_ facts: TransportFacts) -> String {
            DomainPage.locationCard(DomainPageModel.LocationView(facts, versionHash: nil), now: 1_796_256_000 - 5 * 86_400).rendered
        }
        let withNames = page(facts)
        #expect(withNames.contains("<dt>Certificate</dt><dd>for <span class=\"mono\">shop.example, www.shop.example</span>; issued by C = US, O = Example CA, CN = R3</dd>"), "\(withNames)")
        #expect(withNames.contains("<dt>Expires</dt><dd>2026-12-03 (5 days)</dd>"), "\(withNames)")
        // A certificate without SANs is for its subject's CN.
        facts.tls?.subjectAltNames = []
        facts.tls?.subject = "C=DE, CN=legacy.example"
        #expect(page(facts).contains("for <span class=\"mono\">legacy.example</span>; issued by"))
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
