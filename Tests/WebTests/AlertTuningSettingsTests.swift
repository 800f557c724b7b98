import Foundation
import Store
import Testing
import TestSupport
@testable import Web

/// The alert thresholds and retry interval (issue #31): set on the settings page or through
/// `/api/v1/settings/alerts`, kept in the settings the crawlers read, and said on the domain page.
@Suite(.serialized) struct AlertTuningSettingsTests {
    @Test func theSettingsFormSavesTheThresholdsAndTheDomainPageSaysThem() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            #expect(client.get("/settings/alerts").bodyText.contains("Now: alerts after 2 failing checks, 1 min apart; resolves after 1 passing check."))
            _ = try db.importDomain(host: "shop.example", displayName: "shop.example", wildcard: false, appIDs: [])
            let id: Int64 = try db.value("SELECT id FROM domains")
            #expect(client.get("/domains/\(id)").bodyText.contains("alerts after 2 failing checks, 1 min apart"))

            let saved = client.post("/settings/alerts", [("failure_threshold", "3"), ("success_threshold", "2"), ("retry_minutes", "5")])
            #expect(saved.status == 303 && saved.header("Location") == "/settings/alerts")
            #expect(try db.alertTuning() == AlertTuning(failureThreshold: 3, successThreshold: 2, retryMinutes: 5))
            #expect(client.get("/domains/\(id)").bodyText.contains("alerts after 3 failing checks, 5 min apart"))

            // Out of range: the page again, the field named, what was typed kept (escaped), nothing saved.
            let refused = client.post("/settings/alerts", [("failure_threshold", "0"), ("success_threshold", "2"), ("retry_minutes", "<5>")])
            #expect(refused.status == 422)
            #expect(refused.bodyText.contains("Failing checks before an alert: from 1 to 10."))
            #expect(refused.bodyText.contains("Minutes between confirming checks: from 1 to 60."))
            #expect(refused.bodyText.contains("value=\"&lt;5&gt;\"") && !refused.bodyText.contains("<5>"))
            #expect(try db.alertTuning() == AlertTuning(failureThreshold: 3, successThreshold: 2, retryMinutes: 5))
        }
    }

    @Test func theAPIReadsAndChangesThem() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            WebClient(app: app).setUpAdmin()
            let admin = SecretToken.generate(prefix: "aasa_"), reader = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "admin", tokenHash: admin.digest, userID: nil, role: .admin)
            _ = try db.createAPIToken(name: "read", tokenHash: reader.digest, userID: nil, role: .readOnly)
            func call(_ method: String, _ json: String = "", token: SecretToken) -> (status: Int, body: [String: Any]) {
                let r = app.respond(WebRequest(method: method, target: "/api/v1/settings/alerts",
                                               headers: [("Authorization", "Bearer " + token.value), ("Content-Type", "application/json")],
                                               body: Array(json.utf8)))
                return (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:])
            }
            let initial = call("GET", token: reader)
            #expect(initial.status == 200)
            #expect(initial.body["failure_threshold"] as? Int == 2 && initial.body["success_threshold"] as? Int == 1
                    && initial.body["retry_minutes"] as? Int == 1)
            #expect(call("PATCH", #"{"failure_threshold": 3}"#, token: reader).status == 403)
            let changed = call("PATCH", #"{"failure_threshold": 3}"#, token: admin)
            #expect(changed.status == 200)
            #expect(changed.body["summary"] as? String == "alerts after 3 failing checks, 1 min apart; resolves after 1 passing check")
            #expect(try db.alertTuning() == AlertTuning(failureThreshold: 3, successThreshold: 1, retryMinutes: 1), "members left out keep their value")
            let outOfRange = call("PATCH", #"{"retry_minutes": 0}"#, token: admin)
            #expect(outOfRange.status == 400 && (outOfRange.body["error"] as? [String: Any])?["field"] as? String == "retry_minutes")
            #expect(call("PATCH", #"{"retry": 5}"#, token: admin).status == 400)
            let document = String(decoding: app.respond(WebRequest(method: "GET", target: "/api/v1/openapi.json")).body, as: UTF8.self)
            #expect(document.contains(#""AlertSettingsInput": "# + AlertSettingsAPI.inputSchema.json))
            #expect(document.contains(#""/settings/alerts""#))
        }
    }
}
