import Vocabulary
import AASA
import Foundation

/// The alert rules, each a pure function of this check, the policy and the time. The state machine
/// (`AlertStateMachine`) turns their verdicts into opened and resolved alerts.
public enum AlertRules {
    /// Every rule's verdict on `check`, in a fixed order. The rules of a platform `watched` leaves out
    /// are withdrawn (their open alerts close); Apple's rules judge `check.apple`, Android's `check.android`.
    public static func evaluate(_ check: CheckSummary, policy: AlertPolicy, now: Date, watched: WatchedPlatforms = .both) -> [RuleCheck] {
        let certificate = [certificateExpiring(check, policy: policy, now: now), certificateUntrusted(check)]
        let apple: [RuleCheck]
        if let side = check.apple, watched.watches(.apple) {
            apple = [originUnreachable(side), originInvalid(side), appIDMissing(side), detailsEmpty(side), watchedURLChanged(side)]
                + certificate + [cdnFailure(side), cdnStale(side, checkedAt: check.checkedAt, policy: policy, now: now)]
        } else {
            apple = certificate + appleRules.map { watched.watches(.apple) ? .notEvaluated($0) : .withdrawn($0, platform: .apple) }
        }
        let android = watched.watches(.android) ? AndroidAlertRules.evaluate(check.android, fileRequired: watched == .android)
            : AlertRule.allCases.filter { $0.platform == .android }.map { RuleCheck.withdrawn($0, platform: .android) }
        return apple + android
    }

    static let appleRules = AlertRule.allCases.filter { $0.platform == .apple }

    /// The origin gave no HTTP response at all (DNS, refused, TLS failure, timeout…).
    public static func originUnreachable(_ check: AppleResult) -> RuleCheck {
        guard !check.originReachable else { return RuleCheck(rule: .originUnreachable) }
        let reasons = check.originFindings.filter { $0.severity == .error }.map(\.message)
        let summary = reasons.isEmpty ? "The origin did not answer." : "The origin did not answer: \(reasons.joined(separator: "; "))"
        return RuleCheck(rule: .originUnreachable, failures: [.init(summary: summary)])
    }

    /// The origin answered, but with an error-level finding (bad status, invalid JSON, wrong type…).
    /// Unreachable origins are the previous rule's business, so this one holds its state then.
    public static func originInvalid(_ check: AppleResult) -> RuleCheck {
        guard check.originReachable else { return .notEvaluated(.originInvalid) }
        let errors = check.originFindings.filter { $0.severity == .error }
        guard !errors.isEmpty else { return RuleCheck(rule: .originInvalid) }
        let codes = Array(Set(errors.map(\.code))).sorted().joined(separator: ", ")
        return RuleCheck(rule: .originInvalid, failures: [.init(summary: "The file has errors: \(codes).")])
    }

    /// A required app ID is missing from a service. Judged only when a document was parsed: a broken
    /// file is already an `origin-invalid` alert, and one alert per app ID on top would be noise.
    public static func appIDMissing(_ check: AppleResult) -> RuleCheck {
        guard check.documentParsed else { return .notEvaluated(.appIDMissing) }
        var failures: [RuleCheck.Failure] = []
        for service in Service.allCases {
            for appID in check.expectations.missingAppIDs[service] ?? [] {
                failures.append(.init(subject: "\(service.rawValue) \(appID)",
                                      summary: "\(appID) is missing from \(service.rawValue)."))
            }
        }
        return RuleCheck(rule: .appIDMissing, failures: failures)
    }

    /// `applinks` is declared but its `details` routes nothing: every universal link stays in Safari.
    public static func detailsEmpty(_ check: AppleResult) -> RuleCheck {
        guard check.documentParsed else { return .notEvaluated(.detailsEmpty) }
        guard check.applinksDetailCount == 0 else { return RuleCheck(rule: .detailsEmpty) }
        return RuleCheck(rule: .detailsEmpty,
                         failures: [.init(summary: "applinks.details is empty: no link opens any app.")])
    }

