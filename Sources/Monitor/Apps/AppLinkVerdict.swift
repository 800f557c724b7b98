import AssetLinks
import Foundation
import Store
import Vocabulary

/// How one link of an app (a domain, a service, a platform) stands against one check of its domain.
/// Pure: the check's findings, expectation results and Android result in, a verdict and its one-line
/// reason out.
///
/// The domain's own state is about the whole file; a link is about what this app needs of it: the
/// file's findings (without Apple's CDN for a `?mode=developer` link, which devices never read
/// through the CDN, aasa-spec.md §3.3) and the app's own IDs in the link's service; on Android, the
/// file's findings and what it grants the app's package and keys.
public enum AppLinkVerdict {
    public typealias VerdictAndReason = (verdict: Verdict, reason: String?)

    /// An Apple link: `DomainVerdict.apple`, the domain's own function, over what the link needs of
    /// the file (its service's IDs of this app, the app's watched URLs, no CDN for a developer-mode
    /// link), so a link whose domain fails for the app's own reason fails with the same words.
    public static func evaluate(findings: [Finding], expectations: ExpectationResults?, service: Service,
                                appIDs: [String], developerMode: Bool) -> VerdictAndReason {
        let relevant = developerMode ? findings.filter { !ReleaseGate.cdnCodes.contains($0.code) } : findings
        let judged = DomainVerdict.apple(fileVerdict: Verdict(findings: relevant), findings: relevant,
                                         expectations: expectations?.scoped(to: service, appIDs: appIDs) ?? ExpectationResults())
        return (judged.verdict, judged.verdict == .pass ? nil : judged.reason)
    }

    /// Findings about the domain's expected Android apps one by one: another app's are not this
    /// link's business, and this app's are judged from its identity result instead.
    static let androidIdentityCodes: Set<String> = Set([
        AndroidCheckFinding.expectedPackageMissing, AndroidCheckFinding.expectedFingerprintMissing,
        AndroidCheckFinding.fingerprintUploadKeyOnly, AndroidCheckFinding.handleAllURLsMissing,
        AndroidCheckFinding.loginCredsMissing, AndroidCheckFinding.googleNotLinked,
    ].map(\.code))

    /// Google's findings: after the file's and the expected apps' in a check's list.
    static let googleCodes: Set<String> = Set([
        AndroidCheckFinding.googleVerdictError, AndroidCheckFinding.googleNotLinked, AndroidCheckFinding.googleStale,
        AndroidCheckFinding.googleUnavailable,
    ].map(\.code))

    /// An Android link against one check's `AndroidResult`: the domain's own function for its Android
    /// side (`DomainVerdict.androidState`) over what the link needs of the result (`scoped`), so the
    /// app page's cell, the domain page and `verify-app` say the same state in the same words. nil
    /// when the check did not fetch Android; `host`: whose assetlinks.json it read.
    public static func evaluateAndroid(_ android: AndroidResult?, packageName: String?, host: String) -> VerdictAndReason? {
        guard let android else { return nil }
        let measured = packageName.map { package in android.identities.contains { $0.packageName == package } } ?? false
        guard measured || android.serves || Verdict(findings: android.findings.filter { !androidIdentityCodes.contains($0.code) }) != .pass else {
            // A check made before the app expected anything of the domain, on a site without a file.
            return (.fail, "The site serves no assetlinks.json.")
        }
        let judged = DomainVerdict.androidState(android.scoped(to: packageName, host: host))
        return (judged.verdict, judged.verdict == .pass ? nil : judged.reason)
    }

    /// The link against one stored check; nil when the check did not measure the link's platform.
    /// `expectations` overrides the check's own (the domain's current results, re-measured when an
    /// app or a form changes what is expected).
    public static func evaluate(_ link: AppLinkRecord, app: AppRecord, against check: LinkEvidence,
                                expectations: ExpectationResults? = nil) -> VerdictAndReason? {
        switch link.platform {
        case .apple:
            evaluate(findings: check.findings, expectations: expectations ?? check.expectations, service: link.service,
                     appIDs: app.appleAppIDs, developerMode: link.developerMode)
        case .android:
            evaluateAndroid(check.android, packageName: app.androidPackage, host: link.host)
        }
    }

    /// Folds changed checks (oldest first) into a link's run of equal verdicts: a check whose verdict
    /// differs starts a new run at its time. Checks up to the run's own `throughCheckID` are skipped,
    /// so folding the same checks twice changes nothing.
    public static func fold(_ run: AppLinkRun?, domainID: Int64, platform: Platform, service: Service,
                            checks: [(checkID: Int64, time: Date, verdict: Verdict?)]) -> AppLinkRun? {
        var run = run
        var pending = checks[...]
        if let through = run?.throughCheckID, let i = checks.firstIndex(where: { $0.checkID == through }) {
            pending = checks[(i + 1)...]
        }
        for check in pending {
            if var current = run, current.verdict == check.verdict {
                current.throughCheckID = check.checkID
                run = current
            } else {
                run = AppLinkRun(domainID: domainID, platform: platform, service: service, throughCheckID: check.checkID,
                                 verdict: check.verdict, since: check.time)
            }
        }
        return run
    }
}

extension AndroidResult {
    /// What of this result is one app's business: the file's own findings (how it is served, whether
    /// it reads, Google's copy), then this app's identity in it and Google's word on it, in the words
    /// the check itself uses (`AndroidCheckEvaluation.identityFindings`, `notLinkedFinding`), and the
    /// watched URLs that must open the app; another expected app's findings and URLs are not its
    /// business. As Apple's `ExpectationResults.scoped(to:appIDs:)`.
    func scoped(to packageName: String?, host: String) -> AndroidResult {
        let own = findings.filter { !AppLinkVerdict.androidIdentityCodes.contains($0.code) }
        var mine: [Finding] = []
        if let packageName, let identity = identities.first(where: { $0.packageName == packageName }) {
            mine = AndroidCheckEvaluation.identityFindings(identity, url: "https://\(host)/.well-known/assetlinks.json", fileRead: serves)
            mine += (google?.notLinked ?? []).filter { $0.hasPrefix(packageName + " ") }.map {
                AndroidCheckEvaluation.notLinkedFinding(packageName: packageName, fingerprint: String($0.dropFirst(packageName.count + 1)),
                                                        relation: Relation.handleAllURLs)
            }
        }
        var scoped = self
        // In the check's order (the file's, the apps', then Google's), so equal severities lead alike.
        let google = AppLinkVerdict.googleCodes
        scoped.findings = own.filter { !google.contains($0.code) } + mine.filter { !google.contains($0.code) }
            + own.filter { google.contains($0.code) } + mine.filter { google.contains($0.code) }
        scoped.verdict = Verdict(findings: scoped.findings)
        scoped.watchedURLs = watchedURLs.filter { result in
            if case .opensApp(let id) = result.expected { id == packageName } else { false }
        }
        return scoped
    }
}
