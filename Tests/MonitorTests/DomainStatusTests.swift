import Vocabulary
import Foundation
import Testing
@testable import Monitor
@testable import Store

@Suite struct DomainStatusTests {
    @Test(arguments: [(nil as Verdict?, DomainState.never, "never checked"), (.pass, .passing, "passing"), (.warn, .warning, "warnings"),
                      (.fail, .failing, "failing")])
    func stateFromTheLastVerdict(verdict: Verdict?, state: DomainState, word: String) {
        #expect(DomainState(verdict: verdict) == state)
        #expect(state.statusWord == word)
    }

    @Test func jsonShapeIsTheDocumentedOne() throws {
        let statuses = [
            DomainStatus(host: "a.example", state: .failing, lastCheck: Date(timeIntervalSince1970: 1_700_000_000),
                         version: "ab12", openAlerts: ["origin-unreachable"], reason: DomainReason("The origin did not answer.", platform: .apple), apple: .failing),
            DomainStatus(host: "new.example", state: .never, lastCheck: nil, version: nil, openAlerts: [], platforms: .android),
        ]
        let json = DomainStatus.json(statuses)
        #expect(json == #"{"domains":[{"android":null,"apple":"failing","host":"a.example","last_check":"2023-11-14T22:13:20Z","open_alerts":["origin-unreachable"],"paused":false,"platforms":"both","reason":"The origin did not answer.","state":"failing","version":"ab12"},{"android":null,"apple":null,"host":"new.example","last_check":null,"open_alerts":[],"paused":false,"platforms":"android","reason":null,"state":"never checked","version":null}]}"#)
    }

    @Test func textTable() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let text = DomainStatus.text([
            DomainStatus(host: "a.example", state: .passing, lastCheck: now.addingTimeInterval(-600),
                         version: "0123456789abcdef", openAlerts: [], apple: .passing),
        ], now: now)
        #expect(text.split(separator: "\n").first == "HOST       STATE          APPLE     ANDROID   LAST CHECK    VERSION       OPEN ALERTS")
        #expect(text.split(separator: "\n").last == "a.example  passing        passing   -         10 min ago    0123456789ab  -")
        #expect(DomainStatus.text([], now: now) == "No domains registered.")
    }

    /// Android's reason is typed as Android's; `status` names the platform where it prints the line,
    /// in its JSON and under the row, as it did when the stored line carried the name.
    @Test func androidsReasonIsNamedAndroidsWhereItIsPrinted() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let status = DomainStatus(host: "a.example", state: .failing, lastCheck: now, version: nil, openAlerts: [],
                                  reason: DomainReason("The server answered HTTP 404.", platform: .android), apple: .passing, android: .failing)
        #expect(DomainStatus.json([status]).contains(#""reason":"Android: The server answered HTTP 404.""#))
        #expect(DomainStatus.text([status], now: now).hasSuffix("↳ Android: The server answered HTTP 404."))
    }

    /// A paused domain says so, in the JSON and under its row (its state is the last check's and stays).
    @Test func aPausedDomainSaysSo() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let status = DomainStatus(host: "p.example", state: .passing, lastCheck: now, version: nil, openAlerts: [], apple: .passing, paused: true)
        #expect(DomainStatus.json([status]).contains(#""paused":true"#))
        #expect(DomainStatus.text([status], now: now).hasSuffix("↳ paused: not checked until resumed (aasa-monitor resume p.example)"))
        #expect(!DomainStatus.text([DomainStatus(host: "p.example", state: .passing, openAlerts: [])], now: now).contains("paused"))
    }

    /// `status` exits with the worst domain's state, as `check` does with the worse platform's.
    @Test func exitStatusIsTheWorstDomains() {
        func status(_ state: DomainState) -> DomainStatus { DomainStatus(host: "x.example", state: state, lastCheck: nil, version: nil, openAlerts: []) }
        #expect(DomainStatus.exitStatus([]) == 0)
        #expect(DomainStatus.exitStatus([status(.passing), status(.never)]) == 0)
        #expect(DomainStatus.exitStatus([status(.passing), status(.warning)]) == 1)
        #expect(DomainStatus.exitStatus([status(.warning), status(.failing), status(.passing)]) == 2)
    }
}
