import Vocabulary
import AASA

/// A domain's verdict and the one line that explains it: the file's verdict made worse by unmet
/// expectations, stored as `domains.last_verdict` / `last_reason` / `last_reason_platform`; the overview, `status`, the API,
/// /metrics and the badge show it as a `DomainState`. Pure.
///
/// The check's own verdict judges only the file and its transport (the alert rules depend on that);
/// a domain whose valid file lacks an expected app ID, or whose watched URL does not do what is
/// expected, still fails its owner, so an unmet expectation counts as `fail` here.
public struct DomainVerdict: Hashable, Sendable {
    public var verdict: Verdict
    /// nil when there is nothing to say (a passing file without findings and every expectation met);
    /// its platform is the one whose state it explains.
    public var reason: DomainReason?
    /// Each platform's own state: its file's verdict made worse by that platform's unmet expectations
    /// (Apple: missing app IDs, watched URLs; Android: expected packages and fingerprints, which are
    /// findings of its file, and watched URLs on Android 15+); nil where the platform is not watched,
    /// does not count (no assetlinks.json, no Android app expected) or was not checked. What the
    /// overview's columns, the API's `apple_state` / `android_state`, `status` and the badge's
    /// `?platform=` show (stored as `domains.last_apple_state` / `last_android_state`): computed here
    /// only, so a domain failing for a missing app ID is never shown with Apple "passing".
    public var apple: Verdict?
    public var android: Verdict?

    public init(verdict: Verdict, reason: DomainReason?, apple: Verdict? = nil, android: Verdict? = nil) {
        self.verdict = verdict
        self.reason = reason
        self.apple = apple
        self.android = android
    }

    public init(fileVerdict: Verdict, findings: [Finding], expectations: ExpectationResults) {
        let judged = Self.apple(fileVerdict: fileVerdict, findings: findings, expectations: expectations)
        verdict = judged.verdict
        reason = judged.reason.map { DomainReason($0, platform: .apple) }
        apple = verdict
    }

    /// Apple's state and its one line: the file's verdict made worse by the unmet expectations. The
    /// one function for a domain (all its expectations) and for an app's link on it (`AppLinkVerdict`:
    /// the link's service, the app's IDs and watched URLs), so the domain page and the app page say
    /// the same state in the same words.
    public static func apple(fileVerdict: Verdict, findings: [Finding], expectations: ExpectationResults) -> (verdict: Verdict, reason: String?) {
        let unmet = expectations.unmetDescriptions
        let worstFinding = findings.leadingReason(verdict: fileVerdict)
        let reason: String?
        if fileVerdict == .fail, let worstFinding {
            // A broken or unreachable file is the cause; the expectations it misses follow from it.
            reason = worstFinding
        } else if let first = unmet.first {
            let more = unmet.count - 1
            reason = more == 0 ? first
                : first.dropLast() + " (and \(more) more unmet expectation\(more == 1 ? "" : "s"))."
        } else {
            reason = worstFinding
        }
        return (unmet.isEmpty ? fileVerdict : .fail, reason)
    }

    /// The domain's verdict from the platforms its check judged: Apple's side made worse by Android's
    /// when the domain is watched for Android (it serves assetlinks.json or an Android app is expected
    /// of it; the reason then names the platform); Android's alone when Apple is not watched.
    public init(_ check: CheckSummary) {
        if let apple = check.apple {
            self.init(fileVerdict: apple.verdict, findings: apple.findings, expectations: apple.expectations, android: check.android)
        } else {
            self.init(android: check.android)
        }
    }

    /// Apple's side (the file's verdict, findings and measured expectations), then Android's.
    public init(fileVerdict: Verdict, findings: [Finding], expectations: ExpectationResults, android: AndroidResult?) {
        self.init(fileVerdict: fileVerdict, findings: findings, expectations: expectations)
        guard let android, android.isWatched else { return }
        worsen(by: android)
    }

    /// A domain watched for Android only: Android's file decides, even when the site serves none and
    /// expects no app (its owner chose Android, so a missing file is a failure, not "not watched").
    public init(android: AndroidResult?) {
        self.init(verdict: .pass, reason: nil)
        guard let android else { return }
        worsen(by: android)
    }

