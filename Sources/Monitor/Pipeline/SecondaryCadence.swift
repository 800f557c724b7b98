import TextEncoding
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

    /// The certificate, read on a full TLS handshake: every 6 hours, and on every check while it is
    /// untrusted, failing, unknown or within this long of expiring. In between, `.well-known` rides on a
    /// kept connection or resumes the host's TLS session (no certificate crosses the wire), and the
    /// certificate of that connection's or session's full handshake stands.
    public var certificate: TimeInterval
    /// The platforms' own files fetched without If-None-Match, whatever their ETag says: once a day. In
    /// between, a file last served as a clean 200 with a strong ETag is asked conditionally, and a 304
    /// keeps the stored result. Apple's and Google's fetchers never ask conditionally, so a server whose
    /// 304 is wrong (or whose 200 now differs in headers) is seen at the latest by the next full fetch.
    public var fullFetch: TimeInterval

    public init(appleCDN: TimeInterval = 6 * 3600, googleAPI: TimeInterval = 6 * 3600, comparisons: TimeInterval = 86_400,
                certificate: TimeInterval = 6 * 3600, fullFetch: TimeInterval = 86_400) {
        self.appleCDN = appleCDN
        self.googleAPI = googleAPI
        self.comparisons = comparisons
        self.certificate = certificate
        self.fullFetch = fullFetch
    }

    /// Every secondary request, a full handshake and a full fetch on every check: the behaviour before
    /// cadences, for comparisons in benchmarks.
    public static let everyCheck = SecondaryCadence(appleCDN: 0, googleAPI: 0, comparisons: 0, certificate: 0, fullFetch: 0)

    func due(_ lastAsked: Date?, every interval: TimeInterval, now: Date) -> Bool {
        guard let lastAsked else { return true }
        return now.timeIntervalSince(lastAsked) >= interval
    }

    /// Apple's plan for a check of a domain whose last check is `last` (everything when it had no Apple side).
    ///
    /// `confirming`: the check is a retry confirming an alert (`ConfirmationRetry`), due minutes after the
    /// last. It asks the CDN only at the CDN's own cadence (or when the CDN's copy is the file), not
    /// because the copy lagged or failed last time: a retry a minute later must not ask it again.
    func applePlan(last summary: CheckSummary?, asked: LastAsked, now: Date, confirming: Bool = false,
                   sha256: @escaping @Sendable ([UInt8]) -> String) -> PlatformPlan {
        guard let summary, let last = summary.apple else { return .everything }
        // While the origin serves a file, a CDN that failed or lagged last time is asked until it agrees.
        // While the origin redirects and the CDN's copy (fetched through the redirect) is the file devices
        // read, that copy is this check's file: asked every check, as the origin's own file would be.
        let cdnLagging = !confirming && last.versionSHA256 != nil && !(last.cdn.map { $0.served && $0.matchesOrigin } ?? false)
        let cdnUnsettled = cdnLagging || last.findings.contains { $0.code == FindingDefinition.redirectFollowed.code }
        var plan = plan(copyDue: cdnUnsettled || due(asked.appleCDN, every: appleCDN, now: now), lastAnswer: last.wellKnownAnswer,
                        etag: last.wellKnownETag,
                        findings: last.findings, asked: asked, now: now, sha256: sha256)
        plan.certificateDue = certificateDue(summary.certificate, asked: asked, now: now)
        return plan
    }

    /// A full handshake is due at its cadence, and on every check while the certificate is not a
    /// trusted one with a known expiry further away than the cadence (so the 14/7/1-day warnings and
    /// an expiry are judged on a certificate read since).
    func certificateDue(_ last: CertificateSummary?, asked: LastAsked, now: Date) -> Bool {
        guard let last, last.trusted, let notAfter = last.notAfter, notAfter.timeIntervalSince(now) > certificate else { return true }
        return due(asked.certificate, every: certificate, now: now)
    }

    /// Android's plan for a check of a domain whose last Android result is `last`; `confirming` as for Apple's.
    func androidPlan(last: AndroidResult?, asked: LastAsked, now: Date, confirming: Bool = false,
                     sha256: @escaping @Sendable ([UInt8]) -> String) -> PlatformPlan {
        guard let last else { return .everything }
        let google = last.google
        let googleUnsettled = !confirming && last.isWatched && (google.map {
            $0.unavailable != nil || !$0.errorCodes.isEmpty || !$0.notLinked.isEmpty || $0.staleBeyondGrace || $0.matchesOrigin == false
        } ?? true)
        var plan = plan(copyDue: googleUnsettled || due(asked.googleAPI, every: googleAPI, now: now), lastAnswer: last.originAnswer,
                        etag: last.originETag, findings: last.findings, asked: asked, now: now, sha256: sha256)
        // Android's fetch rides on the AASA fetch's connection, whose handshake reads the certificate.
        plan.certificateDue = false
        return plan
    }

    /// A conditional fetch only when the full fetch is not due and the last answer was a clean 200
    /// with a strong ETag (`Validator.etag`); the fetcher asks unconditionally anyway when it will ask
    /// the copy or make the comparisons, which need the file itself.
    private func plan(copyDue: Bool, lastAnswer: String?, etag: String?, findings: [Finding], asked: LastAsked, now: Date,
                      sha256: @escaping @Sendable ([UInt8]) -> String) -> PlatformPlan {
        let comparisonsDue = due(asked.comparisons, every: comparisons, now: now)
        let conditional = !due(asked.fullFetch, every: fullFetch, now: now) && lastAnswer?.hasPrefix("200 ") == true
        return PlatformPlan(copyDue: copyDue, comparisonsDue: comparisonsDue,
                            sameAsLast: { facts in lastAnswer != nil && OriginAnswer.key(facts, sha256: sha256) == lastAnswer },
                            carried: findings, ifNoneMatch: conditional ? etag : nil)
    }
}

/// Which validator of an answer may stand for its file in a conditional fetch.
enum Validator {
    /// The ETag of a clean 200 (no failure, a trusted certificate) when it is strong. A weak ETag
    /// (`W/"…"`) promises only equivalent content — nginx weakens its own when it compresses on the
    /// fly — and Last-Modified has one-second resolution and servers that compare it loosely, so
    /// neither is trusted to stand for the exact bytes the stored version holds.
    ///
    /// Nor is a strong ETag of a file modified in the second it was served (Last-Modified not before
    /// Date): nginx builds its ETag from the modification second and the size, so a same-size rewrite
    /// within that second keeps the ETag and would be answered 304 for ever after. Apache weakens such
    /// ETags for the same reason; the next check fetches in full and learns a settled one.
    static func etag(_ facts: TransportFacts) -> String? {
        guard facts.failure == nil, facts.status == 200, facts.tls?.trusted != false, !facts.bodyTruncated,
              let etag = facts.headers["etag"], etag.hasPrefix("\""), etag.hasSuffix("\""), etag.count >= 2,
              etag.utf8.count <= 200, !modifiedWhileServed(facts) else { return nil }
        return etag
    }

    /// Last-Modified at or after the response's Date (same second, or a clock ahead of the server's).
    /// Unreadable or missing dates leave the ETag alone: servers without them have no reason to be
    /// suspected of nginx's scheme.
    static func modifiedWhileServed(_ facts: TransportFacts) -> Bool {
        guard let modified = facts.headers["last-modified"].flatMap(HTTPDate.parse),
              let served = facts.headers["date"].flatMap(HTTPDate.parse) else { return false }
        return modified >= served
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
