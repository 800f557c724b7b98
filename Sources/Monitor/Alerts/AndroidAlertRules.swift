import AssetLinks
import Foundation
import Vocabulary

/// The alert rules of Android's file (issue #13), each a pure function of one check's `AndroidResult`.
/// A domain that serves no assetlinks.json and expects no Android app is not judged at all, so its
/// Android alerts neither open nor resolve. Every summary names the platform.
public enum AndroidAlertRules {
    public static func evaluate(_ android: AndroidResult?) -> [RuleCheck] {
        guard let android, android.isWatched else {
            return [AlertRule.androidFileInvalid, .androidIdentityMissing, .androidHandleAllURLsDropped, .androidDynamicRulesInvalid,
                    .androidWatchedURLFlipped, .googleVerdict].map(RuleCheck.notEvaluated)
        }
        return [fileInvalid(android), identityMissing(android), handleAllURLsDropped(android), dynamicRulesInvalid(android),
                watchedURLFlipped(android), googleVerdict(android)]
    }

    /// Findings that are about the expected apps or Google's copy: they have rules of their own.
    static let ownRules: Set<String> = Set([
        AndroidCheckFinding.expectedPackageMissing, AndroidCheckFinding.expectedFingerprintMissing,
        AndroidCheckFinding.fingerprintUploadKeyOnly, AndroidCheckFinding.handleAllURLsMissing, AndroidCheckFinding.loginCredsMissing,
        AndroidCheckFinding.googleVerdictError, AndroidCheckFinding.googleNotLinked, AndroidCheckFinding.googleStale,
        AndroidCheckFinding.googleUnavailable, AndroidFinding.dynamicRulesInvalid, AndroidFinding.dynamicRuleEmpty,
    ].map(\.code))

    /// The file stops passing: an error about the file or how it is served (not found, redirected,
    /// untrusted, not JSON, blocked for Google's fetcher…).
    public static func fileInvalid(_ android: AndroidResult) -> RuleCheck {
        let errors = android.findings.filter { $0.severity == .error && !ownRules.contains($0.code) }
        guard !errors.isEmpty else { return RuleCheck(rule: .androidFileInvalid) }
        let codes = Array(Set(errors.map(\.code))).sorted().joined(separator: ", ")
        return RuleCheck(rule: .androidFileInvalid, failures: [.init(summary: "Android: assetlinks.json has errors: \(codes).")])
    }

    /// An expected package or fingerprint is not granted `handle_all_urls`: one alert per package,
    /// naming the two mistakes of spec §8 — only the upload key listed (Play installs fail), or a key
    /// rotation half done (one of the app's keys listed, another missing). A package named without the
    /// relation is `handleAllURLsDropped`'s.
    public static func identityMissing(_ android: AndroidResult) -> RuleCheck {
        var failures: [RuleCheck.Failure] = []
        for identity in android.identities {
            let missing = identity.missingFingerprints
            if !identity.handleAllURLs {
                guard !identity.named else { continue }
                failures.append(.init(subject: identity.packageName,
                                      summary: "Android: assetlinks.json no longer verifies \(identity.packageName): the package is missing."))
                continue
            }
            guard !missing.isEmpty else { continue }
            let upload = Set(identity.uploadKeys)
            let summary: String
            if !upload.isEmpty, identity.grantedFingerprints.allSatisfy(upload.contains), missing.contains(where: { !upload.contains($0) }) {
                summary = "Android: upload key only — assetlinks.json lists \(identity.packageName)'s upload key but not its app-signing key "
                    + "\(missing.filter { !upload.contains($0) }.joined(separator: ", ")); apps installed from Google Play do not verify."
            } else {
                summary = "Android: key rotation incomplete — assetlinks.json lists \(identity.packageName) with "
                    + "\(identity.grantedFingerprints.joined(separator: ", ")) but no longer with \(missing.joined(separator: ", ")); "
                    + "builds signed with \(missing.count == 1 ? "that key" : "those keys") do not verify."
            }
            failures.append(.init(subject: identity.packageName, summary: summary))
        }
        return RuleCheck(rule: .androidIdentityMissing, failures: failures)
    }

    /// An expected package is still named but no statement grants it `handle_all_urls` any more.
    public static func handleAllURLsDropped(_ android: AndroidResult) -> RuleCheck {
        let failures = android.identities.filter { $0.named && !$0.handleAllURLs }.map {
            RuleCheck.Failure(subject: $0.packageName,
                              summary: "Android: assetlinks.json names \($0.packageName) but no longer grants it handle_all_urls; its App Links do not verify.")
        }
        return RuleCheck(rule: .androidHandleAllURLsDropped, failures: failures)
    }

