import Foundation
import Store
import Testing
@testable import Notify

/// An escalation says it is worse, in the subject people sort by and in the webhook's type.
@Suite struct EscalatedEventTextTests {
    @Test func anEscalationIsWorseNotNew() throws {
        var event = SampleEvents.broken()
        event.kind = .alertEscalated
        event.severity = .warning
        event.title = "The certificate expires in 7 days"
        let text = NotificationText(event: event, links: NotificationLinks(baseURL: "https://monitor.example.test"))
        #expect(text.subject == "[aasa-monitor] WORSE WARNING bücher.example: The certificate expires in 7 days")
        #expect(text.plain.hasPrefix("Worse on bücher.example: The certificate expires in 7 days"))
        let body = WebhookPayload.body(for: event, format: .event, links: NotificationLinks(baseURL: "https://m.example"))
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect(payload["type"] as? String == "alert.escalated")
    }
}
