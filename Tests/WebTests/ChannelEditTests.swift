import Foundation
import ConfigFile
import Notify
import Registry
import Store
import Testing
import TestSupport
@testable import Web

/// Settings → Channels changes a channel in place (recipient, URL, template, routing to domains and
/// apps), shows a test notification's answer next to the channel that sent it, and never puts a
/// credential into a page, a form or an API answer.
@Suite(.serialized) struct ChannelEditTests {
    @Test func aChannelIsEditedInPlaceAndRoutedToAnApp() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            _ = try DomainRegistry(store: db).register(Registration(host: "shop.example", intervalMinutes: 60))
            let app = try AppRegistry(store: db).register(AppRegistration(name: "Shop", appleAppIDs: ["ABCDE12345.com.example.shop"],
                                                                             appleDomains: ["applinks:shop.example"]))
            // The add form offers the app, and routes the new channel to it.
            #expect(client.get("/channels/new?kind=telegram").bodyText.contains("name=\"app\" value=\"\(app)\""))
            let added = client.post("/channels", [("kind", "telegram"), ("name", "on-call"), ("target", ""), ("credential", "123456:ABC-def"),
                                                  ("recipient", "-100123"), ("template", ""), ("min_severity", "warning"),
                                                  ("domains", ""), ("app", String(app))])
            #expect(added.status == 303, "\(added.bodyText)")
            let made = try #require(try db.channels().first)
            #expect(made.appIDs == [app] && made.minSeverity == .warning && made.name == "on-call" && made.recipient == "-100123")
            #expect(client.get("/settings/channels").bodyText.contains("warning and critical · app Shop"))

            // The edit form shows the channel's values, never its token.
            let form = client.get("/channels/\(made.id)/edit")
            #expect(form.status == 200)
            #expect(form.bodyText.contains("value=\"-100123\"") && form.bodyText.contains("value=\"\(app)\" checked"))
            #expect(!form.bodyText.contains("ABC-def"))

            // A bad value is refused beside its field and changes nothing.
            let refused = client.post("/channels/\(made.id)/edit", [("kind", "telegram"), ("name", "on-call"), ("target", ""), ("credential", ""),
                                                                     ("recipient", "me"), ("min_severity", "warning"), ("domains", "nowhere.example"),
                                                                     ("enabled", "1")])
            #expect(refused.status == 422)
            #expect(refused.bodyText.contains("nowhere.example is not a registered domain"))
            #expect(try db.channel(id: made.id)?.recipient == "-100123")

