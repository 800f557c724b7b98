import Foundation
import Vocabulary

/// What the monitor remembers about a domain between checks: the previous check and the alerts'
/// streaks. Codable, so the store keeps it as one value written in the check's transaction.
public struct MonitorState: Hashable, Sendable, Codable {
    public var last: CheckSummary?
    public var tracks: [AlertTrack] = []
    /// Checks in a row without an answer from the origin, for the scheduler's backoff.
    public var consecutiveUnreachable: Int = 0

    public var openAlerts: [AlertTrack] { tracks.filter(\.isOpen) }

    /// The result of feeding one check through comparison and alert rules.
    public struct Step: Hashable, Sendable {
        public var state: MonitorState
        /// The current check with `versionSince` carried over.
        public var check: CheckSummary
        public var changes: [CheckEvent]
        public var alerts: [AlertEvent]
    }

    /// Advances the state by one check; `diffs` holds each platform's behavioural difference to its
    /// previous file, one line per difference, for its new-version notice.
    public func advanced(by check: CheckSummary, policy: AlertPolicy, now: Date, watched: WatchedPlatforms,
                         diffs: [Platform: [String]]) -> Step {
        advanced(by: check, policy: policy, now: now, watched: watched,
                 diffSummary: diffs[.apple]?.joined(separator: "; "), androidDiff: diffs[.android] ?? [])
    }

    /// Advances the state by one check. `diffSummary` describes the behavioural difference to the
    /// previous file, when there is one, for the new-version notice; `androidDiff` the same for
    /// Android's file, one line per difference. The rules of a platform `watched` leaves out are
    /// withdrawn: alerts opened while it was watched close with this check.
    public func advanced(by check: CheckSummary, policy: AlertPolicy, now: Date, watched: WatchedPlatforms = .both,
                         diffSummary: String? = nil, androidDiff: [String] = []) -> Step {
        let current = check.continuing(from: last)
        let changes = CheckComparison.events(previous: last, current: current)
        let rules = AlertRules.evaluate(current, policy: policy, now: now, watched: watched)
        var (tracks, alerts) = AlertStateMachine.step(tracks: tracks, checks: rules, policy: policy, now: now)
        if let notice = AlertRules.newVersionNotice(previous: last?.apple, current: current.apple, diffSummary: diffSummary, now: now) {
            alerts.append(notice)
        }
        if let notice = AndroidAlertRules.newVersionNotice(previous: last?.android, current: current.android, diffSummary: androidDiff, now: now) {
            alerts.append(notice)
        }
        let next = MonitorState(last: current, tracks: tracks,
                                consecutiveUnreachable: current.reachable ? 0 : consecutiveUnreachable + 1)
        return Step(state: next, check: current, changes: changes, alerts: alerts)
    }
}
