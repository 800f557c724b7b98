import Foundation
import Testing
@testable import Monitor

@Suite struct DomainStatusReportTests {
    @Test(arguments: [(nil as CheckVerdict?, DomainState.neverChecked), (.pass, .passing), (.warn, .warnings), (.fail, .failing)])
    func stateFromTheLastVerdict(verdict: CheckVerdict?, state: DomainState) {
        #expect(DomainState(lastVerdict: verdict) == state)
    }

    @Test func jsonShapeIsTheDocumentedOne() throws {
        let statuses = [
            DomainStatus(host: "a.example", state: .failing, lastCheck: Date(timeIntervalSince1970: 1_700_000_000),
                         version: "ab12", openAlerts: ["origin-unreachable"], reason: "The origin did not answer."),
            DomainStatus(host: "new.example", state: .neverChecked, lastCheck: nil, version: nil, openAlerts: []),
        ]
        let json = DomainStatusReport.json(statuses)
        #expect(json == #"{"domains":[{"host":"a.example","lastCheck":"2023-11-14T22:13:20Z","openAlerts":["origin-unreachable"],"reason":"The origin did not answer.","state":"failing","version":"ab12"},{"host":"new.example","lastCheck":null,"openAlerts":[],"reason":null,"state":"never checked","version":null}]}"#)
    }

    @Test func textTable() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let text = DomainStatusReport.text([
            DomainStatus(host: "a.example", state: .passing, lastCheck: now.addingTimeInterval(-600),
                         version: "0123456789abcdef", openAlerts: []),
        ], now: now)
        #expect(text.split(separator: "\n").last == "a.example  passing        10 min ago    0123456789ab  -")
        #expect(DomainStatusReport.text([], now: now) == "No domains registered.")
    }
}
