import AASA
import Foundation
import Testing
import Vocabulary

/// Apple's exact limits as the iOS 26.1 downloader (swcd) applies them: a file is refused only above
/// 131,072 bytes, so nothing is said of one up to that size, by the validator or the transport rules.
@Suite struct AppleLimitsTests {
    static let sizeCodes: Set<String> = ["size-over-128k", "size-near-128k"]

    func sizeCodes(validating size: Int) -> Set<String> {
        Set(AASAValidator.validate(FindingCodeCase.padded(to: size)).findings.map(\.code)).intersection(Self.sizeCodes)
    }

    func sizeCodes(served size: Int) -> Set<String> {
        let body = FindingCodeCase.padded(to: size)
        let facts = FindingCodeCase.served(body: body)
        return Set(TransportValidator.findings(for: facts).map(\.code)).intersection(Self.sizeCodes)
    }

    @Test(arguments: [128_000, 128_001, 130_000, 131_072])
    func aFileUpTo131072BytesGetsNoSizeFinding(size: Int) {
        #expect(sizeCodes(validating: size).isEmpty, "\(size)")
        #expect(sizeCodes(served: size).isEmpty, "\(size)")
    }

    @Test func oneByteMoreIsRefused() throws {
        #expect(sizeCodes(validating: 131_073) == ["size-over-128k"])
        #expect(sizeCodes(served: 131_073) == ["size-over-128k"])
        let finding = try #require(AASAValidator.validate(FindingCodeCase.padded(to: 131_073)).findings.first { $0.code == "size-over-128k" })
        #expect(finding.severity == .error && finding.message.contains("131,072 bytes"))
    }

    /// A whole check of a 131,072-byte file passes: no size warning reaches the verdict.
    @Test func aCheckOfAFileAtTheLimitPasses() {
        let facts = FindingCodeCase.served(body: FindingCodeCase.padded(to: 131_072))
        let report = CheckEvaluation.evaluate(wellKnown: facts, root: nil, cdn: nil)
        #expect(report.findings.filter { Self.sizeCodes.contains($0.code) }.isEmpty)
        #expect(!FindingCatalog.all.contains { $0.code == "size-near-128k" })
    }
}

/// Redirects as devices meet them: through Apple's CDN a 3xx is an error unless the CDN's answer
/// shows it followed it (`Apple-From` lists the origin's URL and another); on the direct route
/// (`?mode=`) an https redirect is followed and is a warning.
@Suite struct AppleRedirectRulesTests {
    static let origin = FindingCodeCase.wellKnownURL
    static let www = "https://www.example.com/.well-known/apple-app-site-association"
    static let cdnURL = "https://app-site-association.cdn-apple.com/a/v1/example.com"

    static func redirect(_ status: Int = 308, to target: String = www) -> TransportFacts {
        var facts = FindingCodeCase.served(status: status, headers: ["location": target], body: Array("<html>moved</html>".utf8))
        facts.redirectTarget = target
        return facts
    }

    static func cdn(from: String?, status: Int = 200, reason: String? = nil) -> TransportFacts {
        var headers = ["content-type": "application/json"]
        if let from { headers["apple-from"] = from }
        if let reason { headers["apple-failure-reason"] = reason }
        return FindingCodeCase.served(.cdn, url: cdnURL, status: status, headers: headers)
    }

    func evaluate(_ wellKnown: TransportFacts, cdn: TransportFacts?) -> CheckReport {
        CheckEvaluation.evaluate(wellKnown: wellKnown, root: FindingCodeCase.served(.root, url: "https://example.com/apple-app-site-association", status: 308),
                                 cdn: cdn)
    }

    @Test func aCDNThatFollowedTheRedirectMakesItAWarning() throws {
        let report = evaluate(Self.redirect(), cdn: Self.cdn(from: "\(Self.origin), \(Self.www)"))
        // Besides the document's own infos (it names no applinks.apps), only the redirect's word.
        #expect(report.findings.filter { $0.severity != .info }.map(\.code) == ["redirect-followed"], "\(report.codes)")
        #expect(report.verdict == .warn && report.deviceLocation == .cdn)
        #expect(report.document?.applinks?.details.count == 1, "the CDN's copy is the document devices read")
        let finding = try #require(report.findings.first { $0.code == "redirect-followed" })
        #expect(finding.message == "\(Self.origin) answers 308. Apple documents redirects as unsupported; Apple's CDN currently follows this one — Apple-From lists both URLs (\(Self.origin), \(Self.www)) — so devices get the file, for as long as the CDN keeps doing so.")
    }

