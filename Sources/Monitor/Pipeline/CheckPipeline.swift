import Vocabulary
import AASA
import AssetLinks
import Fetch
import Foundation
import Store

/// One check of one leased domain: fetch (outside any transaction) → validate → evaluate the
/// expectations → compare with the previous check → alert decisions → one transaction that writes
/// the version, the check, the domain's next time and state, the alert changes and their outbox rows.
public struct CheckPipeline: Sendable {
    public let database: Database
    public let fetcher: Fetcher
    public let schedule: SchedulePolicy
    public let alertDefaults: AlertPolicy
    /// The instance's thresholds and retry interval, over `alertDefaults`; nil: `alertDefaults` as they are.
    public let tuning: AlertTuningSource?
    /// How often Apple's CDN, Google's API and the user-agent and root-location comparisons are asked
    /// when nothing else calls for them (`SecondaryCadence`, `PlatformPlan`).
    public let cadence: SecondaryCadence
    /// Unchanged checks (most of them, in steady state) are written in batches, one statement each.
    let repeatWriter: RepeatWriter

    public init(database: Database, fetcher: Fetcher, schedule: SchedulePolicy = SchedulePolicy(),
                alertDefaults: AlertPolicy = AlertPolicy(), tuning: AlertTuningSource? = nil,
                cadence: SecondaryCadence = SecondaryCadence()) {
        self.database = database
        self.tuning = tuning
        self.cadence = cadence
        self.fetcher = fetcher
        self.schedule = schedule
        self.alertDefaults = alertDefaults
        repeatWriter = RepeatWriter(database: database)
    }

    /// What one run produced, for callers that want to look (tests, the CLI).
    public struct Result: Sendable {
        public var outcome: CheckRecordOutcome
        public var step: MonitorState.Step
    }

