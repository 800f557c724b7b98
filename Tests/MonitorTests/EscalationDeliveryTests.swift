import Vocabulary
import Foundation
import Store
import Testing
import TestSupport
@testable import Monitor

/// An open alert that gets worse is delivered as `alert.escalated`, not as a second `alert.opened`.
@Suite struct EscalationDeliveryTests {
    @Test func aWorseCertificateThresholdIsAnEscalatedDelivery() throws {
        try TestPostgres.withDatabase { database in
            _ = try database.importDomain(host: "cert.example", displayName: "cert.example", wildcard: false, appIDs: [])
            try database.execute("INSERT INTO channels (kind, target) VALUES ('webhook', 'https://hooks.example/a')")
            let start = Date()
            // The state machine's events for 14 days, then 7 days, before expiry.
            let policy = AlertPolicy()
            let key = AlertKey(rule: .certificateExpiring, subject: "")
            func check(days: Int) -> RuleCheck {
                RuleCheck(rule: .certificateExpiring, evaluated: true,
                          failures: [.init(subject: "", summary: "The certificate expires in \(days) days", level: days)])
            }
            let opened = AlertStateMachine.step(tracks: [], checks: [check(days: 14)], policy: policy, now: start)
            let escalated = AlertStateMachine.step(tracks: opened.tracks, checks: [check(days: 7)], policy: policy,
                                                   now: start.addingTimeInterval(3600))
            #expect(opened.events.map(\.kind) == [.opened] && escalated.events.map(\.kind) == [.escalated])
            #expect(escalated.events.first?.key == key)

            for events in [opened.events, escalated.events] {
                let domain = try #require(try database.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "w").first)
                var record = CheckRecord(
                    domainID: domain.id, attemptKey: domain.attemptKey, startedAt: Date(), finishedAt: Date(), verdict: .warn,
                    version: nil, changed: true, latencyMilliseconds: 5, findings: [], transport: CheckTransport(),
                    expectations: ExpectationResults(), summaryJSON: "{}", eventsJSON: "[]", consecutiveFailures: 0, nextCheckAt: Date(),
                    streaks: nil, alertChanges: events.map { AlertChange(event: $0, domain: domain, findings: []) })
                record.platformStates = PlatformStates(apple: .warn)   // Apple's file, no expectations
                guard case .recorded = try database.record(record) else {
                    Issue.record("not recorded")
                    return
                }
            }
            let rows = try database.rows("SELECT event, payload::text FROM deliveries ORDER BY id")
            #expect(try rows.map { try $0.decode(0, as: String.self) } == ["opened", "escalated"])
            let last = try NotificationEvent.fromStoredJSON(try #require(rows.last).decode(1))
            #expect(last.kind == .alertEscalated && last.title == "The certificate expires in 7 days")
            #expect(try count(database, "SELECT count(*)::int FROM alerts WHERE state = 'open'") == 1)
            let alertSummary: String = try database.value("SELECT summary FROM alerts")
            #expect(alertSummary == "The certificate expires in 7 days")
        }
    }
}
