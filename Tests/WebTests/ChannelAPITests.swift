import Foundation
import Notify
import Store
import Testing
import TestSupport
@testable import Web

/// `/api/v1/channels`: a credential goes in and never comes out; the test endpoint answers with the provider's words.
@Suite struct ChannelAPITests {
    @Test func addListTestAndRemoveAProviderChannel() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            WebClient(app: app).setUpAdmin()
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
            func call(_ method: String, _ target: String, _ json: String = "") -> (status: Int, text: String, body: [String: Any]) {
                let r = app.respond(WebRequest(method: method, target: target, headers: [("Authorization", "Bearer " + token.value),
                                                                                          ("Content-Type", "application/json")], body: Array(json.utf8)))
                let text = String(decoding: r.body, as: UTF8.self)
                return (r.status, text, (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:])
            }
            let receiver = try TestProviderReceiver(scenario: .refuse)
            try db.setSetting(NotificationSettings.Key.allowPrivateReceivers, "true")
            let key = "R0123456789abcdef0123456789abcde"
            let created = call("POST", "/api/v1/channels", #"{"kind": "pagerduty", "target": "\#(receiver.url(for: "pagerduty"))", "credential": "\#(key)"}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(!created.text.contains(key))
            let id = try #require((created.body["channel"] as? [String: Any])?["id"] as? Int)
            // Fits the document, refused by the kind's own rule: 422, naming the field.
            let bad = call("POST", "/api/v1/channels", #"{"kind": "telegram", "credential": "1:A"}"#)
            #expect(bad.status == 422)
            #expect((bad.body["error"] as? [String: Any])?["field"] as? String == "chat_id")
            // Does not fit the document: 400, by the same schema the document publishes.
            #expect(call("POST", "/api/v1/channels", #"{"kind": "pager"}"#).status == 400)
            let unknownKey = call("POST", "/api/v1/channels", #"{"kind": "email", "target": "a@b.example", "domains": [1]}"#)
            #expect(unknownKey.status == 400 && (unknownKey.body["error"] as? [String: Any])?["field"] as? String == "domains")
            #expect(call("POST", "/api/v1/channels", #"{"kind": "telegram", "credential": "1:A", "chat_id": "me"}"#).status == 400)
            #expect(call("POST", "/api/v1/channels", #"{"kind": "email", "target": "a@b.example", "domain_ids": [4242]}"#).status == 422)
            #expect(call("POST", "/api/v1/channels", #"{"kind": "email", "target": "a@b.example", "app_ids": [4242]}"#).status == 422)
            let document = String(decoding: app.respond(WebRequest(method: "GET", target: "/api/v1/openapi.json")).body, as: UTF8.self)
            #expect(document.contains(#""ChannelInput": "# + ChannelAPI.inputSchema.json))

            let tested = call("POST", "/api/v1/channels/\(id)/test")
            #expect(tested.status == 200)
            #expect(tested.body["delivered"] as? Bool == false)
            #expect(tested.body["response_code"] as? Int == 400)
            #expect(tested.body["error"] as? String == "PagerDuty refused the message (HTTP 400): Invalid Routing Key")
            let listed = call("GET", "/api/v1/channels")
            #expect(!listed.text.contains(key))
            let channel = try #require((listed.body["channels"] as? [[String: Any]])?.first)
            #expect((channel["last_delivery"] as? [String: Any])?["state"] as? String == "failed")
            #expect(call("GET", "/api/v1/channels/\(id)").status == 200)
            #expect(call("DELETE", "/api/v1/channels/\(id)").status == 204)
            #expect(call("GET", "/api/v1/channels/\(id)").status == 404)
            #expect(call("POST", "/api/v1/channels/\(id)/test").status == 404)
        }
    }
}
