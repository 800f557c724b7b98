import AASA
import Foundation
import Testing
@testable import Web

@Suite struct TransportSummaryTests {
    /// The pipeline stores `TransportFacts` as encoded by Codable, timings in seconds.
    @Test func readsTheStoredTimingsInSecondsAsMilliseconds() throws {
        var facts = TransportFacts(location: .wellKnown, url: "https://example.com/.well-known/apple-app-site-association", status: 200)
        facts.timings = TransportTimings(dns: 0.001, connect: 0.002, tls: 0.010, firstByte: 0.020, total: 0.0234)
        let json = String(decoding: try JSONEncoder().encode(["wellKnown": facts]), as: UTF8.self)
        let location = try #require(TransportSummary(json: json).locations.first)
        #expect(location.key == "wellKnown")
        #expect(location.status == 200)
        let milliseconds = try #require(location.totalMilliseconds)
        #expect(abs(milliseconds - 23.4) < 0.001)
    }
}