    @Test(arguments: [
        ("one URL", AppleRedirectRulesTests.cdn(from: AppleRedirectRulesTests.origin)),
        ("no Apple-From", AppleRedirectRulesTests.cdn(from: nil)),
        ("other URLs", AppleRedirectRulesTests.cdn(from: "https://a.example/x, https://b.example/y")),
        ("a failure", AppleRedirectRulesTests.cdn(from: "\(AppleRedirectRulesTests.origin), \(AppleRedirectRulesTests.www)", status: 404, reason: "SWCERR00101 Bad HTTP Response: 308")),
        ("a failure reason on a 200", AppleRedirectRulesTests.cdn(from: "\(AppleRedirectRulesTests.origin), \(AppleRedirectRulesTests.www)", reason: "SWCERR00101 Bad HTTP Response: 308")),
    ] as [(String, TransportFacts)])
    func withoutTheCDNsWordTheRedirectStaysAnError(_ label: String, cdn: TransportFacts) throws {
        let report = evaluate(Self.redirect(), cdn: cdn)
        #expect(report.codes.contains("redirect-not-allowed") && !report.codes.contains("redirect-followed"), "\(label)")
        #expect(report.verdict == .fail, "\(label)")
        let finding = try #require(report.findings.first { $0.code == "redirect-not-allowed" })
        #expect(finding.message == "HTTP 308 redirect at \(Self.origin) to \(Self.www); Apple documents redirects as unsupported, and devices get no file through this one.", "\(label)")
    }

    @Test func noCDNAnswerIsNoWord() {
        #expect(evaluate(Self.redirect(), cdn: nil).codes == ["redirect-not-allowed"])
    }

    @Test func aRedirectToPlainHTTPSaysSo() throws {
        let report = evaluate(Self.redirect(301, to: "http://example.com/.well-known/apple-app-site-association"), cdn: nil)
        let finding = try #require(report.findings.first { $0.code == "redirect-not-allowed" })
        #expect(finding.message.hasSuffix("Apple fetches association files over HTTPS only and follows no redirect to plain HTTP, so devices get no file."))
    }

    @Test func theDirectRouteFollowsHTTPSRedirectsOnly() {
        #expect(DirectRoute.nextURL(after: Self.redirect(301)) == Self.www)
        for status in [302, 303, 307, 308] { #expect(DirectRoute.nextURL(after: Self.redirect(status)) == Self.www) }
        #expect(DirectRoute.nextURL(after: Self.redirect(300)) == nil)
        #expect(DirectRoute.nextURL(after: Self.redirect(304)) == nil)
        #expect(DirectRoute.nextURL(after: Self.redirect(301, to: "http://www.example.com/x")) == nil)
        #expect(DirectRoute.nextURL(after: Self.redirect(301, to: "HTTPS://www.example.com/x")) == "HTTPS://www.example.com/x")
        #expect(DirectRoute.nextURL(after: FindingCodeCase.served()) == nil)
        var relative = Self.redirect(301)
        relative.redirectTarget = nil
        #expect(DirectRoute.nextURL(after: relative) == nil, "only curl's absolute target is followed")
        var many = Self.redirect(301)
        many.followedRedirects = Array(repeating: FollowedRedirect(url: Self.origin, status: 301, location: Self.www), count: DirectRoute.maxRedirects)
        #expect(DirectRoute.nextURL(after: many) == nil)
    }

    /// What the fetcher hands over after following: the last hop's answer with the chain.
    @Test func aFollowedRedirectIsAWarningBesideTheAnswersOwnFindings() throws {
        var final = FindingCodeCase.served(url: Self.www)
        final.followedRedirects = [FollowedRedirect(url: Self.origin, status: 301, location: Self.www)]
        let report = CheckEvaluation.evaluate(wellKnown: final, root: nil, cdn: nil)
        #expect(report.findings.filter { $0.severity != .info }.map(\.code) == ["redirect-followed"], "\(report.codes)")
        #expect(report.verdict == .warn && report.deviceLocation == .wellKnown)
        #expect(report.findings.first { $0.code == "redirect-followed" }?.message == "\(Self.origin) redirects (301 → \(Self.www)). Apple documents redirects as unsupported; a device fetching the file directly (an entitlement's ?mode=developer or managed) follows an https redirect, so it read \(Self.www).")
        var missing = FindingCodeCase.served(url: Self.www, status: 404)
        missing.followedRedirects = final.followedRedirects
        #expect(Set(CheckEvaluation.evaluate(wellKnown: missing, root: nil, cdn: nil).codes) == ["redirect-followed", "http-status"],
                "a 404 where the redirect led: the chain and the status")
    }
}
