import Vocabulary
import AASA
import Foundation
import Testing
@testable import Monitor

/// One test per rule: each would fail if its rule stopped firing, or fired when it should not.
@Suite struct AlertRulesTests {
    let policy = AlertPolicy()
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func failingSubjects(_ check: RuleCheck) -> [String] { check.failures.map(\.subject) }

    @Test func originUnreachable() {
        #expect(AlertRules.originUnreachable(passingApple()).failures.isEmpty)
        let rule = AlertRules.originUnreachable(unreachableApple())
        #expect(rule.evaluated && rule.failures.count == 1)
        #expect(rule.failures[0].summary.contains("connection refused"))
    }

    @Test func originInvalidOnAnErrorFindingOnly() {
        var check = passingApple()
        check.findings = [finding("content-type-not-json", .warning), finding("root-path-deprecated", .deprecation)]
        #expect(AlertRules.originInvalid(check).failures.isEmpty)
        check.findings.append(finding("content-type-not-json", .error))
        #expect(AlertRules.originInvalid(check).failures.map(\.summary) == ["The file has errors: content-type-not-json."])
        // The CDN's errors are the lower tier's business.
        check.findings = [finding("cdn-failure", .error)]
        #expect(AlertRules.originInvalid(check).failures.isEmpty)
        // Unreachable: the unreachable rule speaks, this one holds.
        #expect(!AlertRules.originInvalid(unreachableApple()).evaluated)
    }

    @Test func appIDMissingPerServiceAndAppID() {
        var check = passingApple()
        #expect(AlertRules.appIDMissing(check).failures.isEmpty)
        check.expectations.missingAppIDs = [.applinks: ["T.a", "T.b"], .webcredentials: ["T.a"]]
        #expect(failingSubjects(AlertRules.appIDMissing(check)) == ["applinks T.a", "applinks T.b", "webcredentials T.a"])
        check.documentParsed = false
        #expect(!AlertRules.appIDMissing(check).evaluated)
    }

    @Test func detailsEmpty() {
        var check = passingApple()
        #expect(AlertRules.detailsEmpty(check).failures.isEmpty)
        check.applinksDetailCount = nil  // no applinks at all: nothing routed on purpose
        #expect(AlertRules.detailsEmpty(check).failures.isEmpty)
        check.applinksDetailCount = 0
        #expect(AlertRules.detailsEmpty(check).failures.count == 1)
    }

    @Test func watchedURLChanged() {
        var check = passingApple()
        check.expectations.watchedURLs = [
            WatchedURLResult(url: "https://e.example/a", expected: .opensApp("T.x"), actual: .opensApp("T.x")),
            WatchedURLResult(url: "https://e.example/b", expected: .opensApp("T.x"), actual: .staysInBrowser),
            WatchedURLResult(url: "https://e.example/c", expected: .opensApp("T.x"), actual: .opensApp("T.y")),
        ]
        let rule = AlertRules.watchedURLChanged(check)
        #expect(failingSubjects(rule) == ["https://e.example/b", "https://e.example/c"])
        #expect(rule.failures[1].summary == "https://e.example/c opens T.y, expected: opens T.x.")
    }

    @Test(arguments: [
        (30.0, nil as Int?), (14.5, nil), (14.0, 14), (10.0, 14), (7.0, 7), (2.0, 7), (1.0, 1), (0.2, 1), (-3.0, 1),
    ])
    func certificateExpiringLevels(daysLeft: Double, level: Int?) {
        var check = passingCheck()
        check.certificate = CertificateSummary(trusted: true, notAfter: now.addingTimeInterval(daysLeft * 86_400))
        let rule = AlertRules.certificateExpiring(check, policy: policy, now: now)
        #expect(rule.failures.first?.level == level)
    }

    @Test func certificateExpiringNeedsADate() {
        #expect(!AlertRules.certificateExpiring(unreachableCheck(), policy: policy, now: now).evaluated)
    }

    @Test func certificateUntrusted() {
        var check = passingCheck()
        #expect(AlertRules.certificateUntrusted(check).failures.isEmpty)
        check.certificate = CertificateSummary(trusted: false, failureReason: "self-signed certificate")
        #expect(AlertRules.certificateUntrusted(check).failures.map(\.summary)
                == ["The certificate chain is not trusted: self-signed certificate."])
    }

    @Test func cdnFailureIsTheLowerTier() {
        var check = passingApple()
        #expect(AlertRules.cdnFailure(check).failures.isEmpty)
        check.cdn = CDNSummary(served: false, failureReason: "SSL error")
        let rule = AlertRules.cdnFailure(check)
        #expect(rule.failures.map(\.summary) == ["Apple's CDN does not serve the file: SSL error."])
        #expect(AlertRule.cdnFailure.severity == .warning && AlertRule.originInvalid.severity == .critical)
    }

    @Test func cdnStaleOnlyAfterTheGracePeriod() {
        var check = passingApple(sha: "new")
        check.cdn = CDNSummary(served: true, matchesOrigin: false)
        check.versionSince = now.addingTimeInterval(-47 * 3600)
        #expect(!AlertRules.cdnStale(check, checkedAt: now, policy: policy, now: now).evaluated, "within the grace: expected lag")
        check.versionSince = now.addingTimeInterval(-49 * 3600)
        #expect(AlertRules.cdnStale(check, checkedAt: now, policy: policy, now: now).failures.count == 1)
        check.cdn?.matchesOrigin = true
        let caughtUp = AlertRules.cdnStale(check, checkedAt: now, policy: policy, now: now)
        #expect(caughtUp.evaluated && caughtUp.failures.isEmpty)
    }

    @Test func newVersionNotice() {
        #expect(AlertRules.newVersionNotice(previous: nil, current: passingApple(), diffSummary: nil, now: now) == nil)
        #expect(AlertRules.newVersionNotice(previous: passingApple(), current: passingApple(), diffSummary: nil, now: now) == nil)
        #expect(AlertRules.newVersionNotice(previous: unreachableApple(), current: passingApple(), diffSummary: nil, now: now) == nil)
        let notice = AlertRules.newVersionNotice(previous: passingApple(sha: "aaaa"), current: passingApple(sha: "bbbb"),
                                                 diffSummary: "/buy/* now opens T.shop.", now: now)
        #expect(notice?.kind == .notice && notice?.severity == .info && notice?.key == AlertKey(rule: .newVersion, subject: "bbbb"))
        #expect(notice?.summary.hasSuffix("/buy/* now opens T.shop.") == true)
        #expect(notice?.platform == .apple)
    }
}
