import Fetch
import Foundation
import PublicSuffixes
import Testing
import TestSupport
import Vocabulary
import WebAuthn

/// `Fetcher.checkPasskeys` against the real TLS fleet: each web scenario of issue #33 is fetched as a
/// browser fetches `/.well-known/webauthn` and judged by the WebAuthn core end to end.
@Suite struct WebAuthnFleetTests {
    /// Every code each RP ID's check reports, and its verdict.
    static let expected: [String: (codes: Set<String>, verdict: Verdict)] = [
        "wa-good": (["change-password-missing"], .pass),
        "wa-plain": (["webauthn-content-type", "passkey-endpoints-missing", "change-password-missing"], .fail),
        "wa-redirecthttp": (["webauthn-redirect-insecure", "passkey-endpoints-missing", "change-password-missing"], .fail),
        "wa-sixlabels": (["webauthn-label-limit", "passkey-endpoints-missing", "change-password-missing"], .warn),
        "wa-redirect": (["webauthn-redirect-followed", "passkey-endpoints-missing", "change-password-missing"], .pass),
    ]

    static func rules() throws -> DomainRules {
        DomainRules(idna: LibIDN2(), suffixes: try #require(LibPSL(), "libpsl loaded no Public Suffix List"))
    }

    @Test func everyScenarioGetsItsFindings() async throws {
        let rules = try Self.rules()
        try await TestTLSFleet.with { fleet in
            #expect(Set(fleet.webScenarios) == Set(Self.expected.keys), "a scenario without expectations, or the reverse")
            let fetcher = try Fetcher(try FetchConfiguration.fleet(fleet))
            defer { fetcher.shutdown() }
            for (label, expected) in Self.expected.sorted(by: { $0.key < $1.key }) {
                let check = await fetcher.checkPasskeys(try RelyingPartyID(fleet.host(label), rules: rules), rules: rules)
                #expect(Set(check.evaluation.findings.map(\.code)) == expected.codes, "\(label): \(check.evaluation.findings)")
                #expect(check.evaluation.verdict == expected.verdict && !check.evaluation.couldNotCheck, "\(label)")
            }
        }
    }

    @Test func goodFileIsReadWithItsOriginsAndEndpoints() async throws {
        let rules = try Self.rules()
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(try FetchConfiguration.fleet(fleet))
            defer { fetcher.shutdown() }
            let check = await fetcher.checkPasskeys(try RelyingPartyID(fleet.host("wa-good"), rules: rules), rules: rules)
            #expect(check.webauthn.status == 200)
            #expect(check.webauthn.header("content-type") == "application/json")
            let report = try #require(check.evaluation.relatedOrigins)
            #expect(report.usableOrigins.compactMap(\.origin).map(\.description)
                    == ["https://shop.example.com", "https://www.example.co.uk", "https://brand.example.org"])
            #expect(report.walk.window == ["example"])
            #expect(check.evaluation.passkeyEndpoints?.endpoints == ["enroll": "https://wa-good.fleet.test/passkeys/new",
                                                                     "manage": "https://wa-good.fleet.test/passkeys"])
            #expect(check.probe?.status == 404)
        }
    }

    @Test func redirectToHTTPIsRecordedAndNotFetched() async throws {
        let rules = try Self.rules()
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(try FetchConfiguration.fleet(fleet))
            defer { fetcher.shutdown() }
            let check = await fetcher.checkPasskeys(try RelyingPartyID(fleet.host("wa-redirecthttp"), rules: rules), rules: rules)
            #expect(check.webauthn.status == 301)
            #expect(check.webauthn.followedRedirects?.map(\.location) == ["http://wa-good.fleet.test/.well-known/webauthn"])
            #expect(check.evaluation.relatedOrigins == nil, "an http hop is never read")
        }
    }

    @Test func httpsRedirectIsFollowedToTheFile() async throws {
        let rules = try Self.rules()
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(try FetchConfiguration.fleet(fleet))
            defer { fetcher.shutdown() }
            let check = await fetcher.checkPasskeys(try RelyingPartyID(fleet.host("wa-redirect"), rules: rules), rules: rules)
            #expect(check.webauthn.status == 200 && check.webauthn.url == "https://wa-good.fleet.test/.well-known/webauthn")
            #expect(check.webauthn.followedRedirects?.map(\.status) == [302])
            #expect(check.evaluation.relatedOrigins?.usableOrigins.count == 3)
        }
    }

    @Test func sixthLabelIsOutsideTheWindow() async throws {
        let rules = try Self.rules()
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(try FetchConfiguration.fleet(fleet))
            defer { fetcher.shutdown() }
            let check = await fetcher.checkPasskeys(try RelyingPartyID(fleet.host("wa-sixlabels"), rules: rules), rules: rules)
            let report = try #require(check.evaluation.relatedOrigins)
            #expect(report.walk.window == ["one", "two", "three", "four", "five"])
            #expect(report.walk.ignored.map(\.entry.text) == ["https://six.example"])
        }
    }

    /// The outbound guard applies as for the other fetches: the fleet is on loopback, which the
    /// default policy refuses, so nothing is fetched and the check could not be made.
    @Test func loopbackIsRefusedWithoutTheOptIn() async throws {
        let rules = try Self.rules()
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(try FetchConfiguration.fleet(fleet, allowPrivate: false))
            defer { fetcher.shutdown() }
            let check = await fetcher.checkPasskeys(try RelyingPartyID(fleet.host("wa-good"), rules: rules), rules: rules)
            #expect(check.webauthn.failure?.kind == .addressRefused)
            #expect(check.passkeyEndpoints == nil)
            #expect(check.evaluation.couldNotCheck)
            #expect(check.evaluation.findings.map(\.code) == ["fetch-failed"])
        }
    }
}
