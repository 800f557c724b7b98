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

    /// An Android link against one check's `AndroidResult`: the file's own findings (how it is served,
    /// whether it reads, Google's copy), then whether it grants `handle_all_urls` to the package with
    /// each of the app's keys (spec §8's two mistakes named), then whether Google's API says a key of
    /// the package is not linked. nil when the check did not fetch Android.
    public static func evaluateAndroid(_ android: AndroidResult?, packageName: String?) -> VerdictAndReason? {
        guard let android else { return nil }
        var problems: [(severity: Severity, message: String)] = android.findings
            .filter { $0.severity != .info && !androidIdentityCodes.contains($0.code) }
            .map { ($0.severity, $0.message) }
        if let packageName, let identity = android.identities.first(where: { $0.packageName == packageName }) {
            let missing = identity.missingFingerprints
            if identity.grantedOnlyToOtherKeys {
                problems.append((.error, "assetlinks.json grants \(packageName) handle_all_urls, but not with \(missing.joined(separator: ", "))."))
            } else if !identity.handleAllURLs {
                problems.append((.error, identity.named
                    ? "assetlinks.json names \(packageName) but grants it no handle_all_urls; its App Links do not verify."
                    : "\(packageName) is not in assetlinks.json."))
            } else if !missing.isEmpty {
                let upload = Set(identity.uploadKeys)
                if !upload.isEmpty, identity.grantedFingerprints.allSatisfy(upload.contains), missing.contains(where: { !upload.contains($0) }) {
                    problems.append((.error, "assetlinks.json lists only \(packageName)'s upload key; apps installed from Google Play do not verify."))
                } else {
                    problems.append((.error, "assetlinks.json does not list \(packageName)'s key \(missing.joined(separator: ", "))."))
                }
            }
            let unlinked = android.google?.notLinked.filter { $0.hasPrefix(packageName + " ") } ?? []
            if !unlinked.isEmpty {
                problems.append((.warning, "Google's Digital Asset Links API says \(packageName) is not linked with "
                    + "\(unlinked.map { String($0.dropFirst(packageName.count + 1)) }.joined(separator: ", "))."))
            }
        } else if !android.serves, problems.isEmpty {
            // A check made before the app expected anything of the domain, on a site without a file.
            problems.append((.error, "The site serves no assetlinks.json."))
        }
        let verdict: Verdict = problems.contains { $0.severity == .error } ? .fail : problems.isEmpty ? .pass : .warn
        // The file's own problem comes first at equal severity: a 404 explains a missing package.
        let worst = problems.enumerated().min { ($0.element.severity.rank, $0.offset) < ($1.element.severity.rank, $1.offset) }
        return (verdict, verdict == .pass ? nil : worst?.element.message)
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
            evaluateAndroid(check.android, packageName: app.androidPackage)
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
