import Store

/// The knobs of the alert rules; per domain, defaults from the issue.
public struct AlertPolicy: Hashable, Sendable, Codable {
    /// Consecutive failing checks before an alert opens, so one timeout pages nobody.
    public var openAfter: Int
    /// Consecutive passing checks before an open alert resolves.
    public var resolveAfter: Int
    /// Days before certificate expiry at which to warn, each once.
    public var certificateThresholdDays: [Int]
    /// How long Apple's CDN may keep serving an older file than the origin before it is an alert.
    public var cdnGrace: Duration
    /// How soon a check that starts (or stops) failing is checked again to confirm it, instead of a
    /// whole interval later: this after the first such check, twice this after the second, and so on,
    /// never longer than the domain's interval (`ConfirmationRetry`). With `openAfter` 2 an alert opens
    /// about this long after the break, whatever the interval.
    public var retryInterval: Duration

    public init(openAfter: Int = 2, resolveAfter: Int = 1, certificateThresholdDays: [Int] = [14, 7, 1],
                cdnGrace: Duration = .seconds(48 * 3600), retryInterval: Duration = .seconds(60)) {
        self.openAfter = max(openAfter, 1)
        self.resolveAfter = max(resolveAfter, 1)
        self.retryInterval = max(retryInterval, .seconds(1))
        self.certificateThresholdDays = certificateThresholdDays.filter { $0 > 0 }.sorted(by: >)
        self.cdnGrace = cdnGrace
    }
}

extension AlertPolicy {
    /// This policy with the instance's thresholds and retry interval (settings page, API, config file).
    public func tuned(by tuning: AlertTuning) -> AlertPolicy {
        var policy = self
        policy.openAfter = max(tuning.failureThreshold, 1)
        policy.resolveAfter = max(tuning.successThreshold, 1)
        policy.retryInterval = .seconds(60 * max(tuning.retryMinutes, 1))
        return policy
    }
}
