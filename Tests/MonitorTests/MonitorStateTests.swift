import AASA
import Foundation
import Testing
import Vocabulary
@testable import Monitor

/// The whole pure step (comparison + rules + state machine) over realistic sequences of checks.
@Suite struct MonitorStateTests {
    func feed(_ checks: [CheckSummary], policy: AlertPolicy = AlertPolicy()) -> (MonitorState, [[AlertEvent]]) {
        var state = MonitorState()
        var events: [[AlertEvent]] = []
        for check in checks {
            let step = state.advanced(by: check, policy: policy, now: check.checkedAt)
            state = step.state
            events.append(step.alerts)
        }
        return (state, events)
    }

    func at(_ hour: Int) -> TimeInterval { 1_700_000_000 + Double(hour) * 3600 }

    @Test func outageOpensOnceAndRecovers() {
        let checks = [passingCheck(at: at(0)), unreachableCheck(at: at(1)), unreachableCheck(at: at(2)),
                      unreachableCheck(at: at(3)), passingCheck(at: at(4))]
        let (state, events) = feed(checks)
        #expect(events.map { $0.map { "\($0.kind.rawValue) \($0.key)" } } == [
            [], [], ["opened origin-unreachable"], [], ["resolved origin-unreachable"],
        ])
        #expect(state.tracks.isEmpty && state.consecutiveUnreachable == 0)
    }

    @Test func unreachableStreakFeedsTheBackoff() {
        let (state, _) = feed([unreachableCheck(at: at(0)), unreachableCheck(at: at(1)), unreachableCheck(at: at(2))])
        #expect(state.consecutiveUnreachable == 3)
        #expect(state.openAlerts.map(\.key) == [AlertKey(rule: .originUnreachable)])
    }

    @Test func newVersionIsANoticeNotAnAlert() {
        let (state, events) = feed([passingCheck(at: at(0), sha: "a1"), passingCheck(at: at(1), sha: "b2")])
        #expect(events[1].map(\.kind) == [.notice])
        #expect(state.tracks.isEmpty)
    }

    @Test func versionSinceCarriesAcrossUnchangedChecks() {
        var first = passingCheck(at: at(0), sha: "a1")
        first.apple?.versionSince = nil
        var later = passingCheck(at: at(5), sha: "a1")
        later.apple?.versionSince = nil
        var changed = passingCheck(at: at(6), sha: "b2")
        changed.apple?.versionSince = nil
        var state = MonitorState()
        state = state.advanced(by: first, policy: AlertPolicy(), now: first.checkedAt).state
        state = state.advanced(by: later, policy: AlertPolicy(), now: later.checkedAt).state
        #expect(state.last?.apple?.versionSince == first.checkedAt)
        state = state.advanced(by: changed, policy: AlertPolicy(), now: changed.checkedAt).state
        #expect(state.last?.apple?.versionSince == changed.checkedAt)
    }

    @Test func cdnLagAfterAChangeRaisesOnlyTheLowerTierAfterTheGrace() {
        var checks: [CheckSummary] = [passingCheck(at: at(0), sha: "old")]
        for hour in stride(from: 1, through: 52, by: 1) {
            var check = passingCheck(at: at(hour), sha: "new")
            check.apple?.versionSince = nil
            check.apple?.cdn = CDNSummary(served: true, matchesOrigin: false)
            checks.append(check)
        }
        let (_, events) = feed(checks)
        let opened = events.enumerated().flatMap { hour, list in list.filter { $0.kind == .opened }.map { (hour, $0) } }
        // Origin changed at hour 1; hour 49 is exactly 48 h later (still within the grace), hour 50 is
        // the first failing check and hour 51 the second, which opens the alert.
        #expect(opened.map(\.0) == [51])
        #expect(opened.map(\.1.severity) == [.warning])
        #expect(opened.map(\.1.key.rule) == [.cdnStale])
    }

    @Test func stateRoundTripsThroughJSON() throws {
        var check = passingCheck(at: at(0))
        check.apple?.findings = [finding("content-type-not-json", .warning, at: "")]
        check.apple?.expectations.missingAppIDs = [.applinks: ["T.x"]]
        let (state, _) = feed([check, check])
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(MonitorState.self, from: data) == state)
    }

    /// A domain switched from both platforms to Android only: Apple's open alert will never see a
    /// passing check again, so it closes with the first check after the switch, saying why, once.
    @Test func applesOpenAlertsCloseOnceWhenTheDomainIsWatchedForAndroidOnly() {
        let (state, events) = feed([unreachableCheck(at: at(0)), unreachableCheck(at: at(1))])
        #expect(events[1].map(\.kind) == [.opened] && state.openAlerts.map(\.key.rule) == [.originUnreachable])
        let androidOnly = CheckSummary(checkedAt: Date(timeIntervalSince1970: at(2)), reachable: true,
                                       android: AndroidResult(verdict: .pass, serves: true, versionSHA256: "ab"))
        let step = state.advanced(by: androidOnly, policy: AlertPolicy(), now: androidOnly.checkedAt, watched: .android)
        #expect(step.alerts.map { "\($0.kind.rawValue) \($0.key)" } == ["resolved origin-unreachable"])
        #expect(step.alerts.first?.summary.hasPrefix("Closed: Apple is no longer watched for this domain. It was: The origin did not answer") == true,
                "\(step.alerts.first?.summary ?? "")")
        #expect(step.state.tracks.isEmpty && step.state.consecutiveUnreachable == 0)
        let next = step.state.advanced(by: androidOnly, policy: AlertPolicy(), now: androidOnly.checkedAt.addingTimeInterval(3600), watched: .android)
        #expect(next.alerts.isEmpty, "closed once")
        // Without the switch the same Android-only summary holds Apple's alert: it is neither failing nor passing.
        #expect(state.advanced(by: androidOnly, policy: AlertPolicy(), now: androidOnly.checkedAt).alerts.isEmpty)
    }

    /// The other way round: Android's open alert closes when the domain is watched for Apple only, while
    /// a check that merely did not judge Android (a site with no file and no app) holds it.
    @Test func androidsOpenAlertsCloseWhenTheDomainIsWatchedForAppleOnly() {
        func check(_ hour: Int, android: AndroidResult?) -> CheckSummary {
            var check = passingCheck(at: at(hour))
            check.android = android
            return check
        }
        let broken = AndroidResult(verdict: .fail, serves: true, findings: [Finding(code: "invalid-json", severity: .error, message: "m")])
        let (state, events) = feed([check(0, android: broken), check(1, android: broken)])
        #expect(events[1].map { "\($0.kind.rawValue) \($0.key)" } == ["opened android-file-invalid"])
        #expect(state.advanced(by: check(2, android: nil), policy: AlertPolicy(), now: Date(timeIntervalSince1970: at(2))).alerts.isEmpty)
        let step = state.advanced(by: check(2, android: nil), policy: AlertPolicy(), now: Date(timeIntervalSince1970: at(2)), watched: .apple)
        #expect(step.alerts.map { "\($0.kind.rawValue) \($0.key)" } == ["resolved android-file-invalid"])
        #expect(step.alerts.first?.summary.hasPrefix("Closed: Android is no longer watched for this domain.") == true)
        #expect(step.state.openAlerts.isEmpty)
    }
}