    /// The dynamic rules (Android 15+) became invalid: Android ignores them and falls back to the
    /// manifest's intent filters, so links open (or not) by other rules than the file says.
    public static func dynamicRulesInvalid(_ android: AndroidResult) -> RuleCheck {
        let codes: Set<String> = [AndroidFinding.dynamicRulesInvalid.code, AndroidFinding.dynamicRuleEmpty.code]
        guard android.findings.contains(where: { codes.contains($0.code) && $0.severity == .error }) else {
            return RuleCheck(rule: .androidDynamicRulesInvalid)
        }
        return RuleCheck(rule: .androidDynamicRulesInvalid, failures: [.init(
            summary: "Android: the dynamic rules in assetlinks.json are invalid; Android 15+ falls back to the app's manifest.")])
    }

    /// A URL watched on Android no longer does what it must on Android 15+: the dynamic rules changed so
    /// that it stays in the browser instead of opening the app, or now opens an app when it must stay
    /// in the browser. One alert per URL, naming the deciding rule. Judged only while the site serves a
    /// file: without one every URL stays in the browser, which `android-file-invalid` already says.
    /// A URL that must open an expected app the file no longer grants `handle_all_urls` for any of its
    /// keys is the identity rules' alert (`android-identity-missing`, `android-handle-all-urls-dropped`), not a flip.
    public static func watchedURLFlipped(_ android: AndroidResult) -> RuleCheck {
        guard android.serves else { return .notEvaluated(.androidWatchedURLFlipped) }
        let unverified = Set(android.identities.filter { !$0.handleAllURLs }.map(\.packageName))
        let flipped = android.watchedURLs.filter { result in
            if case .opensApp(let package) = result.expected, unverified.contains(package) { return false }
            return !result.meetsExpectation
        }
        let failures = flipped.map { result in
            RuleCheck.Failure(subject: result.url, summary: "Android: watched URL flipped — \(result.url) \(result.actual) on Android 15+, "
                              + "expected: \(result.expected). \(result.reason)")
        }
        return RuleCheck(rule: .androidWatchedURLFlipped, failures: failures)
    }

    /// The informational notice for a newly published assetlinks.json (spec §11: "rules changed" and
    /// "association added" are info, with the diff): nil when the file did not change. Keyed apart
    /// from Apple's notice, so both can go out for one check.
    public static func newVersionNotice(previous: AndroidResult?, current: AndroidResult?, diffSummary: [String], now: Date) -> AlertEvent? {
        guard let old = previous?.versionSHA256, let new = current?.versionSHA256, old != new else { return nil }
        var summary = "Android: a new assetlinks.json was published (\(new.prefix(12)), was \(old.prefix(12)))."
        if !diffSummary.isEmpty { summary += " " + diffSummary.joined(separator: "; ") }
        return AlertEvent(kind: .notice, key: AlertKey(rule: .newVersion, subject: "android " + new),
                          severity: AlertRule.newVersion.severity, summary: summary, at: now)
    }

    /// Google's API reports an error code, says an expected identity is not linked, or still serves
    /// another list than the origin beyond its maxAge plus the grace period. A lower tier, as Apple's
    /// CDN lag is: devices that ask the site directly may still verify.
    public static func googleVerdict(_ android: AndroidResult) -> RuleCheck {
        guard let google = android.google, google.unavailable == nil else { return .notEvaluated(.googleVerdict) }
        // Codes Google reports for a harmless query (INVALID_QUERY, UNSPECIFIED) are info-level findings.
        let reported = Set(android.findings.filter { $0.code == AndroidCheckFinding.googleVerdictError.code && $0.severity != .info }
            .map(\.message))
        var reasons: [String] = []
        if !reported.isEmpty { reasons.append("error \(google.errorCodes.joined(separator: ", "))") }
        if !google.notLinked.isEmpty { reasons.append("not linked: \(google.notLinked.joined(separator: "; "))") }
        if google.staleBeyondGrace { reasons.append("its statements still differ from the origin's beyond maxAge plus the grace period") }
        guard !reasons.isEmpty else { return RuleCheck(rule: .googleVerdict) }
        return RuleCheck(rule: .googleVerdict, failures: [.init(
            summary: "Android: Google's Digital Asset Links API disagrees — \(reasons.joined(separator: "; ")).")])
    }
}
