import Vocabulary
import Foundation

/// Turns rule verdicts into alert events: an alert opens after `openAfter` consecutive failing
/// checks and resolves after `resolveAfter` passing ones, with a recovery event. Pure.
public enum AlertStateMachine {
    public static func step(tracks: [AlertTrack], checks: [RuleCheck], policy: AlertPolicy,
                            now: Date) -> (tracks: [AlertTrack], events: [AlertEvent]) {
        var byKey: [AlertKey: AlertTrack] = [:]
        for track in tracks { byKey[track.key] = track }
        var events: [AlertEvent] = []

        // A withdrawn rule's alerts will never see a passing check: waiting for `resolveAfter` of
        // them would leave them open for good. They close now, saying why, so a channel that was
        // told of the alert hears that it is over.
        for check in checks {
            guard let reason = check.withdrawn else { continue }
            for (key, track) in byKey where key.rule == check.rule {
                if track.isOpen {
                    events.append(AlertEvent(kind: .resolved, key: key, severity: check.rule.severity,
                                             summary: "Closed: \(reason) It was: \(track.summary)", at: now))
                }
                byKey[key] = nil
            }
        }

        for check in checks where check.evaluated {
            var failing: Set<AlertKey> = []
            for failure in check.failures {
                let key = AlertKey(rule: check.rule, subject: failure.subject)
                failing.insert(key)
                var track = byKey[key] ?? AlertTrack(key: key)
                track.failingStreak += 1
                track.passingStreak = 0
                track.summary = failure.summary
                let needed = check.rule.opensOnFirstFailure ? 1 : policy.openAfter
                if !track.isOpen, track.failingStreak >= needed {
                    track.openedAt = now
                    track.level = failure.level
                    events.append(AlertEvent(kind: .opened, key: key, severity: check.rule.severity,
                                             summary: failure.summary, at: now))
                } else if track.isOpen, let level = failure.level, let announced = track.level, level < announced {
                    // Each threshold once: 14 days, then 7, then 1; never the same one twice.
                    track.level = level
                    events.append(AlertEvent(kind: .escalated, key: key, severity: check.rule.severity,
                                             summary: failure.summary, at: now))
                }
                byKey[key] = track
            }
            // Every other track of this rule passed this check.
            for (key, var track) in byKey where key.rule == check.rule && !failing.contains(key) {
                guard track.isOpen else {
                    // A pending alert that never opened just forgets its streak.
                    byKey[key] = nil
                    continue
                }
                track.failingStreak = 0
                track.passingStreak += 1
                if track.passingStreak >= policy.resolveAfter {
                    events.append(AlertEvent(kind: .resolved, key: key, severity: check.rule.severity,
                                             summary: "Resolved: \(track.summary)", at: now))
                    byKey[key] = nil
                } else {
                    byKey[key] = track
                }
            }
        }
        return (byKey.values.sorted { $0.key < $1.key }, events)
    }
}
