import Vocabulary
import AASA
import Foundation
import Testing
@testable import Monitor

@Suite struct CheckSummaryFactsTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let tls = TLSFacts(trusted: true, notAfter: Date(timeIntervalSince1970: 1_800_000_000))
    func fakeSHA(_ bytes: [UInt8]) -> String { "sha-of-\(bytes.count)" }

    @Test func servedFileAtWellKnown() {
        let wellKnown = TransportFacts(location: .wellKnown, url: "https://e.example/.well-known/apple-app-site-association",
                                       status: 200, body: Array("{}".utf8), tls: tls)
        let cdn = TransportFacts(location: .cdn, url: "https://cdn/a/v1/e.example", status: 200, body: Array("{}".utf8))
        let document = AASADocument(applinks: AppLinks(details: []))
        let summary = CheckSummary(checkedAt: now, wellKnown: wellKnown, root: nil, cdn: cdn, deviceLocation: .wellKnown,
                                   document: document, findings: [], verdict: .pass, expectations: ExpectationResults(),
                                   sha256: fakeSHA)
        #expect(summary.apple?.originReachable == true && summary.apple?.documentParsed == true)
        #expect(summary.apple?.versionSHA256 == "sha-of-2")
        #expect(summary.apple?.applinksDetailCount == 0)
        #expect(summary.certificate == CertificateSummary(trusted: true, notAfter: tls.notAfter))
        #expect(summary.apple?.cdn == CDNSummary(served: true, failureReason: nil, matchesOrigin: true, versionSHA256: "sha-of-2"))
    }

    @Test func unreachableOriginKeepsNoVersion() {
        let wellKnown = TransportFacts(location: .wellKnown, url: "u", failure: FetchFailure(kind: .refused, message: "refused"))
        let summary = CheckSummary(checkedAt: now, wellKnown: wellKnown, root: nil, cdn: nil, deviceLocation: nil,
                                   document: nil, findings: [], verdict: .fail, expectations: ExpectationResults(),
                                   sha256: fakeSHA)
        #expect(summary.apple?.originReachable == false && summary.apple?.documentParsed == false)
        #expect(summary.apple?.versionSHA256 == nil && summary.certificate == nil && summary.apple?.cdn == nil)
    }

    @Test func status404IsReachableButServesNothing() {
        let wellKnown = TransportFacts(location: .wellKnown, url: "u", status: 404, tls: tls)
        let summary = CheckSummary(checkedAt: now, wellKnown: wellKnown, root: nil, cdn: nil, deviceLocation: nil,
                                   document: nil, findings: [], verdict: .fail, expectations: ExpectationResults(),
                                   sha256: fakeSHA)
        #expect(summary.apple?.originReachable == true && summary.apple?.versionSHA256 == nil)
        #expect(summary.certificate?.trusted == true)
    }

    @Test(arguments: [
        (200, ["apple-failure-reason": "SSL error"], "SSL error"),
        (404, [String: String](), "HTTP 404"),
    ])
    func cdnFailureReasons(status: Int, headers: [String: String], reason: String) {
        let cdn = TransportFacts(location: .cdn, url: "c", status: status, headers: headers)
        let summary = CDNSummary(facts: cdn, findings: [], sha256: { _ in "x" })
        #expect(!summary.served && summary.failureReason == reason && summary.versionSHA256 == nil)
    }

    @Test func servedCDNFileHasAVersion() {
        let cdn = TransportFacts(location: .cdn, url: "c", status: 200, body: [1, 2])
        #expect(CDNSummary(facts: cdn, findings: [], sha256: { "sha\($0.count)" }).versionSHA256 == "sha2")
    }

    @Test func cdnStaleFindingMeansNotMatching() {
        let cdn = TransportFacts(location: .cdn, url: "c", status: 200, body: [1])
        #expect(!CDNSummary(facts: cdn, findings: [finding("cdn-stale", .warning)], sha256: { _ in "x" }).matchesOrigin)
    }
}
