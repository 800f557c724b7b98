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
    /// Each platform the domain watches is a step of its own (`PlatformStep`): fetched (together, on one
    /// DNS answer), judged by its pure core, summarised (`AppleResult`, `AndroidResult`), filed as a
    /// version of its platform, compared and alerted on by its platform's rules — all in the one
    /// transaction of the check. A platform the domain is not watched for makes no request at all.
    public func run(_ domain: LeasedDomain, expectations: Expectations, android: [AndroidAppExpectation] = [],
                    history: DomainHistory?, giveUpAfter: Duration = .seconds(600)) async throws -> Result {
        let context = CheckContext(domain: domain, previous: try MonitorState(history: history, consecutiveFailures: domain.consecutiveFailures),
                                   started: Date(), expectations: expectations, android: android, cadence: cadence,
                                   expectationsKey: Self.expectationsKey(expectations, android: android))
        let steps = PlatformSteps.watched(by: domain.platforms)
        var request = PlatformRequest()
        for step in steps { step.ask(context, into: &request) }
        let fetched = await fetcher.check(domain.host, asking: request)
        let summary = Self.summary(of: fetched, steps: steps, context: context)
        var diffs: [Platform: [String]] = [:]
        for step in steps { diffs[step.platform] = await step.diffLines(fetched, current: summary, context, database: database) }
        let policy = alertPolicy(for: domain, tuning: await tuning?.current())
        let step = context.previous.advanced(by: summary, policy: policy, now: summary.checkedAt, watched: domain.platforms, diffs: diffs)
        var record = try makeRecord(fetched, steps: steps, context: context, step: step, policy: policy)
        for index in record.alertChanges.indices where record.alertChanges[index].event.kind == .notice {
            record.alertChanges[index].diffSummary = record.alertChanges[index].event.platform.flatMap { diffs[$0] } ?? []
        }
        let outcome = try await recordRetrying(record, giveUpAfter: giveUpAfter)
        return Result(outcome: outcome, step: step)
    }

    /// The digest of what a check is measured against (`CheckSummary.expectationsKey`).
    static func expectationsKey(_ expectations: Expectations, android: [AndroidAppExpectation]) -> String? {
        struct Measured: Encodable { var apple: Expectations; var android: [AndroidAppExpectation] }
        return (try? StoredJSON.encode(Measured(apple: expectations, android: android))).map { SHA256.hex(Array($0.utf8)) }
    }

    /// The check's summary: each step's result, and what belongs to the host, from the first platform
    /// fetched that knows it (Apple's location when Apple is watched): the time, the certificate as a
    /// device meets it (a 304 or a resumed session reads none: the last one stands, `continuing`).
    static func summary(of fetched: FetchedPlatforms, steps: [any PlatformStep], context: CheckContext) -> CheckSummary {
        let facts = steps.compactMap { $0.fetchFacts(fetched) }
        var summary = CheckSummary(checkedAt: facts.first?.finishedAt ?? Date(), reachable: facts.contains(where: \.reachable),
                                   certificate: facts.lazy.compactMap(\.certificate).first, apple: nil, android: nil,
                                   expectationsKey: context.expectationsKey)
        for step in steps { step.summarize(fetched, context, into: &summary) }
        return summary
    }

    /// The defaults, tuned by the instance's settings, then the domain's own thresholds where it has them.
    func alertPolicy(for domain: LeasedDomain, tuning: AlertTuning? = nil) -> AlertPolicy {
        var policy = tuning.map(alertDefaults.tuned(by:)) ?? alertDefaults
        if let n = domain.alertOpenAfter { policy.openAfter = max(n, 1) }
        if let m = domain.alertResolveAfter { policy.resolveAfter = max(m, 1) }
        return policy
    }

    func makeRecord(_ fetched: FetchedPlatforms, steps: [any PlatformStep], context: CheckContext, step: MonitorState.Step,
                    policy: AlertPolicy) throws -> CheckRecord {
        let (domain, previous, finishedAt) = (context.domain, context.previous, step.check.checkedAt)
        let facts = steps.compactMap { $0.fetchFacts(fetched) }
        let changed = Self.isChange(step, previous: previous)
        let latency = facts.first?.primary.timings?.total ?? finishedAt.timeIntervalSince(context.started)
        // An unchanged check stores none of the JSON: encoding it anyway was CPU spent on every check.
        func json(_ value: some Encodable) throws -> String { changed ? try StoredJSON.encode(value) : "" }
        var record = try CheckRecord(
            domainID: domain.id, attemptKey: domain.attemptKey, startedAt: context.started, finishedAt: finishedAt,
            verdict: step.check.verdict, version: nil, changed: changed, latencyMilliseconds: Int((latency * 1000).rounded()),
            findings: [], transport: CheckTransport(), expectations: ExpectationResults(),
            summaryJSON: try json(step.check), eventsJSON: try json(step.changes),
            consecutiveFailures: step.state.consecutiveUnreachable, nextCheckAt: nextCheck(for: domain, step: step, policy: policy),
            streaks: previous.tracks == step.state.tracks ? nil : try step.state.tracks.map { try $0.row() },
            alertChanges: step.alerts.map { event in
                // An alert carries the findings of the platform whose rule it is; the host's own (the
                // certificate's) Apple's, as they always have.
                let findings = PlatformSteps.step(for: event.key.rule.platform ?? .apple).alertFindings(in: step.check)
                return AlertChange(event: event, domain: domain, findings: findings)
            })
        record.asked = Self.asked(facts, at: finishedAt)
        for platformStep in steps { try platformStep.file(fetched, step: step, last: previous.last, into: &record) }
        // The domain's state counts unmet expectations; the check's verdict stays the file's.
        // Its reason leads with an alert open after this check when the verdict does not fail.
        var domainVerdict = DomainVerdict(step.check)
        domainVerdict.lead(with: step.state.openAlerts.map { OpenAlertSummary(severity: $0.key.rule.severity, summary: $0.summary) })
        record.domainVerdict = domainVerdict.verdict
        record.reason = domainVerdict.reason
        record.platformStates = domainVerdict.platformStates
        return record
    }

    /// Whether the check changed anything (a change keeps a full row): the first, one with events or
    /// alerts, one that says something else than the last, or one that opens or closes an alert.
    static func isChange(_ step: MonitorState.Step, previous: MonitorState) -> Bool {
        // Open/closed alerts and announced thresholds are "alert state"; streak counts alone are not,
        // or every check of a failing domain would be a change.
        func alertState(_ tracks: [AlertTrack]) -> [AlertKey: Int?] {
            Dictionary(uniqueKeysWithValues: tracks.filter(\.isOpen).map { ($0.key, $0.level) })
        }
        return previous.last == nil || !step.changes.isEmpty || !step.alerts.isEmpty
            || !step.check.isRepeat(of: previous.last) || alertState(previous.tracks) != alertState(step.state.tracks)
    }

    /// When the domain is checked next: its interval (backed off while unreachable), or sooner when an
    /// alert waits for its confirming check.
    func nextCheck(for domain: LeasedDomain, step: MonitorState.Step, policy: AlertPolicy) -> Date {
        let finishedAt = step.check.checkedAt
        // A first check that ran ahead of its place in the interval, because it was requested or taken
        // from the first-check queue (an import), puts the second on the host's slot (see nextCheck).
        let routine = schedule.nextCheck(after: finishedAt, interval: .seconds(domain.intervalSeconds),
                                         consecutiveUnreachable: step.state.consecutiveUnreachable,
                                         domainKey: UInt64(bitPattern: domain.id), round: UInt64(bitPattern: domain.round),
                                         spreading: domain.round == 0 && (domain.requested || domain.queued) ? domain.host.ascii : nil)
        // An alert waiting for its confirming check gets it after the retry interval, not an interval later.
        let retry = ConfirmationRetry.delay(after: step.state.tracks, policy: policy,
                                            interval: schedule.effectiveInterval(.seconds(domain.intervalSeconds)))
        return retry.map { min(routine, finishedAt.addingTimeInterval(SchedulePolicy.seconds($0))) } ?? routine
    }

    /// The secondary requests every platform fetched made now (the comparisons, a full fetch), and the
    /// certificate when the first platform's fetch read it (Apple's; Android's only where Apple is not
    /// watched). Each platform's copy is its step's (`PlatformStep.file`). nil: the stored time stays.
    static func asked(_ facts: [PlatformFetchFacts], at finishedAt: Date) -> LastAsked {
        func everyPlatform(_ asked: (SecondaryAsked) -> Bool) -> Date? {
            !facts.isEmpty && facts.allSatisfy { asked($0.asked) } ? finishedAt : nil
        }
        return LastAsked(comparisons: everyPlatform(\.comparisons), certificate: facts.first?.asked.certificate == true ? finishedAt : nil,
                         fullFetch: everyPlatform(\.fullFetch))
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
        self.init(event: event, domainHost: domain.host.ascii, domainDisplayName: domain.displayName, findings: relevant)
    }
}
