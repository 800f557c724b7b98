import Vocabulary
import Foundation
import Testing
@testable import Monitor
import Store

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
                         version: "ab12", openAlerts: ["origin-unreachable"], reason: "The origin did not answer."),
            DomainStatus(host: "new.example", state: .never, lastCheck: nil, version: nil, openAlerts: []),
        ]
        let json = DomainStatus.json(statuses)
        #expect(json == #"{"domains":[{"host":"a.example","last_check":"2023-11-14T22:13:20Z","open_alerts":["origin-unreachable"],"reason":"The origin did not answer.","state":"failing","version":"ab12"},{"host":"new.example","last_check":null,"open_alerts":[],"reason":null,"state":"never checked","version":null}]}"#)
    }

    @Test func textTable() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let text = DomainStatus.text([
            DomainStatus(host: "a.example", state: .passing, lastCheck: now.addingTimeInterval(-600),
                         version: "0123456789abcdef", openAlerts: []),
        ], now: now)
        #expect(text.split(separator: "\n").last == "a.example  passing        10 min ago    0123456789ab  -")
        #expect(DomainStatus.text([], now: now) == "No domains registered.")
    }
}
