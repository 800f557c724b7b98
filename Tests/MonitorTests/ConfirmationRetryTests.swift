import Vocabulary
import Foundation
import Testing
@testable import Monitor

/// The delay before the next check while an alert waits to be confirmed (`ConfirmationRetry`): pure,
/// fed with the alert state machine's tracks after each check, as the pipeline feeds it.
@Suite struct ConfirmationRetryTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let hour = Duration.seconds(3600)

    /// The next-check delay after each of `steps` (nil: the domain's own schedule).
    func delays(_ steps: [[RuleCheck]], policy: AlertPolicy = AlertPolicy(), interval: Duration = .seconds(3600)) -> [Duration?] {
        var tracks: [AlertTrack] = []
        var out: [Duration?] = []
        for (i, checks) in steps.enumerated() {
            tracks = AlertStateMachine.step(tracks: tracks, checks: checks, policy: policy, now: t0.addingTimeInterval(Double(i) * 60)).tracks
            out.append(ConfirmationRetry.delay(after: tracks, policy: policy, interval: interval))
        }
        return out
    }

    static func failing(_ rule: AlertRule = .originInvalid, _ subject: String = "") -> RuleCheck {
        RuleCheck(rule: rule, failures: [.init(subject: subject, summary: "broken")])
    }
    static func passing(_ rule: AlertRule = .originInvalid) -> RuleCheck { RuleCheck(rule: rule) }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [[RuleCheck]]
        var policy = AlertPolicy()
        var interval = Duration.seconds(3600)
        var expected: [Duration?]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "defaults: retried after 1 minute, then the alert is open and the interval applies",
            steps: [[passing()], [failing()], [failing()], [failing()]], expected: [nil, .seconds(60), nil, nil]),
        Row(name: "a failure that passes on its retry goes back to the interval",
            steps: [[failing()], [passing()]], expected: [.seconds(60), nil]),
        Row(name: "three failures to open: 1 minute, then 2",
            steps: [[failing()], [failing()], [failing()]], policy: AlertPolicy(openAfter: 3), expected: [.seconds(60), .seconds(120), nil]),
        Row(name: "capped by the domain's interval",
            steps: [[failing()], [failing()], [failing()]], policy: AlertPolicy(openAfter: 4, retryInterval: .seconds(240)),
            interval: .seconds(300), expected: [.seconds(240), .seconds(300), .seconds(300)]),
        Row(name: "two passes to resolve: the first pass of an open alert is retried",
            steps: [[failing()], [failing()], [passing()], [passing()]], policy: AlertPolicy(resolveAfter: 2),
            expected: [.seconds(60), nil, .seconds(60), nil]),
        Row(name: "opening on the first failure needs no confirmation",
            steps: [[RuleCheck(rule: .certificateExpiring, failures: [.init(summary: "7 days", level: 7)])]], expected: [nil]),
        Row(name: "Apple's CDN and Google's API keep their own slower tier",
            steps: [[failing(.cdnStale)], [failing(.googleVerdict)]], expected: [nil, nil]),
        Row(name: "a new failure beside an open alert is confirmed on its own",
            steps: [[failing(.appIDMissing, "a")], [failing(.appIDMissing, "a")],
                    [RuleCheck(rule: .appIDMissing, failures: [.init(subject: "a", summary: "a"), .init(subject: "b", summary: "b")])]],
            expected: [.seconds(60), nil, .seconds(60)]),
        Row(name: "a set retry interval",
            steps: [[failing()]], policy: AlertPolicy(retryInterval: .seconds(30)), expected: [.seconds(30)]),
    ]

    @Test(arguments: rows) func nextCheckDelay(_ row: Row) {
        #expect(delays(row.steps, policy: row.policy, interval: row.interval) == row.expected)
    }

    @Test func aRetryIsKnownFromTheTracksTheLastCheckLeft() {
        let policy = AlertPolicy()
        let pending = AlertStateMachine.step(tracks: [], checks: [Self.failing()], policy: policy, now: t0).tracks
        #expect(ConfirmationRetry.isConfirming(pending))
        let open = AlertStateMachine.step(tracks: pending, checks: [Self.failing()], policy: policy, now: t0).tracks
        #expect(!ConfirmationRetry.isConfirming(open))
        let cdn = AlertStateMachine.step(tracks: [], checks: [Self.failing(.cdnFailure)], policy: policy, now: t0).tracks
        #expect(!ConfirmationRetry.isConfirming(cdn))
    }
}