    /// A watched URL does something other than what the operator expects of it.
    public static func watchedURLChanged(_ check: AppleResult) -> RuleCheck {
        guard check.documentParsed else { return .notEvaluated(.watchedURLChanged) }
        let failures = check.expectations.watchedURLs.filter { !$0.meetsExpectation }.map { result in
            RuleCheck.Failure(subject: result.url,
                              summary: "\(result.url) \(result.actual), expected: \(result.expected).")
        }
        return RuleCheck(rule: .watchedURLChanged, failures: failures)
    }

    /// The certificate expires within one of the policy's thresholds; the level is the smallest
    /// threshold reached, so the state machine can warn once per threshold.
    public static func certificateExpiring(_ check: CheckSummary, policy: AlertPolicy, now: Date) -> RuleCheck {
        guard let notAfter = check.certificate?.notAfter else { return .notEvaluated(.certificateExpiring) }
        let secondsLeft = notAfter.timeIntervalSince(now)
        let reached = policy.certificateThresholdDays.filter { secondsLeft <= Double($0) * 86_400 }
        guard let level = reached.min() else { return RuleCheck(rule: .certificateExpiring) }
        let summary = secondsLeft <= 0
            ? "The certificate expired on \(Self.day(notAfter))."
            : "The certificate expires on \(Self.day(notAfter)), within \(level) day\(level == 1 ? "" : "s")."
        return RuleCheck(rule: .certificateExpiring, failures: [.init(summary: summary, level: level)])
    }

    /// The chain is not trusted by the system roots any more.
    public static func certificateUntrusted(_ check: CheckSummary) -> RuleCheck {
        guard let certificate = check.certificate else { return .notEvaluated(.certificateUntrusted) }
        guard !certificate.trusted else { return RuleCheck(rule: .certificateUntrusted) }
        let reason = certificate.failureReason.map { ": \($0)" } ?? ""
        return RuleCheck(rule: .certificateUntrusted,
                         failures: [.init(summary: "The certificate chain is not trusted\(reason).")])
    }

    /// Apple's CDN refused to serve the file (`Apple-Failure-Reason`, an error status, no answer).
    public static func cdnFailure(_ check: AppleResult) -> RuleCheck {
        guard let cdn = check.cdn else { return .notEvaluated(.cdnFailure) }
        guard !cdn.served else { return RuleCheck(rule: .cdnFailure) }
        let reason = cdn.failureReason.map { ": \($0)" } ?? ""
        return RuleCheck(rule: .cdnFailure, failures: [.init(summary: "Apple's CDN does not serve the file\(reason).")])
    }

    /// Apple's CDN still serves another file than the origin, longer than the grace period after the
    /// origin changed. Within the grace period the lag is expected, so the rule holds its state.
    public static func cdnStale(_ check: AppleResult, checkedAt: Date, policy: AlertPolicy, now: Date) -> RuleCheck {
        guard let cdn = check.cdn, cdn.served, check.versionSHA256 != nil else { return .notEvaluated(.cdnStale) }
        guard !cdn.matchesOrigin else { return RuleCheck(rule: .cdnStale) }
        let since = check.versionSince ?? checkedAt
        guard now.timeIntervalSince(since) > SchedulePolicy.seconds(policy.cdnGrace) else { return .notEvaluated(.cdnStale) }
        let hours = Int(now.timeIntervalSince(since) / 3600)
        return RuleCheck(rule: .cdnStale, failures: [.init(
            summary: "Apple's CDN still serves an older file, \(hours) h after the origin changed.")])
    }

    /// The informational notice for a newly published file; nil when the file did not change.
    public static func newVersionNotice(previous: AppleResult?, current: AppleResult?,
                                        diffSummary: String?, now: Date) -> AlertEvent? {
        guard let old = previous?.versionSHA256, let new = current?.versionSHA256, old != new else {
            return nil
        }
        var summary = "A new file was published (\(new.prefix(12)), was \(old.prefix(12)))."
        if let diffSummary, !diffSummary.isEmpty { summary += " " + diffSummary }
        return AlertEvent(kind: .notice, key: AlertKey(rule: .newVersion, subject: new),
                          severity: AlertRule.newVersion.severity, summary: summary, at: now, platform: .apple)
    }

    static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}