    /// Checks `domain` and records the result. Database errors while recording are retried until
    /// the database answers (or `giveUpAfter` passes), so an outage loses no check that was fetched.
    ///
    /// Each platform's file is a step of its own: fetched (together, on one DNS answer), judged by its
    /// pure core, summarised (`CheckSummary`, `AndroidResult`), filed as a version of its platform,
    /// compared and alerted on by its platform's rules — all in the one transaction of the check.
    public func run(_ domain: LeasedDomain, expectations: Expectations, android: [AndroidAppExpectation] = [],
                    history: DomainHistory?, giveUpAfter: Duration = .seconds(600)) async throws -> Result {
        let started = Date()
        let previous = try MonitorState(history: history, consecutiveFailures: domain.consecutiveFailures)
        // Hosts are validated at registration; one that no longer parses keeps its lease until it
        // expires and is reported by the scheduler.
        let host = try HostName(domain.host)
        // The platform setting decides what is asked: a platform the domain is not watched for makes
        // no request at all (no AASA, no Apple CDN for `android`; no assetlinks.json, no Google for `apple`).
        let watched = domain.platforms
        var check: AppleCheck?
        var androidCheck: AndroidCheck?
        let lastAndroid = previous.last?.android
        let sha256: @Sendable ([UInt8]) -> String = { SHA256.hex($0) }
        // A 304 keeps the last result, measured against the expectations of then: after an edit, fetch in full.
        let expectationsKey = Self.expectationsKey(expectations, android: android)
        let keepsExpectations = previous.last?.expectationsKey == expectationsKey
        // A retry confirming an alert asks the platforms' own files; the copies keep their cadence. Not after an
        // edit of the expectations: Google's answer is judged per expected app, so the one carried would be the old one's.
        let confirming = keepsExpectations && ConfirmationRetry.isConfirming(previous.tracks)
        var applePlan = cadence.applePlan(last: previous.last, asked: domain.lastAsked, now: started, confirming: confirming, sha256: sha256)
        if !keepsExpectations { applePlan.ifNoneMatch = nil }
        if domain.directRoute { applePlan.appleRoute = .direct }
        if watched.watches(.android) {
            // Google's copy may lag the origin by its maxAge (plus a grace): the evaluation needs to know since when.
            let since = lastAndroid?.versionSince.map { started.timeIntervalSince($0) }
            var androidPlan = cadence.androidPlan(last: lastAndroid, asked: domain.lastAsked, now: started, confirming: confirming,
                                                  sha256: sha256)
            if !keepsExpectations { androidPlan.ifNoneMatch = nil }
            if watched.watches(.apple) {
                let both = await fetcher.checkPlatforms(host, android: android, originChangedSecondsAgo: since,
                                                        apple: applePlan, androidPlan: androidPlan)
                check = both.apple
                androidCheck = both.android
            } else {
                // No AASA fetch to read the certificate on: Android's own fetch keeps its cadence.
                androidPlan.certificateDue = cadence.certificateDue(previous.last?.certificate, asked: domain.lastAsked, now: started)
                // Watched for Android only: the owner says the host publishes assetlinks.json, so none is a failure.
                androidCheck = await fetcher.checkAndroid(host, expectations: android, fileRequired: true, originChangedSecondsAgo: since,
                                                          plan: androidPlan)
            }
        } else {
            check = await fetcher.check(host, plan: applePlan)
        }
        let now = check?.finishedAt ?? androidCheck?.finishedAt ?? Date()
        let appleSide = check.map { check in
            // 304 to our If-None-Match: the stored file is current, so is what was judged of it.
            if check.notModified, let kept = previous.last?.apple { return kept }
            var result = AppleResult(check: check, expectations: expectations)
            result.wellKnownAnswer = OriginAnswer.key(check.wellKnown, sha256: sha256)
            result.wellKnownETag = Validator.etag(check.wellKnown)
            // A copy not asked this time stands as last seen (its findings were carried by the evaluation).
            if !check.asked.copy { result.cdn = previous.last?.apple?.cdn }
            return result
        }
        let androidSide = androidCheck.map { androidCheck in
            if androidCheck.notModified, var kept = lastAndroid {
                kept.probedAt = androidCheck.finishedAt
                return kept
            }
            var result = AndroidResult(check: androidCheck, expectations: android, watchedURLs: expectations.androidWatchedURLs,
                                       sha256: SHA256.hex)
            result.originAnswer = OriginAnswer.key(androidCheck.origin, sha256: sha256)
            result.originETag = Validator.etag(androidCheck.origin)
            if !androidCheck.asked.copy { result.google = lastAndroid?.google }
            return result
        }
        let summary = CheckSummary(
            checkedAt: now,
            reachable: appleSide?.originReachable == true || androidCheck?.origin.status != nil,
            // The host's certificate as a device meets it: Apple's location when Apple is watched, else Google's fetch's.
            // A 304 or a resumed session reads none: the last one stands (`continuing`).
            certificate: check.flatMap(CertificateSummary.init(apple:)) ?? CertificateSummary(facts: androidCheck?.origin),
            apple: appleSide, android: androidSide, expectationsKey: expectationsKey)
        let diffLines = await behaviourDiff(previous: previous.last?.apple, current: summary.apple, document: check?.report.document,
                                            urls: expectations.watchedURLs.map(\.url))
        let androidLines = await androidDiff(previous: previous.last?.android, current: summary.android, body: androidCheck?.origin.body,
                                              urls: expectations.androidWatchedURLs.map(\.url))
        let policy = alertPolicy(for: domain, tuning: await tuning?.current())
        let step = previous.advanced(by: summary, policy: policy, now: now, watched: watched,
                                     diffSummary: diffLines.isEmpty ? nil : diffLines.joined(separator: "; "), androidDiff: androidLines)
        var record = try makeRecord(domain: domain, check: check, android: androidCheck, startedAt: started, previous: previous, step: step,
                                    policy: policy)
        for index in record.alertChanges.indices where record.alertChanges[index].event.kind == .notice {
            record.alertChanges[index].diffSummary = record.alertChanges[index].event.platform == .android ? androidLines : diffLines
        }
        let outcome = try await recordRetrying(record, giveUpAfter: giveUpAfter)
        return Result(outcome: outcome, step: step)
    }

    /// The digest of what a check is measured against (`CheckSummary.expectationsKey`).
    static func expectationsKey(_ expectations: Expectations, android: [AndroidAppExpectation]) -> String? {
        struct Measured: Encodable { var apple: Expectations; var android: [AndroidAppExpectation] }
        return (try? StoredJSON.encode(Measured(apple: expectations, android: android))).map { SHA256.hex(Array($0.utf8)) }
    }

