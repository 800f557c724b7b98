import Foundation
import Notify
import Store
import Testing
import TestSupport
@testable import Web

/// Settings → Channels adds provider channels (a form per kind), never shows their credentials again, shows each
/// channel's latest delivery with the receiver's reason, and holds the admin's private-receivers switch.
@Suite(.serialized) struct ProviderChannelSettingsTests {
    @Test func aProviderChannelFromTheFormKeepsItsKeyHidden() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            #expect(client.get("/channels/new").bodyText.contains("<a href=\"/channels/new?kind=pagerduty\">PagerDuty</a>"))
            #expect(client.get("/settings/channels").bodyText.contains("Private receivers"))
            client.get("/channels/new?kind=pagerduty")
            let key = "R0123456789abcdef0123456789abcde"
            let added = client.post("/channels", [("kind", "pagerduty"), ("target", ""), ("credential", key), ("recipient", ""), ("template", "")])
            #expect(added.status == 303)
            let channel = try #require(try db.channels().first)
            #expect(channel.kind == .pagerduty && channel.secret == key && channel.target == "https://events.pagerduty.com")
            #expect(!client.get("/settings/channels").bodyText.contains(key))
            #expect(!client.get("/alerts").bodyText.contains(key))

            // A refusal is shown beside its field, and the key typed is not sent back.
            let refused = client.post("/channels", [("kind", "telegram"), ("target", ""), ("credential", "123:ABC"), ("recipient", ""), ("template", "")])
            #expect(refused.status == 422)
            #expect(refused.bodyText.contains("Telegram needs the chat id"))
            #expect(!refused.bodyText.contains("123:ABC"))

            // The latest delivery, with the provider's words, is on the channel's row.
            let id = try ChannelSetup.sendTest(channelID: channel.id, in: db)
            let claimed = try #require(try db.claimDueDeliveries(limit: 1, lease: .seconds(60), worker: "t", onlyID: id).first)
            try db.recordDeliveryAttempt(deliveryID: claimed.id, outcome: .giveUp(disableChannelBecause: nil), responseCode: 400,
                                         response: nil, error: "PagerDuty refused the message (HTTP 400): Invalid Routing Key",
                                         duration: .milliseconds(5))
            #expect(client.get("/settings/channels").bodyText.contains("gave up: PagerDuty refused the message (HTTP 400): Invalid Routing Key"))
        }
    }

    @Test func privateReceiversAreAnExplicitAdminSetting() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            client.get("/settings/channels")
            #expect(try !NotificationSettings.allowsPrivateReceivers(environment: [:], database: db))
            #expect(client.post("/settings/private-receivers", [("allow", "1")]).header("Location") == "/settings/channels#private-receivers")
            #expect(try NotificationSettings.allowsPrivateReceivers(environment: [:], database: db))
            #expect(try NotificationSettings.deliveryConfiguration(environment: [:], database: db).webhookPolicy.outbound.allowPrivateAddresses)
            #expect(client.get("/settings/channels").bodyText.contains("name=\"allow\" value=\"1\" checked"))
            #expect(client.post("/settings/private-receivers", []).status == 303)
            #expect(try !NotificationSettings.allowsPrivateReceivers(environment: [:], database: db))
        }
    }
}
