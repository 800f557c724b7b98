import Vocabulary
import AASA
import AssetLinks
import Fetch
import Foundation
import Store

/// How often a check makes each secondary request when nothing else calls for it. The origin is
/// fetched on the domain's own interval; these ride along only every so often (`PlatformPlan`), and
/// besides whenever the origin's answer moved, the copy disagreed or failed last time, or the
/// platform's fetcher looks blocked. Settings of `serve` and `worker` (`--cdn-interval`,
/// `--google-interval`, `--comparison-interval`, in minutes).
public struct SecondaryCadence: Sendable, Hashable {
    /// Apple's CDN. Its copy changes only when Apple re-fetches the origin (within about a day), so a
    /// quiet CDN is asked every 6 hours; after a change of the origin, and while it lags or fails, every check.
    public var appleCDN: TimeInterval
    /// Google's Digital Asset Links API, likewise: every 6 hours while it agrees; after a change of the
    /// origin's file, and while it lags, fails or reports a problem, every check (so its catching up or
    /// going stale is seen when it happens).
    public var googleAPI: TimeInterval
    /// The comparisons (a browser's and Android's user agents, Apple's root location beside a working
    /// `.well-known`): once a day while the platform's own fetch answers as before; every check when it
    /// looks blocked or its answer moved.
    public var comparisons: TimeInterval

    public init(appleCDN: TimeInterval = 6 * 3600, googleAPI: TimeInterval = 6 * 3600, comparisons: TimeInterval = 86_400) {
        self.appleCDN = appleCDN
        self.googleAPI = googleAPI
        self.comparisons = comparisons
    }

    /// Every secondary request on every check: the behaviour before cadences, for comparisons in benchmarks.
    public static let everyCheck = SecondaryCadence(appleCDN: 0, googleAPI: 0, comparisons: 0)

    func due(_ lastAsked: Date?, every interval: TimeInterval, now: Date) -> Bool {
        guard let lastAsked else { return true }
        return now.timeIntervalSince(lastAsked) >= interval
    }

    /// Apple's plan for a check of a domain whose last check is `last`.
    func applePlan(last: CheckSummary?, asked: LastAsked, now: Date, sha256: @escaping @Sendable ([UInt8]) -> String) -> PlatformPlan {
        guard let last else { return .everything }
        // While the origin serves a file, a CDN that failed or lagged last time is asked until it agrees.
        let cdnUnsettled = last.versionSHA256 != nil && !(last.cdn.map { $0.served && $0.matchesOrigin } ?? false)
        return plan(copyDue: cdnUnsettled || due(asked.appleCDN, every: appleCDN, now: now), lastAnswer: last.wellKnownAnswer,
                    findings: last.findings, asked: asked, now: now, sha256: sha256)
    }

    /// Android's plan for a check of a domain whose last Android result is `last`.
    func androidPlan(last: AndroidResult?, asked: LastAsked, now: Date, sha256: @escaping @Sendable ([UInt8]) -> String) -> PlatformPlan {
        guard let last else { return .everything }
        let google = last.google
        let googleUnsettled = last.isWatched && (google.map {
            $0.unavailable != nil || !$0.errorCodes.isEmpty || !$0.notLinked.isEmpty || $0.staleBeyondGrace || $0.matchesOrigin == false
        } ?? true)
        return plan(copyDue: googleUnsettled || due(asked.googleAPI, every: googleAPI, now: now), lastAnswer: last.originAnswer,
                    findings: last.findings, asked: asked, now: now, sha256: sha256)
    }

    private func plan(copyDue: Bool, lastAnswer: String?, findings: [Finding], asked: LastAsked, now: Date,
                      sha256: @escaping @Sendable ([UInt8]) -> String) -> PlatformPlan {
        PlatformPlan(copyDue: copyDue, comparisonsDue: due(asked.comparisons, every: comparisons, now: now),
                     sameAsLast: { facts in lastAnswer != nil && OriginAnswer.key(facts, sha256: sha256) == lastAnswer },
                     carried: findings)
    }
}

/// What the platform's own fetch of the origin answered, in one comparable value: the failure's kind,
/// or the status with the file's digest when it is 200. Remembered in the summary so the next check
/// can tell whether the answer moved (`PlatformPlan.sameAsLast`).
enum OriginAnswer {
    static func key(_ facts: TransportFacts, sha256: ([UInt8]) -> String) -> String {
        if let failure = facts.failure { return "failure \(failure.kind.rawValue)" }
        guard let status = facts.status else { return "no answer" }
        let trust = facts.tls?.trusted == false ? " untrusted" : ""
        return status == 200 ? "200\(trust) \(sha256(facts.body))" : "\(status)\(trust)"
    }
}