            // Recipient and routing change in place; the token left empty is kept; the log stays.
            let saved = client.post("/channels/\(made.id)/edit", [("kind", "telegram"), ("name", "pager"), ("target", ""), ("credential", ""),
                                                                   ("recipient", "@opsroom"), ("min_severity", "critical"),
                                                                   ("domains", "shop.example"), ("enabled", "1")])
            #expect(saved.status == 303, "\(saved.bodyText)")
            let edited = try #require(try db.channel(id: made.id))
            #expect(edited.id == made.id && edited.name == "pager" && edited.recipient == "@opsroom" && edited.minSeverity == .critical)
            #expect(edited.secret == "123456:ABC-def" && edited.appIDs.isEmpty && edited.enabled)
            #expect(edited.domainIDs == [try #require(try db.domainID(host: "shop.example", wildcard: false))])
            // The kind cannot change through the form.
            #expect(client.post("/channels/\(made.id)/edit", [("kind", "slack"), ("name", "pager"), ("target", ""), ("recipient", "@opsroom"),
                                                              ("min_severity", "critical"), ("domains", "shop.example"), ("enabled", "1")]).status == 303)
            #expect(try db.channel(id: made.id)?.kind == .telegram)
            #expect(client.get("/channels/999/edit").status == 404)
        }
    }

    /// A channel's name is its identity (config files find channels by it): the form, the edit form and
    /// the API all refuse a name another channel has, through ChannelSetup, and say which name; the
    /// empty name may repeat. Before, the second "on-call" was stored and every alert went out twice.
    @Test func twoChannelsCannotShareAName() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let client = WebClient(app: app)
            client.setUpAdmin()
            client.get("/channels/new?kind=email")
            let first = client.post("/channels", [("kind", "email"), ("name", "on-call"), ("target", "ops@example.com"), ("min_severity", "info")])
            #expect(first.status == 303, "\(first.bodyText)")
            // The same name again, with surrounding blanks (trimmed as stored): refused beside the name, values kept.
            let again = client.post("/channels", [("kind", "email"), ("name", " on-call "), ("target", "pager@example.com"), ("min_severity", "info")])
            #expect(again.status == 422)
            #expect(again.bodyText.contains("another channel is already named &quot;on-call&quot;: give this one a different name"))
            #expect(again.bodyText.contains("value=\"pager@example.com\""))
            #expect(try db.channels().count == 1)
            // Nameless channels may repeat.
            for target in ["a@example.com", "b@example.com"] {
                #expect(client.post("/channels", [("kind", "email"), ("name", ""), ("target", target), ("min_severity", "info")]).status == 303)
            }
            let second = try #require(try db.channels().last)
            // Renaming a channel to a taken name is refused; keeping its own name is not.
            let renamed = client.post("/channels/\(second.id)/edit", [("kind", "email"), ("name", "on-call"), ("target", "b@example.com"),
                                                                     ("min_severity", "info"), ("enabled", "1")])
            #expect(renamed.status == 422)
            #expect(renamed.bodyText.contains("another channel is already named &quot;on-call&quot;"))
            #expect(try db.channel(id: second.id)?.name == "")
            let onCall = try #require(try db.channel(named: "on-call"))
            #expect(client.post("/channels/\(onCall.id)/edit", [("kind", "email"), ("name", "on-call"), ("target", "ops@example.com"),
                                                                ("min_severity", "warning"), ("enabled", "1")]).status == 303)
            #expect(try db.channel(id: onCall.id)?.minSeverity == .warning)

            // The API: 422 naming the field.
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
            let answer = app.respond(WebRequest(method: "POST", target: "/api/v1/channels",
                                                headers: [("Authorization", "Bearer " + token.value), ("Content-Type", "application/json")],
                                                body: Array(#"{"kind": "email", "name": "on-call", "target": "c@example.com"}"#.utf8)))
            #expect(answer.status == 422)
            let error = (try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["error"] as? [String: Any]
            #expect(error?["field"] as? String == "name")
            #expect((error?["message"] as? String)?.contains("already named \"on-call\"") == true)
            #expect(try db.channels().count == 3)

            // The database holds the rule against any other writer (migration 0064's index).
            #expect(throws: DatabaseError.self) {
                try db.createChannel(NewChannel(kind: .email, name: "on-call", target: "d@example.com"))
            }
        }
    }

    /// A receiver on this machine is saved with a warning while private receivers are refused, and
    /// without one once they are allowed (it was accepted silently, issue #31).
    @Test func aLoopbackURLIsSavedWithAWarning() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            client.get("/channels/new?kind=discord")
            let added = client.post("/channels", [("kind", "discord"), ("name", "chat"), ("target", "http://127.0.0.1:9/hook"), ("min_severity", "info")])
            #expect(added.status == 303, "\(added.bodyText)")
            let page = client.get("/settings/channels").bodyText
            #expect(page.contains("Channel added. Warning: 127.0.0.1 is in loopback 127.0.0.0/8"), "\(page)")
            let chat = try #require(try db.channel(named: "chat"))
            try db.setSetting(NotificationSettings.Key.allowPrivateReceivers, "true")
            #expect(client.post("/channels/\(chat.id)/edit", [("kind", "discord"), ("name", "chat"), ("target", "http://127.0.0.1:9/hook"),
                                                              ("min_severity", "info"), ("enabled", "1")]).status == 303)
            let allowed = client.get("/settings/channels").bodyText
            #expect(allowed.contains("Channel saved.") && !allowed.contains("Warning:"))
            // The API says it in the answer's warning (null when there is nothing to say).
            try db.setSetting(NotificationSettings.Key.allowPrivateReceivers, "false")
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "test", tokenHash: token.digest, userID: nil, role: .admin)
            func add(_ json: String) throws -> [String: Any] {
                let answer = client.app.respond(WebRequest(method: "POST", target: "/api/v1/channels",
                                                           headers: [("Authorization", "Bearer " + token.value), ("Content-Type", "application/json")],
                                                           body: Array(json.utf8)))
                #expect(answer.status == 201, "\(answer.bodyText)")
                return try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any] ?? [:]
            }
            let loopback = try add(#"{"kind": "webhook", "name": "local", "target": "http://[::1]:9/hook"}"#)
            #expect((loopback["warning"] as? String)?.hasPrefix("::1 is in loopback") == true, "\(loopback)")
            let remote = try add(#"{"kind": "webhook", "name": "remote", "target": "https://hooks.example.com/x"}"#)
            #expect(remote["warning"] is NSNull)
        }
    }

    /// "Send test" answers with Settings → Channels, the provider's answer on the tested channel.
    @Test func aTestNotificationShowsTheProvidersAnswerInPlace() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let client = WebClient(app: WebApp(database: db, configuration: TestApp.configuration))
            client.setUpAdmin()
            try db.setSetting(NotificationSettings.Key.allowPrivateReceivers, "true")
            let receiver = try TestProviderReceiver(scenario: .refuse)
            let key = "R0123456789abcdef0123456789abcde"
            let pager = try ChannelSetup.add(ChannelSpec(kind: .pagerduty, target: receiver.url(for: "pagerduty"), credential: key), in: db).channel
            let chat = try ChannelSetup.add(ChannelSpec(kind: .discord, target: receiver.url(for: "discord")), in: db).channel
            client.get("/settings/channels")
            let refused = client.post("/channels/\(pager.id)/test")
            #expect(refused.status == 200)
            let page = refused.bodyText
            let row = try #require(page.range(of: "<tr id=\"channel-\(pager.id)\">"))
            let answer = try #require(page.range(of: "Test notification: Not delivered (answered 400"))
            #expect(row.upperBound < answer.lowerBound)
            #expect(page.contains("PagerDuty refused the message (HTTP 400): Invalid Routing Key"))
            // Only the tested channel carries an answer, right after its own row.
            #expect(!page[row.upperBound..<answer.lowerBound].contains("<tr id=\"channel-"))
            #expect(page.components(separatedBy: "Test notification:").count == 2)
            #expect(!page.contains(key))

            try receiver.set(.accept)
            let delivered = client.post("/channels/\(chat.id)/test").bodyText
            #expect(delivered.contains("class=\"flash flash-success\">Test notification: Delivered (answered 204"), "\(delivered)")
            #expect(client.post("/channels/999/test").status == 404)
        }
    }

    /// A channel whose URL and key a config file read from ${VAR}: every page, form and API answer
    /// shows the reference, never the value.
    @Test func secretsFromTheEnvironmentStayOffPagesAndTheAPI() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            let app = WebApp(database: db, configuration: TestApp.configuration)
            let client = WebClient(app: app)
            client.setUpAdmin()
            let slack = "https://hooks.slack.example/services/T0/B0/SLACKSECRETpath"
            let teams = "https://teams.example/workflows/abc?sig=TEAMSSECRETsig"
            let hook = "https://hooks.example.net/aasa?token=HOOKSECRETtoken"
            let key = "R0123456789abcdefPDSECRET6789abc"
            let file = """
                channels:
                  - name: chat
                    kind: slack
                    url: ${SLACK_URL}
                  - name: teams
                    kind: teams
                    url: ${TEAMS_URL}
                  - name: hook
                    kind: webhook
                    url: https://hooks.example.net/aasa?token=${HOOK_TOKEN}
                    secret: ${HOOK_SECRET}
                  - name: pager
                    kind: pagerduty
                    routing_key: ${PD_KEY}
                """
            let environment = ["SLACK_URL": slack, "TEAMS_URL": teams, "HOOK_TOKEN": "HOOKSECRETtoken", "PD_KEY": key,
                               "HOOK_SECRET": "whsec_" + Data(repeating: 3, count: 32).base64EncodedString()]
            let document = try ConfigReader.read(Array(file.utf8), environment: environment).get()
            _ = try DomainRegistry(store: db).apply(document)
            // A hand-typed Discord URL is a credential too.
            _ = try ChannelSetup.add(ChannelSpec(kind: .discord, target: "https://discord.example/api/webhooks/1/DISCORDSECRET"), in: db)
            let token = SecretToken.generate(prefix: "aasa_")
            _ = try db.createAPIToken(name: "t", tokenHash: token.digest, userID: nil, role: .admin)
            var bodies: [String: String] = [:]
            for path in ["/settings/channels", "/alerts"] + (try db.channels()).map({ "/channels/\($0.id)/edit" }) {
                let r = client.get(path)
                #expect(r.status == 200, "\(path)")
                bodies[path] = r.bodyText
            }
            for path in ["/api/v1/channels"] + (try db.channels()).map({ "/api/v1/channels/\($0.id)" }) {
                let r = app.respond(WebRequest(method: "GET", target: path, headers: [("Authorization", "Bearer " + token.value)]))
                #expect(r.status == 200, "\(path)")
                bodies[path] = r.bodyText
            }
            for (path, body) in bodies {
                for secret in ["SLACKSECRET", "TEAMSSECRET", "HOOKSECRET", "PDSECRET", "DISCORDSECRET", environment["HOOK_SECRET"] ?? "whsec_"] {
                    #expect(!body.contains(secret), "\(secret) on \(path)")
                }
            }
            let settings = bodies["/settings/channels"] ?? ""
            #expect(settings.contains("${SLACK_URL}") && settings.contains("https://hooks.example.net/aasa?token=${HOOK_TOKEN}"))
            #expect(settings.contains("https://discord.example/… " + ChannelRecord.hiddenHint))

            // Saving the edit form of an env-sourced channel keeps the URL it was not shown.
            let chat = try #require(try db.channels().first { $0.name == "chat" })
            client.get("/channels/\(chat.id)/edit")
            #expect(client.post("/channels/\(chat.id)/edit", [("kind", "slack"), ("name", "chat"), ("target", ""), ("min_severity", "critical"),
                                                              ("enabled", "1")]).status == 303)
            let kept = try #require(try db.channel(id: chat.id))
            #expect(kept.target == slack && kept.targetTemplate == "${SLACK_URL}" && kept.minSeverity == .critical)
        }
    }
}
