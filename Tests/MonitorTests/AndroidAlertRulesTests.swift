@testable import AssetLinks
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

    /// A file that grants the package handle_all_urls with another key than the app's (issue #29): the
    /// alert says what the domain page's finding says — granted, not with the app's key — and never
    /// that the file "no longer grants handle_all_urls"; the app page's cell says the same.
    @Test func grantedWithAnotherKeyIsAMissingKeyNotADroppedRelation() throws {
        let file = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "#
            + #""package_name": "\#(Self.package)", "sha256_cert_fingerprints": ["\#(Self.next)"]}}]"#
        let read = try #require(AssetLinksReader.read(Array(file.utf8)).file)
        let android = Self.result().remeasured(file: read, url: "https://shop.example/.well-known/assetlinks.json",
                                               expectations: [AndroidAppExpectation(packageName: Self.package, fingerprints: [Self.signing])],
                                               watchedURLs: [])
        let finding = try #require(android.findings.first { $0.code == "expected-fingerprint-missing" })
        #expect(finding.message.contains("grants handle_all_urls to \(Self.package), but not with \(Self.signing)"), "the domain page's words")
        let summaries = AndroidAlertRules.evaluate(android).flatMap(\.failures).map(\.summary)
        #expect(!summaries.contains { $0.contains("no longer grants") }, "\(summaries)")
        #expect(AndroidAlertRules.handleAllURLsDropped(android).failures.isEmpty)
        let missing = AndroidAlertRules.identityMissing(android).failures
        #expect(missing.map(\.subject) == [Self.package])
        #expect(missing.first?.summary == "Android: assetlinks.json grants \(Self.package) handle_all_urls, but not with \(Self.signing); "
                + "builds signed with that key do not verify.", "\(missing)")
        let cell = AppLinkVerdict.evaluateAndroid(android, packageName: Self.package, host: "shop.example")
        #expect(cell?.verdict == .fail && cell?.reason == finding.message, "the cell in the finding's words too: \(String(describing: cell))")
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
        #expect(notice.platform == .android, "typed: the pipeline hands it Android's diff by this field, not by its subject")
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
        #expect(unwatched.allSatisfy { !$0.evaluated } && unwatched.count == 10)
        #expect(AndroidAlertRules.evaluate(nil).allSatisfy { !$0.evaluated })
        #expect(AndroidAlertRules.evaluate(Self.result(identities: [], serves: false)).allSatisfy { !$0.evaluated })
    }

    /// Watched for Android only, the same site is judged: its missing file (an error, as the evaluation
    /// makes it with `fileRequired`) fails android-file-invalid, and a file served again passes it.
    @Test func anAndroidOnlyDomainWithoutAFileIsJudged() {
        let missing = Self.result([Finding(code: "http-status", severity: .error, message: "404")], identities: [], serves: false)
        let judged = AndroidAlertRules.evaluate(missing, fileRequired: true)
        #expect(judged.first { $0.rule == .androidFileInvalid }?.failures.map(\.summary) == ["Android: assetlinks.json has errors: http-status."])
        #expect(AndroidAlertRules.evaluate(missing).allSatisfy { !$0.evaluated }, "watched for both, it is not judged")
        let back = AndroidAlertRules.evaluate(Self.result([], identities: [], serves: true), fileRequired: true)
        #expect(back.first { $0.rule == .androidFileInvalid }.map { $0.evaluated && $0.failures.isEmpty } == true)
        // Through AlertRules: the domain's setting decides.
        let check = CheckSummary(checkedAt: Date(timeIntervalSince1970: 0), reachable: true, android: missing)
        let rules = AlertRules.evaluate(check, policy: AlertPolicy(), now: check.checkedAt, watched: .android)
        #expect(rules.first { $0.rule == .androidFileInvalid }?.failures.count == 1)
        #expect(AlertRules.evaluate(check, policy: AlertPolicy(), now: check.checkedAt).first { $0.rule == .androidFileInvalid }?.evaluated == false)
    }

    // Spec §11's removals: measured against the file served before (`previousGrants`).
    static let partner = "com.example.partner"

    static func grants(_ sha: String, _ grants: [(String, String, String)], dropped: [Int] = []) -> AndroidFileGrants {
        AndroidFileGrants(versionSHA256: sha, grants: grants.map { AndroidGrant(packageName: $0.0, relation: $0.1, fingerprint: $0.2) },
                          droppedStatements: dropped)
    }

    static func compared(_ before: AndroidFileGrants?, _ now: AndroidFileGrants, findings: [Finding] = []) -> AndroidResult {
        var result = Self.result(findings, identities: [Self.identity(expected: [Self.signing], granted: [Self.signing])])
        result.servedGrants = now
        result.previousGrants = before
        return result
    }

    static let handle = Relation.handleAllURLs, login = Relation.getLoginCreds, origin = Relation.useAsOrigin

    @Test func aKeyOfAnAppNotRegisteredHereRemovedIsAWarning() {
        let before = Self.grants("a", [(Self.package, Self.handle, Self.signing), (Self.partner, Self.handle, Self.upload), (Self.partner, Self.handle, Self.next)])
        let now = Self.grants("b", [(Self.package, Self.handle, Self.signing), (Self.partner, Self.handle, Self.upload)])
        let removals = AndroidAlertRules.Removals(Self.compared(before, now))
        #expect(removals.fingerprints.failures.map(\.subject) == ["\(Self.partner) \(Self.next)"])
        #expect(removals.fingerprints.failures.first?.summary.hasPrefix("Android: assetlinks.json no longer lists the key \(Self.next) for \(Self.partner)") == true)
        #expect(removals.packages.failures.isEmpty && removals.relations.failures.isEmpty)
        #expect(AlertRule.androidFingerprintRemoved.severity == .warning)
        // A registered key is the identity rule's, at the critical tier: not counted twice.
        let registeredGone = Self.grants("c", [(Self.partner, Self.handle, Self.upload), (Self.partner, Self.handle, Self.next), (Self.package, Self.handle, Self.next)])
        #expect(AndroidAlertRules.Removals(Self.compared(before, registeredGone)).fingerprints.failures.isEmpty)
        // The first file seen has nothing before it; the same file again removes nothing.
        #expect(AndroidAlertRules.Removals(Self.compared(nil, now)).fingerprints.failures.isEmpty)
        #expect(AndroidAlertRules.Removals(Self.compared(nil, now)).fingerprints.evaluated)
        #expect(AndroidAlertRules.Removals(Self.compared(now, now)).fingerprints.failures.isEmpty)
    }

    @Test func aRelationDroppedForAPackageIsCritical() {
        let before = Self.grants("a", [(Self.package, Self.handle, Self.signing), (Self.package, Self.login, Self.signing),
                                       (Self.partner, Self.handle, Self.upload), (Self.partner, Self.origin, Self.upload)])
        let now = Self.grants("b", [(Self.package, Self.handle, Self.signing), (Self.partner, Self.handle, Self.upload)])
        let relations = AndroidAlertRules.Removals(Self.compared(before, now)).relations
        #expect(relations.failures.map(\.subject) == ["\(Self.partner) \(Self.origin)", "\(Self.package) \(Self.login)"])
        #expect(relations.failures.last?.summary == "Android: assetlinks.json no longer grants \(Self.package) \(Self.login); "
                + "saved sign-ins are no longer shared between the app and the site.")
        #expect(AlertRule.androidRelationRemoved.severity == .critical)
        // handle_all_urls dropped for an app not registered here is this rule's; for a registered one, the identity rules'.
        let noHandle = Self.grants("c", [(Self.package, Self.login, Self.signing), (Self.partner, Self.origin, Self.upload), (Self.partner, Self.login, Self.upload)])
        let withLogin = Self.grants("d", before.grants.map { ($0.packageName, $0.relation, $0.fingerprint) } + [(Self.partner, Self.login, Self.upload)])
        #expect(AndroidAlertRules.Removals(Self.compared(withLogin, noHandle)).relations.failures.map(\.subject) == ["\(Self.partner) \(Self.handle)"])
    }

    @Test func aPackageThatLostHandleAllURLsAndGetLoginCredsIsRemoved() {
        let before = Self.grants("a", [(Self.package, Self.handle, Self.signing), (Self.partner, Self.handle, Self.upload), (Self.partner, Self.login, Self.upload)])
        let now = Self.grants("b", [(Self.package, Self.handle, Self.signing)])
        let removals = AndroidAlertRules.Removals(Self.compared(before, now))
        #expect(removals.packages.failures.map(\.subject) == [Self.partner])
        #expect(removals.relations.failures.isEmpty && removals.fingerprints.failures.isEmpty, "one alert for one removal")
        #expect(AlertRule.androidPackageRemoved.severity == .critical)
        // Left with only use_as_origin, the app no longer verifies for links or sign-ins: removed too.
        let originOnly = Self.grants("c", now.grants.map { ($0.packageName, $0.relation, $0.fingerprint) } + [(Self.partner, Self.origin, Self.upload)])
        #expect(AndroidAlertRules.Removals(Self.compared(before, originOnly)).packages.failures.map(\.subject) == [Self.partner])
        // A registered package gone is android-identity-missing's ("the package is missing").
        let shopGone = Self.grants("d", [(Self.partner, Self.handle, Self.upload), (Self.partner, Self.login, Self.upload)])
        #expect(AndroidAlertRules.Removals(Self.compared(before, shopGone)).packages.failures.isEmpty)
    }

    @Test func aStatementNewlyDroppedIsOneCriticalAlert() {
        let before = Self.grants("a", [(Self.package, Self.handle, Self.signing)])
        let now = Self.grants("b", [(Self.package, Self.handle, Self.signing)], dropped: [1])
        let lowercase = Finding(code: "fingerprint-lowercase", severity: .error, location: SourceLocation(pointer: "/1/target/sha256_cert_fingerprints/0"),
                                message: "lower case")
        let dropped = Finding(code: "statement-dropped", severity: .warning, location: SourceLocation(pointer: ""), message: "1 of 2")
        let result = Self.compared(before, now, findings: [lowercase, dropped])
        let rule = AndroidAlertRules.statementDropped(result)
        #expect(rule.failures.map(\.summary) == ["Android: assetlinks.json now has 1 invalid statement that Google ignores (was 0): [1] — "
                                                  + "fingerprint-lowercase; what it granted no longer applies."])
        #expect(AlertRule.androidStatementDropped.severity == .critical)
        // The error inside the dropped statement is this rule's, not also the file's.
        #expect(AndroidAlertRules.fileInvalid(result).failures.isEmpty)
        // The same file again still fails (the file before stays the one it is compared with) …
        var again = result
        again.previousGrants = before
        #expect(AndroidAlertRules.statementDropped(again).failures.count == 1)
        // … a file with as many dropped as before does not, and then its errors are the file's alert.
        let accepted = Self.compared(now, now, findings: [lowercase, dropped])
        #expect(AndroidAlertRules.statementDropped(accepted).failures.isEmpty)
        #expect(AndroidAlertRules.fileInvalid(accepted).failures.count == 1)
        // A check that served nothing holds the rule's state.
        var gone = result
        gone.serves = false
        #expect(!AndroidAlertRules.statementDropped(gone).evaluated && !AndroidAlertRules.Removals(gone).packages.evaluated)
    }

    /// The file before moves on only when the served file changes; a check that served none carries both.
    @Test func theFileBeforeMovesOnlyWhenTheServedFileChanges() {
        let a = Self.grants("a", [(Self.package, Self.handle, Self.signing)]), b = Self.grants("b", [])
        var first = Self.result(); first.servedGrants = a
        let firstCarried = first.continuing(from: nil, at: Date())
        #expect(firstCarried.previousGrants == nil)
        var second = Self.result(); second.servedGrants = b
        let secondCarried = second.continuing(from: firstCarried, at: Date())
        #expect(secondCarried.previousGrants == a)
        var third = Self.result(); third.servedGrants = b
        #expect(third.continuing(from: secondCarried, at: Date()).previousGrants == a, "still the file that made the change")
        var broken = Self.result(serves: false)
        broken.versionSHA256 = nil
        let brokenCarried = broken.continuing(from: secondCarried, at: Date())
        #expect(brokenCarried.servedGrants == b && brokenCarried.previousGrants == a)
        var back = Self.result(); back.servedGrants = a
        #expect(back.continuing(from: brokenCarried, at: Date()).previousGrants == b)
    }
}
