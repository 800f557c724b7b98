import AssetLinks
import Foundation
import Vocabulary

/// The alert rules of Android's file (issue #13), each a pure function of one check's `AndroidResult`.
/// A domain watched for both platforms that serves no assetlinks.json and expects no Android app is not
/// judged at all, so its Android alerts neither open nor resolve; one watched for Android only
/// (`fileRequired`) is judged whatever it serves, so losing its file (or never having one) alerts and its
/// return recovers, as on Apple's side. Every summary names the platform.
public enum AndroidAlertRules {
    public static func evaluate(_ android: AndroidResult?, fileRequired: Bool = false) -> [RuleCheck] {
        guard let android, android.isWatched || fileRequired else {
            return [AlertRule.androidFileInvalid, .androidIdentityMissing, .androidHandleAllURLsDropped, .androidDynamicRulesInvalid,
                    .androidWatchedURLFlipped, .googleVerdict, .androidPackageRemoved, .androidRelationRemoved,
                    .androidFingerprintRemoved, .androidStatementDropped].map(RuleCheck.notEvaluated)
        }
        let removals = Removals(android)
        return [fileInvalid(android), identityMissing(android), handleAllURLsDropped(android), dynamicRulesInvalid(android),
                watchedURLFlipped(android), googleVerdict(android), removals.packages, removals.relations, removals.fingerprints,
                statementDropped(android)]
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
    /// Errors inside statements newly dropped are `statementDropped`'s while it fails, so one broken
    /// statement in a file that otherwise still works is one alert, not two.
    public static func fileInvalid(_ android: AndroidResult) -> RuleCheck {
        let newlyDropped = Set(Self.newlyDropped(android) ?? [])
        let errors = android.findings.filter { finding in
            finding.severity == .error && !ownRules.contains(finding.code)
                && !(finding.location.flatMap { statementIndex($0.pointer) }.map(newlyDropped.contains) ?? false)
        }
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
            if identity.grantedOnlyToOtherKeys {
                // Granted, but not with a key of the app's: the file says what the domain page's
                // finding says, not that the relation is gone.
                failures.append(.init(subject: identity.packageName,
                                      summary: "Android: assetlinks.json grants \(identity.packageName) handle_all_urls, but not with "
                                          + "\(missing.joined(separator: ", ")); builds signed with \(missing.count == 1 ? "that key" : "those keys") do not verify."))
                continue
            }
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

    /// An expected package is still named but no statement grants it `handle_all_urls` any more (one
    /// that grants it with other keys only is `identityMissing`'s: a key is missing, not the relation).
    public static func handleAllURLsDropped(_ android: AndroidResult) -> RuleCheck {
        let failures = android.identities.filter { $0.named && !$0.handleAllURLs && !$0.grantedOnlyToOtherKeys }.map {
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

    /// The two statement lists the removal rules compare: this check's and the one served before it.
    /// nil when this check served none (the rules hold their state) — see `evaluated(_:)`.
    static func compared(_ android: AndroidResult) -> (before: AndroidFileGrants?, now: AndroidFileGrants)? {
        guard android.serves, let now = android.servedGrants else { return nil }
        return (android.previousGrants, now)
    }

    /// The origin's elements dropped as invalid now that were not before (by count: positions move
    /// when a file is edited, so "more dropped than the file before" is what can be told); nil when
    /// nothing new is dropped or nothing is compared.
    static func newlyDropped(_ android: AndroidResult) -> [Int]? {
        guard let (before, now) = compared(android), let before,
              now.droppedStatements.count > before.droppedStatements.count else { return nil }
        return now.droppedStatements
    }

    /// The statement's position in the origin's array, from a finding's pointer (`/2/target/…` → 2).
    static func statementIndex(_ pointer: String) -> Int? {
        let parts = pointer.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].isEmpty else { return nil }
        return Int(parts[1])
    }

    /// A statement that was valid is now invalid (spec §11 "statement newly dropped"): Google ignores
    /// it while the others still apply — a partial failure no other rule sees when the dropped
    /// statement was not for an app registered here. Names the positions and the errors found there.
    public static func statementDropped(_ android: AndroidResult) -> RuleCheck {
        guard compared(android) != nil else { return .notEvaluated(.androidStatementDropped) }
        guard let dropped = newlyDropped(android), let before = android.previousGrants else { return RuleCheck(rule: .androidStatementDropped) }
        let inside = Set(dropped)
        let codes = Set(android.findings.filter { finding in
            finding.severity == .error && (finding.location.flatMap { statementIndex($0.pointer) }.map(inside.contains) ?? false)
        }.map(\.code)).sorted()
        let positions = dropped.map { "[\($0)]" }.joined(separator: ", ")
        let was = before.droppedStatements.count
        return RuleCheck(rule: .androidStatementDropped, failures: [.init(
            summary: "Android: assetlinks.json now has \(dropped.count) invalid statement\(dropped.count == 1 ? "" : "s") that Google ignores "
                + "(was \(was)): \(positions)" + (codes.isEmpty ? "" : " — \(codes.joined(separator: ", "))")
                + "; what \(dropped.count == 1 ? "it" : "they") granted no longer applies.")])
    }

    /// Spec §11's removals against the file served before: packages, relations, and keys of apps
    /// not registered here. Each removal is alerted by one rule: a package gone is not also a relation
    /// and key gone; a registered package's handle_all_urls and registered keys are the identity rules'.
    struct Removals {
        var packages = RuleCheck(rule: .androidPackageRemoved)
        var relations = RuleCheck(rule: .androidRelationRemoved)
        var fingerprints = RuleCheck(rule: .androidFingerprintRemoved)

        /// The relations whose removal is a regression, and what a user loses with each.
        static let watchedRelations: [(relation: String, loss: String)] = [
            (Relation.handleAllURLs, "its App Links no longer verify"),
            (Relation.getLoginCreds, "saved sign-ins are no longer shared between the app and the site"),
            (Relation.useAsOrigin, "the site no longer vouches for the app as its web origin"),
        ]

        init(_ android: AndroidResult) {
            guard let (before, now) = compared(android) else {
                packages = .notEvaluated(.androidPackageRemoved)
                relations = .notEvaluated(.androidRelationRemoved)
                fingerprints = .notEvaluated(.androidFingerprintRemoved)
                return
            }
            guard let before else { return }
            let registered = Set(android.identities.map(\.packageName))
            let registeredKeys = Set(android.identities.flatMap { id in id.expectedFingerprints.map { Key(id.packageName, $0) } })
            func granted(_ file: AndroidFileGrants, _ package: String) -> Set<String> {
                Set(file.grants.filter { $0.packageName == package }.map(\.relation))
            }
            let core: Set<String> = [Relation.handleAllURLs, Relation.getLoginCreds]
            var gone = Set<String>()
            for package in before.packages.sorted() where !registered.contains(package) {
                guard !granted(before, package).isDisjoint(with: core), granted(now, package).isDisjoint(with: core) else { continue }
                gone.insert(package)
                packages.failures.append(.init(subject: package, summary: "Android: assetlinks.json no longer grants \(package) "
                    + "handle_all_urls or get_login_creds (it did in the file before); the app no longer verifies for this site."))
            }
            for package in now.packages.sorted() where !gone.contains(package) {
                let had = granted(before, package), has = granted(now, package)
                for (relation, loss) in Self.watchedRelations where had.contains(relation) && !has.contains(relation) {
                    // A registered package's handle_all_urls is android-handle-all-urls-dropped's.
                    if relation == Relation.handleAllURLs && registered.contains(package) { continue }
                    relations.failures.append(.init(subject: "\(package) \(relation)",
                        summary: "Android: assetlinks.json no longer grants \(package) \(relation); \(loss)."))
                }
                let keysNow = Set(now.grants.filter { $0.packageName == package }.map(\.fingerprint))
                let keysBefore = Set(before.grants.filter { $0.packageName == package }.map(\.fingerprint))
                for key in keysBefore.subtracting(keysNow).sorted() where !registeredKeys.contains(Key(package, key)) {
                    fingerprints.failures.append(.init(subject: "\(package) \(key)",
                        summary: "Android: assetlinks.json no longer lists the key \(key) for \(package) (a key not registered here); "
                            + "builds signed with it no longer verify."))
                }
            }
        }

        struct Key: Hashable {
            let package: String, fingerprint: String
            init(_ package: String, _ fingerprint: String) {
                self.package = package
                self.fingerprint = fingerprint
            }
        }
    }

    /// The informational notice for a newly published assetlinks.json (spec §11: "rules changed" and
    /// "association added" are info, with the diff): nil when the file did not change. Keyed apart
    /// from Apple's notice, so both can go out for one check.
    public static func newVersionNotice(previous: AndroidResult?, current: AndroidResult?, diffSummary: [String], now: Date) -> AlertEvent? {
        guard let old = previous?.versionSHA256, let new = current?.versionSHA256, old != new else { return nil }
        var summary = "Android: a new assetlinks.json was published (\(new.prefix(12)), was \(old.prefix(12)))."
        if !diffSummary.isEmpty { summary += " " + diffSummary.joined(separator: "; ") }
        return AlertEvent(kind: .notice, key: AlertKey(rule: .newVersion, subject: "android " + new),
                          severity: AlertRule.newVersion.severity, summary: summary, at: now, platform: .android)
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
