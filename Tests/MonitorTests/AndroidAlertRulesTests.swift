import AssetLinks
import Foundation
import Testing
import Vocabulary
@testable import Monitor

/// Android's alert rules (issue #13), each a pure function of one check's `AndroidResult`: one test each.
@Suite struct AndroidAlertRulesTests {
    static let package = "com.example.shop"
    static let signing = "AA:" + Array(repeating: "11", count: 31).joined(separator: ":")
    static let upload = "BB:" + Array(repeating: "22", count: 31).joined(separator: ":")
    static let next = "CC:" + Array(repeating: "33", count: 31).joined(separator: ":")

    static func identity(expected: [String], uploadKeys: [String] = [], named: Bool = true, granted: [String]) -> AndroidIdentityResult {
        AndroidIdentityResult(packageName: package, expectedFingerprints: expected, uploadKeys: uploadKeys, named: named,
                              grantedFingerprints: granted)
    }

    static func result(_ findings: [Finding] = [], identities: [AndroidIdentityResult] = [], serves: Bool = true,
                       google: GoogleVerdict? = nil) -> AndroidResult {
        AndroidResult(verdict: findings.contains { $0.severity == .error } ? .fail : .pass, serves: serves, versionSHA256: serves ? "ab" : nil,
                      findings: findings, identities: identities, google: google)
    }

    @Test func theFileStopsPassing() {
        let broken = AndroidAlertRules.fileInvalid(Self.result([Finding(code: "http-status", severity: .error, message: "404")]))
        #expect(broken.failures.map(\.summary) == ["Android: assetlinks.json has errors: http-status."])
        // A missing expected identity is an error finding of its own rule, not a broken file.
        let identity = Finding(code: "expected-fingerprint-missing", severity: .error, message: "m")
        #expect(AndroidAlertRules.fileInvalid(Self.result([identity])).failures.isEmpty)
        #expect(AndroidAlertRules.fileInvalid(Self.result([Finding(code: "x", severity: .warning, message: "w")])).failures.isEmpty)
    }

