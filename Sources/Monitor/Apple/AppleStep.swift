import AASA
import Fetch
import Foundation
import Store
import Vocabulary

/// Apple's apple-app-site-association through one check (`PlatformStep`): `.well-known` as Apple's
/// fetcher asks it, the root location, Apple's CDN and the comparisons, judged by the AASA core.
struct AppleStep: PlatformStep {
    var platform: Platform { .apple }

    func ask(_ context: CheckContext, into request: inout PlatformRequest) {
        var plan = context.cadence.applePlan(last: context.previous.last, asked: context.domain.lastAsked, now: context.started,
                                             confirming: context.confirming, sha256: context.sha256)
        if !context.keepsExpectations { plan.ifNoneMatch = nil }
        if context.domain.directRoute { plan.appleRoute = .direct }
        request.apple = plan
    }

    func fetchFacts(_ fetched: FetchedPlatforms) -> PlatformFetchFacts? {
        fetched.apple.map { check in
            PlatformFetchFacts(finishedAt: check.finishedAt, primary: check.wellKnown,
                               reachable: check.wellKnown.status != nil || check.root?.status != nil,
                               // The location a device uses; a 304 or a resumed session reads none.
                               certificate: CertificateSummary(apple: check), asked: check.asked)
        }
    }

    func summarize(_ fetched: FetchedPlatforms, _ context: CheckContext, into summary: inout CheckSummary) {
        guard let check = fetched.apple else { return }
        let last = context.previous.last?.apple
        // 304 to our If-None-Match: the stored file is current, so is what was judged of it.
        if check.notModified, let last {
            summary.apple = last
            return
        }
        var result = AppleResult(check: check, expectations: context.expectations)
        result.wellKnownAnswer = OriginAnswer.key(check.wellKnown, sha256: context.sha256)
        result.wellKnownETag = Validator.etag(check.wellKnown)
        // A copy not asked this time stands as last seen (its findings were carried by the evaluation).
        if !check.asked.copy { result.cdn = last?.cdn }
        summary.apple = result
    }

    func diffLines(_ fetched: FetchedPlatforms, current: CheckSummary, _ context: CheckContext, database: Database) async -> [String] {
        guard let document = fetched.apple?.report.document, let oldSHA = context.previous.last?.apple?.versionSHA256,
              let newSHA = current.apple?.versionSHA256, oldSHA != newSHA,
              let stored = try? await BlockingCallQueue.run({ try StoredVersions.appleDocument(oldSHA, in: database) }),
              let old = stored else { return [] }
        let diff = AASADiff.diff(old: old, new: document, urls: context.expectations.watchedURLs.map(\.url))
        // The CLI's indentation is for a terminal; the stored event lines go without it.
        return diff.lines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    func file(_ fetched: FetchedPlatforms, step: MonitorState.Step, last: CheckSummary?, into record: inout CheckRecord) throws {
        guard let check = fetched.apple, let apple = step.check.apple else { return }
        // A 304 stands for the kept version, stored already: the check refers to it (no bytes are sent
        // for a stored version), so the page, the tester and the timeline still find the current file.
        let served = check.notModified ? check.wellKnown : AppleResult.deviceFacts(check)
        if let sha = apple.versionSHA256, let served {
            // A file new to the domain is read for the views now, from the check's own parse of it.
            record.version = try StoredBody(.apple, sha256: sha, bytes: served.body, reading: sha == last?.apple?.versionSHA256 ? nil
                : VersionReading(aasa: served.body, parsed: check.notModified ? AASAParser.parse(served.body).document : check.report.document))
        }
        if let sha = apple.cdn?.versionSHA256, let cdn = check.cdn {
            record.cdnVersion = try StoredBody(.apple, sha256: sha, bytes: cdn.body, reading: sha == last?.apple?.cdn?.versionSHA256 ? nil
                : VersionReading(aasa: cdn.body, parsed: Self.copyDocument(check)))
        }
        record.transport.setApple(wellKnown: check.wellKnown, root: check.root, cdn: check.cdn, plainUserAgent: check.plainUserAgent,
                                  deviceLocation: check.report.deviceLocation)
        // Apple's findings and expectations are the check's columns; Android's travel in `android` (checks.android).
        record.findings = apple.findings
        record.expectations = apple.expectations
        record.domainExpectations = apple.documentParsed ? apple.expectations : nil
        record.asked.appleCDN = check.asked.copy && check.cdn != nil ? step.check.checkedAt : nil
    }

    func alertFindings(in summary: CheckSummary) -> [Finding] { summary.apple?.findings ?? [] }

    /// The CDN's file as the AASA core reads it: the evaluation's reading, made to compare it with the
    /// origin's file (the origin's own when the bytes are the same), or the check's document when the
    /// CDN's copy is the file devices read (it followed a redirect). Parsed here only when the
    /// evaluation had no reason to read it (a copy that is not served cleanly, with a digest all the same).
    static func copyDocument(_ check: AppleCheck) -> AASADocument? {
        guard let cdn = check.cdn else { return nil }
        if check.report.deviceLocation == .cdn { return check.report.document }
        if let read = check.report.copyDocument { return read }
        return AASAParser.parse(cdn.body).document
    }
}

extension AppleResult {
    /// The location a device reads the file from, as fetched by `check`; nil when none serves it.
    static func deviceFacts(_ check: AppleCheck) -> TransportFacts? {
        deviceFacts(wellKnown: check.wellKnown, root: check.root, deviceLocation: check.report.deviceLocation)
    }
}
