import Vocabulary
import Foundation
import Testing
@testable import Monitor

@Suite struct AlertStateMachineTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    /// Runs a sequence of rule verdicts through the machine, returning the events of each step.
    func run(_ steps: [[RuleCheck]], policy: AlertPolicy = AlertPolicy()) -> (tracks: [AlertTrack], events: [[AlertEvent.Kind]]) {
        var tracks: [AlertTrack] = []
        var all: [[AlertEvent.Kind]] = []
        for (i, checks) in steps.enumerated() {
            let out = AlertStateMachine.step(tracks: tracks, checks: checks, policy: policy, now: t0.addingTimeInterval(Double(i) * 3600))
            tracks = out.tracks
            all.append(out.events.map(\.kind))
        }
        return (tracks, all)
    }

    let failing = RuleCheck(rule: .originInvalid, failures: [.init(summary: "broken")])
    let passing = RuleCheck(rule: .originInvalid)
    let unknown = RuleCheck(rule: .originInvalid, evaluated: false)

    @Test func opensAfterTwoFailuresAndResolvesAfterOnePass() {
        let result = run([[failing], [failing], [failing], [passing], [passing]])
        #expect(result.events == [[], [.opened], [], [.resolved], []])
        #expect(result.tracks.isEmpty)
    }

    @Test func oneTimeoutPagesNobody() {
        #expect(run([[failing], [passing], [failing], [passing]]).events == [[], [], [], []])
    }

    @Test func perDomainThresholds() {
        let policy = AlertPolicy(openAfter: 3, resolveAfter: 2)
        let result = run([[failing], [failing], [failing], [passing], [failing], [passing], [passing]], policy: policy)
        #expect(result.events == [[], [], [.opened], [], [], [], [.resolved]])
    }

    @Test func unevaluatedChecksHoldTheStreak() {
        // A check that cannot judge the rule neither confirms nor clears it.
        #expect(run([[failing], [unknown], [failing]]).events == [[], [], [.opened]])
        #expect(run([[failing], [failing], [unknown], [unknown], [passing]]).events == [[], [.opened], [], [], [.resolved]])
    }

    @Test func subjectsAreSeparateAlerts() {
        let a = RuleCheck(rule: .appIDMissing, failures: [.init(subject: "applinks T.a", summary: "a")])
        let ab = RuleCheck(rule: .appIDMissing, failures: [.init(subject: "applinks T.a", summary: "a"),
                                                           .init(subject: "applinks T.b", summary: "b")])
        let b = RuleCheck(rule: .appIDMissing, failures: [.init(subject: "applinks T.b", summary: "b")])
        var tracks: [AlertTrack] = []
        var keys: [[String]] = []
        for (i, check) in [a, ab, ab, b].enumerated() {
            let out = AlertStateMachine.step(tracks: tracks, checks: [check], policy: AlertPolicy(), now: t0.addingTimeInterval(Double(i)))
            tracks = out.tracks
            keys.append(out.events.map { "\($0.kind.rawValue) \($0.key)" })
        }
        #expect(keys == [[], ["opened app-id-missing applinks T.a"], ["opened app-id-missing applinks T.b"],
                         ["resolved app-id-missing applinks T.a"]])
    }

    @Test func recoveryEventSaysWhatRecovered() {
        var tracks: [AlertTrack] = []
        var events: [AlertEvent] = []
        for check in [failing, failing, passing] {
            let out = AlertStateMachine.step(tracks: tracks, checks: [check], policy: AlertPolicy(), now: t0)
            tracks = out.tracks
            events += out.events
        }
        #expect(events.map(\.kind) == [.opened, .resolved])
        #expect(events[1].summary == "Resolved: broken" && events[1].severity == .critical)
    }

    func certificate(_ level: Int?) -> RuleCheck {
        RuleCheck(rule: .certificateExpiring,
                  failures: level.map { [.init(summary: "expires within \($0)", level: $0)] } ?? [])
    }

    @Test func certificateThresholdsEachOnce() {
        // Daily checks from 20 days before expiry: warn at 14, 7 and 1 and never twice; renewal resolves.
        let levels: [Int?] = [nil, nil, 14, 14, 14, 7, 7, 7, 1, 1, nil]
        let result = run(levels.map { [certificate($0)] })
        #expect(result.events == [[], [], [.opened], [], [], [.escalated], [], [], [.escalated], [], [.resolved]])
    }

    @Test func certificateFirstSeenLateOpensOnceAtItsLevel() {
        // A domain registered 3 days before expiry: one alert at 7 days, then 1; not 14 after the fact.
        #expect(run([[certificate(7)], [certificate(1)], [certificate(1)]]).events == [[.opened], [.escalated], []])
    }

    @Test func stateRoundTripsThroughJSON() throws {
        let out = run([[failing], [failing], [certificate(7)]])
        let data = try JSONEncoder().encode(out.tracks)
        #expect(try JSONDecoder().decode([AlertTrack].self, from: data) == out.tracks)
    }
}