    private mutating func worsen(by android: AndroidResult) {
        let own = Self.androidState(android)
        self.android = own.verdict
        if own.verdict > verdict {
            verdict = own.verdict
            reason = own.reason.map { DomainReason($0, platform: .android) }
        }
    }

    /// Android's own state and its reason: the file's verdict, failed by a watched URL that does not
    /// do what it must on Android 15+ (as an unmet watched URL fails Apple's side); `unmet` says which.
    /// The reason is Android's (`DomainReason.platform`): its line names the platform where it is shown.
    public static func androidState(_ android: AndroidResult) -> (verdict: Verdict, reason: String?, unmet: String?) {
        if android.verdict != .fail, android.serves, let unmet = android.watchedURLs.first(where: { !$0.meetsExpectation }) {
            let text = "watched URL \(unmet.url) \(unmet.actual) on Android 15+, expected: \(unmet.expected)."
            return (.fail, text, text)
        }
        return (android.verdict, android.findings.leadingReason(verdict: android.verdict), nil)
    }

    /// The reason made to lead with the most severe open alert when the verdict does not fail: a
    /// passing domain whose certificate expires in 5 days says so in its row, not a warning note
    /// about its file. A failing verdict keeps its own cause (the file, an unmet expectation): the
    /// alerts open on it follow from it or matter less than it. Informational alerts never lead.
    public mutating func lead(with openAlerts: [OpenAlertSummary]) {
        guard verdict != .fail,
              let worst = openAlerts.filter({ $0.severity != .info }).min(by: { $0.severity < $1.severity }) else { return }
        reason = DomainReason(worst.summary, platform: nil)
    }
}

/// An alert open on a domain, as the domain's reason weighs it (`DomainVerdict.lead(with:)`).
public struct OpenAlertSummary: Hashable, Sendable {
    public var severity: AlertSeverity
    public var summary: String

    public init(severity: AlertSeverity, summary: String) {
        self.severity = severity
        self.summary = summary
    }
}

extension [Finding] {
    /// The message of the most severe finding, the one line a row shows. An informational note
    /// ("applinks has no apps key; iOS 12…") is no problem of the domain: it never stands as the
    /// reason of a passing or warning file, only of a failing one that has nothing else to say.
    func leadingReason(verdict: Verdict) -> String? {
        filter { $0.severity != .info || verdict == .fail }.min { $0.severity.rank < $1.severity.rank }?.message
    }
}

extension ExpectationResults {
    /// One sentence per expectation the file does not meet: missing app IDs by service, then the
    /// watched URLs in the operator's order.
    public var unmetDescriptions: [String] {
        var lines: [String] = []
        for service in Service.allCases {
            for appID in missingAppIDs[service] ?? [] {
                lines.append("App ID \(appID) is missing from \(service.rawValue).")
            }
        }
        for watched in watchedURLs where !watched.meetsExpectation {
            lines.append(watched.unmetDescription)
        }
        return lines
    }
}

extension ExpectationResults {
    /// What of these results is one app link's business: its service's missing IDs among the app's
    /// own, and (for applinks) the watched URLs that must open one of the app's IDs.
    public func scoped(to service: Service, appIDs: [String]) -> ExpectationResults {
        let missing = (missingAppIDs[service] ?? []).filter(appIDs.contains)
        let watched = service != .applinks ? [] : watchedURLs.filter { result in
            if case .opensApp(let id) = result.expected { appIDs.contains(id) } else { false }
        }
        return ExpectationResults(missingAppIDs: missing.isEmpty ? [:] : [service: missing], watchedURLs: watched)
    }
}

extension WatchedURLResult {
    /// "Watched URL … does not open X: it stays in the browser." and the like.
    var unmetDescription: String {
        switch (expected, actual) {
        case (.opensApp(let want), .staysInBrowser):
            "Watched URL \(url) does not open \(want): it stays in the browser."
        case (.opensApp(let want), .opensApp(let got)):
            "Watched URL \(url) opens \(got) instead of \(want)."
        case (.staysInBrowser, .opensApp(let got)):
            "Watched URL \(url) opens \(got) instead of staying in the browser."
        case (.staysInBrowser, .staysInBrowser):
            "Watched URL \(url) stays in the browser as expected."
        }
    }
}
