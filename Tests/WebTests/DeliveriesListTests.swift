import Foundation
import Notify
import Store
import Testing
import TestSupport
@testable import Web

/// The alerts page's deliveries: a new file's differences, joined by "; " into the one-line title a
/// message carries, are lines again there, and a receiver's multi-line answer keeps its line breaks;
/// every line escaped (issue #31: the lines ran together as "; ").
@Suite struct DeliveriesListTests {
    @Test func aMessagesLinesAreShownAsLines() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            _ = try db.createChannel(NewChannel(kind: .webhook, name: "hook", target: "https://hooks.example.com/x"))
            let differences = ["/buy/* now opens ABCDE12345.<b>shop</b>", "https://shop.example/help now stays in the browser"]
            try db.enqueueNotification(NotificationEvent(
                kind: .versionPublished, occurredAt: Date(), domainHost: "shop.example", severity: .info,
                title: "A new file was published (bbbbbbbbbbbb, was aaaaaaaaaaaa). " + differences.joined(separator: "; "),
                diffSummary: differences))
            let delivery = try #require(try db.deliveries().first)
            _ = try db.claimDueDeliveries(limit: 1, lease: .seconds(60), worker: "test")
            try db.recordDeliveryAttempt(deliveryID: delivery.id, outcome: .retry(delaySeconds: 60), responseCode: 400, response: nil,
                                         error: "HTTP 400: Bad Request\nchannel <archived>", duration: .milliseconds(5))
            let page = client.get("/alerts").bodyText
            #expect(page.contains("<td data-label=\"Event\">A new file was published (bbbbbbbbbbbb, was aaaaaaaaaaaa).<br>/buy/* now opens ABCDE12345.&lt;b&gt;shop&lt;/b&gt;"
                                  + "<br>https://shop.example/help now stays in the browser</td>"), "\(page)")
            #expect(page.contains("<td class=\"muted\" data-label=\"Last error\">HTTP 400: Bad Request<br>channel &lt;archived&gt;</td>"))
            #expect(!page.contains("shop</b>"))
        }
    }

    @Test func theLinesOfAnEvent() {
        #expect(AlertsModel.Delivery.lines(title: "Down.", differences: []) == ["Down."])
        #expect(AlertsModel.Delivery.lines(title: "New file. a; b", differences: ["a", "b"]) == ["New file.", "a", "b"])
        // A title that does not carry them (an older row, another rule): the differences follow it.
        #expect(AlertsModel.Delivery.lines(title: "New file.", differences: ["a"]) == ["New file.", "a"])
        #expect(HTML(multiline: "a\r\nb\rc\n<d>").rendered == "a<br>b<br>c<br>&lt;d&gt;")
    }
}
