import Testing
import Foundation
import Store
import Vocabulary
import TestSupport
@testable import Web

/// The per-domain platform setting on the form and over the API: chosen, shown again, refused
/// beside its field when it is not one of the three words, kept by a change that leaves it out.
@Suite(.serialized) struct PlatformSettingWebTests {
    @Test func theFormOffersKeepsAndRefusesIt() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            let form = client.get("/domains/new").bodyText
            #expect(form.contains("<select id=\"platforms\" name=\"platforms\"><option value=\"both\" selected>Apple and Android</option>"))
            let refused = client.post("/domains", [("host", "x.example"), ("interval", "60"), ("platforms", "<ios>")])
            #expect(refused.status == 422)
            #expect(refused.bodyText.contains("id=\"err-platforms\">Unknown platforms &quot;&lt;ios&gt;&quot;; write both, apple or android."),
                    "refused beside the field, escaped")
            #expect(refused.bodyText.contains("aria-describedby=\"err-platforms\""))
            #expect(client.post("/domains", [("host", "droid.example"), ("interval", "60"), ("platforms", "android")]).status == 303)
            let domain = try #require(try db.domain(host: "droid.example"))
            #expect(domain.platforms == .android)
            let edit = client.get("/domains/\(domain.id)/edit").bodyText
            #expect(edit.contains("<option value=\"android\" selected>Android only</option>"))
            #expect(client.post("/domains/\(domain.id)/edit", [("interval", "60"), ("platforms", "apple")]).status == 303)
            #expect(try db.domain(id: domain.id)?.platforms == .apple)
        }
    }

    @Test func theAPITakesAndReturnsIt() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            WebClient(app: app).setUpAdmin()
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
            func call(_ method: String, _ target: String, _ json: String? = nil) -> (status: Int, body: [String: Any]) {
                var headers: [(name: String, value: String)] = [("Authorization", "Bearer " + token.value)]
                if json != nil { headers.append(("Content-Type", "application/json")) }
                let r = app.respond(WebRequest(method: method, target: target, headers: headers, body: Array((json ?? "").utf8)))
                return (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any] ?? [:])
            }
            let plain = call("POST", "/api/v1/domains", #"{"host": "plain.example"}"#)
            #expect(plain.status == 201 && plain.body["platforms"] as? String == "both")
            let created = call("POST", "/api/v1/domains", #"{"host": "apple.example", "platforms": "apple"}"#)
            #expect(created.status == 201 && created.body["platforms"] as? String == "apple")
            let id = try #require(created.body["id"] as? Int)
            let patched = call("PATCH", "/api/v1/domains/\(id)", #"{"badge": true}"#)
            #expect(patched.body["platforms"] as? String == "apple", "left out: kept")
            #expect(call("PATCH", "/api/v1/domains/\(id)", #"{"platforms": "android"}"#).body["platforms"] as? String == "android")
            #expect(call("POST", "/api/v1/domains", #"{"host": "ios.example", "platforms": "ios"}"#).status == 400, "not in the enum")
            let openAPI = app.respond(WebRequest(method: "GET", target: "/api/v1/openapi.json", headers: [], body: [])).bodyText
            #expect(openAPI.contains(#""platforms": {"type": "string", "enum": ["both", "apple", "android"]}"#), "\(openAPI.prefix(0))")
        }
    }
}
