import Vocabulary

/// When a domain whose alert is not yet decided is checked again. An alert opens after `openAfter`
/// failing checks in a row: on an hourly domain, waiting the interval between them would page an hour
/// late. So while a check has started failing and its alert is not open (or an open alert has started
/// passing and is not resolved), the next check comes after the policy's retry interval — 1 minute,
/// then 2, doubling per check of the streak — never later than the interval would put it. Pure.
public enum ConfirmationRetry {
    /// The rules judged on Apple's CDN copy and Google's API. Those copies lag the origin by design and
    /// are asked on their own slower cadence (`SecondaryCadence`): a retry would not ask them again, so
    /// it could not confirm anything. Their alerts keep the domain's interval.
    public static func confirmsQuickly(_ rule: AlertRule) -> Bool {
        switch rule {
        case .cdnFailure, .cdnStale, .googleVerdict: false
        default: true
        }
    }

    /// The delay before the next check given the alert tracks after this check; nil when no alert is
    /// waiting to be confirmed (open or resolve), so the domain's own schedule applies.
    public static func delay(after tracks: [AlertTrack], policy: AlertPolicy, interval: Duration) -> Duration? {
        let streaks = tracks.filter { confirmsQuickly($0.key.rule) }.compactMap(unconfirmedStreak)
        guard let shortest = streaks.min() else { return nil }
        // 1, 2, 4 … retry intervals; the exponent is bounded so the multiplication cannot overflow.
        let retry = policy.retryInterval * (1 << min(shortest - 1, 20))
        return min(retry, interval)
    }

    /// True when the last check left an alert waiting to be confirmed: the next check is a retry.
    public static func isConfirming(_ tracks: [AlertTrack]) -> Bool {
        tracks.contains { confirmsQuickly($0.key.rule) && unconfirmedStreak($0) != nil }
    }

    /// The length of the streak that has not yet reached its threshold: failing checks of an alert not
    /// open, passing checks of one still open. The state machine drops a track that passes before it
    /// opens and one that resolves, so a kept track's streak is below its threshold.
    static func unconfirmedStreak(_ track: AlertTrack) -> Int? {
        if !track.isOpen, track.failingStreak > 0 { return track.failingStreak }
        if track.isOpen, track.passingStreak > 0 { return track.passingStreak }
        return nil
    }
}