    /// The behavioural difference to the previous file, in lines, when the origin's file changed.
    /// Best effort: a previous file that cannot be read back gives no lines, never a failed check.
    func behaviourDiff(previous: AppleResult?, current: AppleResult?, document: AASADocument?,
                       urls: [String]) async -> [String] {
        guard let document, let oldSHA = previous?.versionSHA256, let newSHA = current?.versionSHA256, oldSHA != newSHA else {
            return []
        }
        let database = self.database
        guard let stored = try? await BlockingCallQueue.run({ try StoredVersions.apple(oldSHA, in: database) }),
              let old = stored.document else { return [] }
        let diff = AASADiff.diff(old: old, new: document, urls: urls)
        // The CLI's indentation is for a terminal; the stored event lines go without it.
        return diff.lines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Android's behavioural difference to the previous assetlinks.json, in lines (packages,
    /// fingerprints, relations, dynamic rules, and the watched URLs that flip), when the file changed.
    /// Best effort, like Apple's: a previous file that cannot be read back gives no lines. Both sides
    /// are the origin's own statements (included files are not stored), so an include is not a change.
    func androidDiff(previous: AndroidResult?, current: AndroidResult?, body: [UInt8]?, urls: [String]) async -> [String] {
        guard let oldSHA = previous?.versionSHA256, let newSHA = current?.versionSHA256, oldSHA != newSHA,
              let body, let file = AssetLinksReader.read(body).file else { return [] }
        let database = self.database
        guard let stored = try? await BlockingCallQueue.run({ try StoredVersions.android(oldSHA, in: database) }),
              let old = stored.document else { return [] }
        let diff = AssetLinksDiff.diff(old: old, new: file, urls: urls)
        return diff.isBehaviourallyEqual ? [] : diff.lines
    }

    /// The defaults, tuned by the instance's settings, then the domain's own thresholds where it has them.
    func alertPolicy(for domain: LeasedDomain, tuning: AlertTuning? = nil) -> AlertPolicy {
        var policy = tuning.map(alertDefaults.tuned(by:)) ?? alertDefaults
        if let n = domain.alertOpenAfter { policy.openAfter = max(n, 1) }
        if let m = domain.alertResolveAfter { policy.resolveAfter = max(m, 1) }
        return policy
    }

    func makeRecord(domain: LeasedDomain, check: AppleCheck?, android: AndroidCheck? = nil, startedAt: Date, previous: MonitorState,
                    step: MonitorState.Step, policy: AlertPolicy) throws -> CheckRecord {
        let apple = step.check.apple
        let finishedAt = step.check.checkedAt
        // A file new to the domain is read for the views now, once (StoredVersions): a file the domain
        // served before is stored, read, already. A version is stored for every check, so this test
        // keeps the reading off the unchanged checks.
        let last = previous.last
        // A 304 stands for the kept version, stored already: the check refers to it (no bytes are sent
        // for a stored version), so the page, the tester and the timeline still find the current file.
        let body = try apple?.versionSHA256.flatMap { sha in try check.flatMap { $0.notModified ? $0.wellKnown : deviceFacts($0) }.map {
            try StoredBody(.apple, sha256: sha, bytes: $0.body, reading: sha == last?.apple?.versionSHA256 ? nil : VersionReading(aasa: $0.body))
        } }
        let cdnBody = try apple?.cdn?.versionSHA256.flatMap { sha in try check?.cdn.map {
            try StoredBody(.apple, sha256: sha, bytes: $0.body, reading: sha == last?.apple?.cdn?.versionSHA256 ? nil : VersionReading(aasa: $0.body))
        } }
        let androidBody = try step.check.android?.versionSHA256.flatMap { sha in try android.map {
            try StoredBody(.android, sha256: sha, bytes: $0.origin.body,
                           reading: sha == last?.android?.versionSHA256 ? nil : VersionReading(assetLinks: $0.origin.body))
        } }
        var transport = CheckTransport(wellKnown: check?.wellKnown, root: check?.root, cdn: check?.cdn,
                                       plainUserAgent: check?.plainUserAgent, deviceLocation: check?.report.deviceLocation)
        if let android { transport.setAndroid(origin: android.origin, otherUserAgents: android.otherUserAgents, includes: android.includes) }
        // Open/closed alerts and announced thresholds are "alert state"; streak counts alone are not,
        // or every check of a failing domain would be a change.
        func alertState(_ tracks: [AlertTrack]) -> [AlertKey: Int?] {
            Dictionary(uniqueKeysWithValues: tracks.filter(\.isOpen).map { ($0.key, $0.level) })
        }
        let changed = previous.last == nil || !step.changes.isEmpty || !step.alerts.isEmpty
            || !step.check.isRepeat(of: previous.last) || alertState(previous.tracks) != alertState(step.state.tracks)
        // A first check that ran ahead of its place in the interval, because it was requested or taken
        // from the first-check queue (an import), puts the second on the host's slot (see nextCheck).
        let routine = schedule.nextCheck(after: finishedAt, interval: .seconds(domain.intervalSeconds),
                                         consecutiveUnreachable: step.state.consecutiveUnreachable,
                                         domainKey: UInt64(bitPattern: domain.id), round: UInt64(bitPattern: domain.round),
                                         spreading: domain.round == 0 && (domain.requested || domain.queued) ? domain.host : nil)
        // An alert waiting for its confirming check gets it after the retry interval, not an interval later.
        let retry = ConfirmationRetry.delay(after: step.state.tracks, policy: policy,
                                            interval: schedule.effectiveInterval(.seconds(domain.intervalSeconds)))
        let next = retry.map { min(routine, finishedAt.addingTimeInterval(SchedulePolicy.seconds($0))) } ?? routine
        let latency = (check?.wellKnown ?? android?.origin)?.timings?.total ?? finishedAt.timeIntervalSince(startedAt)
        // An unchanged check stores none of the JSON: encoding it anyway was CPU spent on every check.
        func json(_ value: some Encodable) throws -> String { changed ? try StoredJSON.encode(value) : "" }
        var record = try CheckRecord(
            domainID: domain.id, attemptKey: domain.attemptKey, startedAt: startedAt, finishedAt: finishedAt,
            verdict: step.check.verdict, version: body, cdnVersion: cdnBody, changed: changed,
            latencyMilliseconds: Int((latency * 1000).rounded()),
            // Apple's findings and expectations; Android's travel in `android` (checks.android).
            findings: apple?.findings ?? [],
            transport: transport,
            expectations: apple?.expectations ?? ExpectationResults(),
            summaryJSON: try json(step.check),
            eventsJSON: try json(step.changes),
            consecutiveFailures: step.state.consecutiveUnreachable,
            nextCheckAt: next,
            streaks: previous.tracks == step.state.tracks ? nil : try step.state.tracks.map { try $0.row() },
            alertChanges: step.alerts.map { event in
                // An alert carries the findings of the platform whose rule it is.
                let findings = event.key.rule.platform == .android ? step.check.android?.findings : apple?.findings
                return AlertChange(event: event, domain: domain, findings: findings ?? [])
            })
        // The domain's state counts unmet expectations; the check's verdict stays the file's.
        // Its reason leads with an alert open after this check when the verdict does not fail.
        var domainVerdict = DomainVerdict(step.check)
        domainVerdict.lead(with: step.state.openAlerts.map { OpenAlertSummary(severity: $0.key.rule.severity, summary: $0.summary) })
        record.domainVerdict = domainVerdict.verdict
        record.reason = domainVerdict.reason
        record.platformStates = domainVerdict.platformStates
        record.domainExpectations = apple?.documentParsed == true ? apple?.expectations : nil
        record.androidVersion = androidBody
        record.android = step.check.android
        record.asked = LastAsked(appleCDN: check.map { $0.asked.copy && $0.cdn != nil } == true ? finishedAt : nil,
                                 googleAPI: android.map { $0.asked.copy && $0.google != nil } == true ? finishedAt : nil,
                                 // One time for both platforms' comparisons: stamped when each platform checked made them.
                                 comparisons: Self.everyPlatform(check?.asked.comparisons, android?.asked.comparisons) ? finishedAt : nil,
                                 // The certificate is read on Apple's fetch; on Android's only where Apple is not watched.
                                 certificate: (check?.asked.certificate ?? android?.asked.certificate) == true ? finishedAt : nil,
                                 fullFetch: Self.everyPlatform(check?.asked.fullFetch, android?.asked.fullFetch) ? finishedAt : nil)
        return record
    }

    /// True when every platform checked (at least one) says so; nil: the platform was not checked.
    static func everyPlatform(_ apple: Bool?, _ android: Bool?) -> Bool {
        apple != false && android != false && (apple != nil || android != nil)
    }

    func deviceFacts(_ check: AppleCheck) -> TransportFacts? {
        AppleResult.deviceFacts(wellKnown: check.wellKnown, root: check.root, deviceLocation: check.report.deviceLocation)
    }

    func recordRetrying(_ record: CheckRecord, giveUpAfter: Duration) async throws -> CheckRecordOutcome {
        let deadline = ContinuousClock.now + giveUpAfter
        var pause = Duration.milliseconds(250)
        while true {
            do {
                if let repeated = record.plainRepeat {
                    let written = try await repeatWriter.write(repeated)
                    return written ? .recorded(checkID: nil, alertIDs: [], deliveries: 0) : .superseded
                }
                let database = self.database
                return try await BlockingCallQueue.run { try database.record(record) }
            } catch let error as DatabaseError where error.isWorthRetryingLater && ContinuousClock.now < deadline {
                // The database is away (restart, failover), or every pooled connection is busy (all the
                // checks that waited out an outage record at once): keep the result and try again.
                // Giving up here would leave the domain leased until the lease expires.
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
            }
        }
    }
}

extension DatabaseError {
    /// A failure that says nothing about the statement: the same write may succeed in a moment.
    var isWorthRetryingLater: Bool {
        if case .poolTimeout = self { return true }
        return isConnectionProblem || isSerializationFailure
    }
}

extension CheckRecord {
    /// The record as a batched repeat when that is all it writes: unchanged, with no streak or
    /// alert to store (a failing domain's streak still counts, so its checks take the full path).
    var plainRepeat: RepeatRecord? {
        // The batch writes one verdict as both the check's (counted in /metrics) and the domain's
        // state; a domain failing only its expectations takes the full path, which writes each.
        guard !changed, streaks == nil, alertChanges.isEmpty, domainVerdict == nil || domainVerdict == verdict else { return nil }
        return RepeatRecord(domainID: domainID, attemptKey: attemptKey, finishedAt: finishedAt, verdict: verdict, states: platformStates,
                            latencyMilliseconds: latencyMilliseconds, consecutiveFailures: consecutiveFailures,
                            nextCheckAt: nextCheckAt, versions: [version, cdnVersion, androidVersion].compactMap { $0?.key },
                            asked: asked)
    }
}

extension AppleResult {
    /// Apple's side of a fetched check measured against the domain's expectations.
    public init(check: AppleCheck, expectations: Expectations) {
        let report = check.report
        let results = ExpectationEvaluation.evaluate(expectations, document: report.document)
        self.init(wellKnown: check.wellKnown, root: check.root, cdn: check.cdn,
                  deviceLocation: report.deviceLocation, document: report.document, findings: report.findings,
                  verdict: report.verdict, expectations: results,
                  sha256: SHA256.hex)
    }
}

extension CertificateSummary {
    /// The certificate of the Apple location a device uses, else of whichever origin location did TLS.
    init?(apple check: AppleCheck) {
        let device = AppleResult.deviceFacts(wellKnown: check.wellKnown, root: check.root, deviceLocation: check.report.deviceLocation)
        self.init(facts: device ?? (check.wellKnown.tls != nil ? check.wellKnown : check.root))
    }
}

extension CheckSummary {
    /// True when this check says the same as `previous` (ignoring when it ran): an unchanged repeat.
    func isRepeat(of previous: CheckSummary?) -> Bool {
        guard var previous else { return false }
        previous.checkedAt = checkedAt
        previous.apple?.versionSince = apple?.versionSince
        // A probe that found what the last one found changes nothing but its time.
        if previous.android != nil, let probedAt = android?.probedAt { previous.android?.probedAt = probedAt }
        return previous == self
    }
}

extension AlertChange {
    init(event: AlertEvent, domain: LeasedDomain, findings: [Finding]) {
        // Only the findings that explain an origin alert travel with it; notices and CDN alerts carry their own summary.
        let relevant = event.severity == .critical ? findings.filter { $0.severity == .error } : []
        self.init(event: event, domainHost: domain.host, domainDisplayName: domain.displayName, findings: relevant)
    }
}