    @Test func anExpectedIdentityDisappearsNamingUploadKeyOnlyAndKeyRotation() throws {
        let gone = AndroidAlertRules.identityMissing(Self.result(identities: [Self.identity(expected: [Self.signing], named: false, granted: [])]))
        #expect(gone.failures.map(\.subject) == [Self.package])
        #expect(gone.failures.first?.summary.contains("the package is missing") == true)

        let uploadOnly = AndroidAlertRules.identityMissing(Self.result(identities: [
            Self.identity(expected: [Self.signing, Self.upload], uploadKeys: [Self.upload], granted: [Self.upload])]))
        let uploadSummary = try #require(uploadOnly.failures.first?.summary)
        #expect(uploadSummary.hasPrefix("Android: upload key only") && uploadSummary.contains(Self.signing), "\(uploadSummary)")

        let rotation = AndroidAlertRules.identityMissing(Self.result(identities: [
            Self.identity(expected: [Self.signing, Self.next], granted: [Self.next])]))
        let rotationSummary = try #require(rotation.failures.first?.summary)
        #expect(rotationSummary.hasPrefix("Android: key rotation incomplete") && rotationSummary.contains("no longer with \(Self.signing)"))
        #expect(rotation.failures.count == 1, "one alert per package, however many keys are missing")

        #expect(AndroidAlertRules.identityMissing(Self.result(identities: [
            Self.identity(expected: [Self.signing, Self.next], granted: [Self.signing, Self.next])])).failures.isEmpty)
        // Named without handle_all_urls is the next rule's, not this one's.
        #expect(AndroidAlertRules.identityMissing(Self.result(identities: [Self.identity(expected: [Self.signing], granted: [])])).failures.isEmpty)
    }

    @Test func handleAllURLsDropped() {
        let dropped = AndroidAlertRules.handleAllURLsDropped(Self.result(identities: [Self.identity(expected: [Self.signing], granted: [])]))
        #expect(dropped.failures.map(\.subject) == [Self.package])
        #expect(dropped.failures.first?.summary.contains("no longer grants it handle_all_urls") == true)
        #expect(AndroidAlertRules.handleAllURLsDropped(Self.result(identities: [
            Self.identity(expected: [Self.signing], granted: [Self.signing])])).failures.isEmpty)
    }

    @Test func dynamicRulesBecomeInvalid() {
        let invalid = AndroidAlertRules.dynamicRulesInvalid(Self.result([Finding(code: "dynamic-rules-invalid", severity: .error, message: "m")]))
        #expect(invalid.failures.first?.summary.contains("falls back to the app's manifest") == true)
        #expect(AndroidAlertRules.dynamicRulesInvalid(Self.result([Finding(code: "dynamic-rule-unknown-key", severity: .warning, message: "m")]))
            .failures.isEmpty)
    }

    @Test func aWatchedURLThatFlipsOnAndroidIsNamedAsSuch() {
        func watched(_ actual: URLOutcome, expected: URLOutcome) -> AndroidWatchedURLResult {
            AndroidWatchedURLResult(url: "https://shop.example/p/1", expected: expected, actual: actual, beforeDynamicRules: .opensApp(Self.package),
                                    reason: "Rule 1 is the first that matches; it excludes the URL.")
        }
        var flipped = Self.result()
        flipped.watchedURLs = [watched(.staysInBrowser, expected: .opensApp(Self.package))]
        let rule = AndroidAlertRules.watchedURLFlipped(flipped)
        #expect(rule.failures.map(\.subject) == ["https://shop.example/p/1"])
        #expect(rule.failures.first?.summary == "Android: watched URL flipped — https://shop.example/p/1 stays in the browser on Android 15+, "
                + "expected: opens com.example.shop. Rule 1 is the first that matches; it excludes the URL.")
        #expect(AlertRule.androidWatchedURLFlipped.severity == .critical)
        // Now opening a URL that must stay in the browser is a flip too.
        flipped.watchedURLs = [watched(.opensApp(Self.package), expected: .staysInBrowser)]
        #expect(AndroidAlertRules.watchedURLFlipped(flipped).failures.count == 1)
        flipped.watchedURLs = [watched(.opensApp(Self.package), expected: .opensApp(Self.package))]
        #expect(AndroidAlertRules.watchedURLFlipped(flipped).failures.isEmpty && AndroidAlertRules.watchedURLFlipped(flipped).evaluated)
        // The file no longer grants the expected app any of its keys: the identity rules' alert, not a flip.
        flipped.identities = [Self.identity(expected: [Self.signing], granted: [])]
        flipped.watchedURLs = [watched(.staysInBrowser, expected: .opensApp(Self.package))]
        #expect(AndroidAlertRules.watchedURLFlipped(flipped).failures.isEmpty)
        #expect(AndroidAlertRules.identityMissing(flipped).failures.count + AndroidAlertRules.handleAllURLsDropped(flipped).failures.count == 1)
        // No file served: every URL stays in the browser, which the file rule already reports.
        var gone = Self.result([], identities: [Self.identity(expected: [Self.signing], granted: [])], serves: false)
        gone.watchedURLs = [watched(.staysInBrowser, expected: .opensApp(Self.package))]
        #expect(!AndroidAlertRules.watchedURLFlipped(gone).evaluated)
    }

    @Test func aNewAssetLinksFileIsAnnouncedWithItsDiff() throws {
        var old = Self.result()
        old.versionSHA256 = "aaaaaaaaaaaaaaaa"
        var new = old
        #expect(AndroidAlertRules.newVersionNotice(previous: old, current: new, diffSummary: [], now: Date()) == nil, "same file")
        #expect(AndroidAlertRules.newVersionNotice(previous: nil, current: new, diffSummary: [], now: Date()) == nil, "first check")
        new.versionSHA256 = "bbbbbbbbbbbbbbbb"
        let notice = try #require(AndroidAlertRules.newVersionNotice(previous: old, current: new,
                                                                     diffSummary: ["+ package com.example.other"], now: Date()))
        #expect(notice.kind == .notice && notice.severity == .info && notice.key == AlertKey(rule: .newVersion, subject: "android bbbbbbbbbbbbbbbb"))
        #expect(notice.summary == "Android: a new assetlinks.json was published (bbbbbbbbbbbb, was aaaaaaaaaaaa). + package com.example.other")
    }

    @Test func googleErrorsAndLagBeyondMaxAgeAndGraceAreTheLowerTier() {
        #expect(AlertRule.googleVerdict.severity == .warning)
        let error = Finding(code: "google-verdict-error", severity: .error, message: "Google's API reports ERROR_CODE_FETCH_ERROR")
        let failing = AndroidAlertRules.googleVerdict(Self.result([error], google: GoogleVerdict(errorCodes: ["ERROR_CODE_FETCH_ERROR"])))
        #expect(failing.failures.first?.summary.contains("error ERROR_CODE_FETCH_ERROR") == true)
        // INVALID_QUERY and UNSPECIFIED are info-level: not an alert.
        let info = Finding(code: "google-verdict-error", severity: .info, message: "UNSPECIFIED")
        #expect(AndroidAlertRules.googleVerdict(Self.result([info], google: GoogleVerdict(errorCodes: ["UNSPECIFIED"]))).failures.isEmpty)
        // Lagging within maxAge plus grace is expected; beyond it, it is an alert.
        #expect(AndroidAlertRules.googleVerdict(Self.result(google: GoogleVerdict(maxAgeSeconds: 600))).failures.isEmpty)
        #expect(AndroidAlertRules.googleVerdict(Self.result(google: GoogleVerdict(maxAgeSeconds: 600, staleBeyondGrace: true)))
            .failures.first?.summary.contains("beyond maxAge plus the grace period") == true)
        #expect(!AndroidAlertRules.googleVerdict(Self.result(google: GoogleVerdict(unavailable: "timeout"))).evaluated)
    }

    /// Google's copy lagging within maxAge plus the grace is reported at info by the evaluation: that is
    /// not "stale beyond the grace", so it must not reach the alert rule as such.
    @Test func googleLagWithinTheGraceIsNotStaleBeyondIt() {
        let answer = GoogleAnswer.answered(list: GoogleStatementList(maxAgeSeconds: 600), checks: [])
        let within = Finding(code: "google-stale", severity: .info, message: "Google's copy behaves differently")
        #expect(!GoogleVerdict(answer: answer, findings: [within]).staleBeyondGrace)
        let beyond = Finding(code: "google-stale", severity: .warning, message: "Google's copy behaves differently")
        #expect(GoogleVerdict(answer: answer, findings: [beyond]).staleBeyondGrace)
        var lagging = Self.result(google: GoogleVerdict(answer: answer, findings: [within]))
        #expect(AndroidAlertRules.googleVerdict(lagging).failures.isEmpty)
        lagging.google = GoogleVerdict(answer: answer, findings: [beyond])
        #expect(AndroidAlertRules.googleVerdict(lagging).failures.count == 1)
    }

    @Test func aSiteWithoutAFileOrAnExpectedAppIsNotJudgedForAndroid() {
        let unwatched = AndroidAlertRules.evaluate(Self.result([Finding(code: "http-status", severity: .info, message: "404")], serves: false))
        #expect(unwatched.allSatisfy { !$0.evaluated } && unwatched.count == 6)
        #expect(AndroidAlertRules.evaluate(nil).allSatisfy { !$0.evaluated })
        #expect(AndroidAlertRules.evaluate(Self.result(identities: [], serves: false)).allSatisfy { !$0.evaluated })
    }
}
