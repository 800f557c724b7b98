import AssetLinks
import Fetch
import Foundation
import Store
import Vocabulary

/// Android's assetlinks.json through one check (`PlatformStep`): the file as Google's fetcher asks
/// it, its includes, Google's Digital Asset Links API and the comparisons, judged by the AssetLinks core.
struct AndroidStep: PlatformStep {
    var platform: Platform { .android }

    func ask(_ context: CheckContext, into request: inout PlatformRequest) {
        let last = context.previous.last?.android
        var plan = context.cadence.androidPlan(last: last, asked: context.domain.lastAsked, now: context.started,
                                               confirming: context.confirming, sha256: context.sha256)
        if !context.keepsExpectations { plan.ifNoneMatch = nil }
        // Read on Android's own fetch only where Apple is not watched: the fetch of both platforms reads
        // it on Apple's connection, which Android's requests ride on (`Fetcher.check(_:asking:)`).
        plan.certificateDue = context.cadence.certificateDue(context.previous.last?.certificate, asked: context.domain.lastAsked,
                                                             now: context.started)
        // Google's copy may lag the origin by its maxAge (plus a grace): the evaluation needs to know since when.
        let since = last?.versionSince.map { context.started.timeIntervalSince($0) }
        request.android = AndroidRequest(plan: plan, expectations: context.android, originChangedSecondsAgo: since)
    }

    func fetchFacts(_ fetched: FetchedPlatforms) -> PlatformFetchFacts? {
        fetched.android.map { check in
            PlatformFetchFacts(finishedAt: check.finishedAt, primary: check.origin, reachable: check.origin.status != nil,
                               certificate: CertificateSummary(facts: check.origin), asked: check.asked)
        }
    }

    func summarize(_ fetched: FetchedPlatforms, _ context: CheckContext, into summary: inout CheckSummary) {
        guard let check = fetched.android else { return }
        let last = context.previous.last?.android
        if check.notModified, var kept = last {
            kept.probedAt = check.finishedAt
            summary.android = kept
            return
        }
        var result = AndroidResult(check: check, expectations: context.android, watchedURLs: context.expectations.androidWatchedURLs,
                                   sha256: context.sha256)
        result.originAnswer = OriginAnswer.key(check.origin, sha256: context.sha256)
        result.originETag = Validator.etag(check.origin)
        if !check.asked.copy { result.google = last?.google }
        summary.android = result
    }

    /// Packages, fingerprints, relations, dynamic rules, and the watched URLs that flip. Both sides are
    /// the origin's own statements (included files are not stored), so an include is not a change.
    func diffLines(_ fetched: FetchedPlatforms, current: CheckSummary, _ context: CheckContext, database: Database) async -> [String] {
        guard let file = fetched.android?.report.document?.file, let oldSHA = context.previous.last?.android?.versionSHA256,
              let newSHA = current.android?.versionSHA256, oldSHA != newSHA,
              let stored = try? await BlockingCallQueue.run({ try StoredVersions.androidDocument(oldSHA, in: database) }),
              let old = stored else { return [] }
        let diff = AssetLinksDiff.diff(old: old, new: file, urls: context.expectations.androidWatchedURLs.map(\.url))
        return diff.isBehaviourallyEqual ? [] : diff.lines
    }

    func file(_ fetched: FetchedPlatforms, step: MonitorState.Step, last: CheckSummary?, into record: inout CheckRecord) throws {
        record.android = step.check.android
        guard let check = fetched.android else { return }
        if let sha = step.check.android?.versionSHA256 {
            // A file new to the domain is read for the views now, from the check's own reading of it.
            record.androidVersion = try StoredBody(.android, sha256: sha, bytes: check.origin.body,
                                                   reading: sha == last?.android?.versionSHA256 ? nil
                                                       : VersionReading(assetLinks: check.origin.body, parsed: check.report.document?.file))
        }
        record.transport.setAndroid(origin: check.origin, otherUserAgents: check.otherUserAgents, includes: check.includes)
        record.asked.googleAPI = check.asked.copy && check.google != nil ? step.check.checkedAt : nil
    }

    func alertFindings(in summary: CheckSummary) -> [Finding] { summary.android?.findings ?? [] }
}
