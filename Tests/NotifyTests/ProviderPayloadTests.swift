import Foundation
import Store
import Testing
import Vocabulary
@testable import Notify

/// Each provider's payload builder against the fields its documentation requires, and a golden body
/// per provider for an opened alert: a change to a provider's body shows here first.
@Suite struct ProviderPayloadTests {
    static let links = NotificationLinks(baseURL: "https://monitor.example.test")
    static let when = Date(timeIntervalSince1970: 1_800_000_000)

    static func channel(_ kind: ChannelKind, target: String, secret: String? = nil, recipient: String? = nil,
                        template: String? = nil) -> ChannelRecord {
        ChannelRecord(id: 3, kind: kind, name: "", target: target, secret: secret, recipient: recipient, bodyTemplate: template,
                      enabled: true, minSeverity: .info, disabledReason: nil, domainIDs: [], createdAt: when, updatedAt: when)
    }

    static func resolved() -> NotificationEvent {
        var event = SampleEvents.broken()
        event.kind = .alertResolved
        event.resolvedAt = when.addingTimeInterval(600)
        event.findings = []
        return event
    }

    static func published() -> NotificationEvent {
        NotificationEvent(kind: .versionPublished, occurredAt: when, domainID: 7, domainHost: "xn--bcher-kva.example",
                          domainDisplayName: "bücher.example", severity: .info, title: "a new file",
                          diffSummary: ["applinks: /shop/* now opens ABCDE12345.com.example.app"])
    }

    static func build(_ channel: ChannelRecord, _ event: NotificationEvent = SampleEvents.broken()) throws -> ProviderMessage {
        try ProviderPayloads.message(ProviderInput(event: event, channel: channel, links: links, deliveryKey: "msg_1", now: when)).get()
    }

    static func json(_ message: ProviderMessage) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(message.body)) as? [String: Any])
    }

    static let pagerduty = channel(.pagerduty, target: "https://events.pagerduty.com", secret: "R0123456789abcdef0123456789abcde")

    @Test func pagerDutyTriggersAndResolvesWithTheSameDedupKey() throws {
        let trigger = try Self.build(Self.pagerduty)
        #expect(trigger.url == "https://events.pagerduty.com/v2/enqueue")
        let t = try Self.json(trigger)
        #expect(t["routing_key"] as? String == "R0123456789abcdef0123456789abcde")
        #expect(t["event_action"] as? String == "trigger")
        let payload = try #require(t["payload"] as? [String: Any])
        // Required by the Events API v2: summary (≤ 1024), source, severity (critical|error|warning|info).
        #expect((payload["summary"] as? String)?.isEmpty == false)
        #expect(payload["source"] as? String == "xn--bcher-kva.example")
        #expect(payload["severity"] as? String == "critical")
        let resolve = try Self.json(try Self.build(Self.pagerduty, Self.resolved()))
        #expect(resolve["event_action"] as? String == "resolve")
        #expect(resolve["dedup_key"] as? String == t["dedup_key"] as? String)
        #expect(resolve["dedup_key"] as? String == "aasa-monitor-alert-42")
        #expect(resolve["payload"] == nil)
        let change = try Self.build(Self.pagerduty, Self.published())
        #expect(change.url == "https://events.pagerduty.com/v2/change/enqueue")
        #expect(try Self.json(change)["event_action"] == nil)
        var long = SampleEvents.broken()
        long.title = String(repeating: "x", count: 5000)
        let cut = try Self.json(try Self.build(Self.pagerduty, long))
        #expect(((cut["payload"] as? [String: Any])?["summary"] as? String)?.count == 1024)
    }

    static let opsgenie = channel(.opsgenie, target: "https://api.eu.opsgenie.com/", secret: "eb243592-faa2-4ba2-a551q-1afdf565c889")

    @Test func opsgenieCreatesAndClosesByAlias() throws {
        let create = try Self.build(Self.opsgenie)
        #expect(create.url == "https://api.eu.opsgenie.com/v2/alerts")
        #expect(create.headers.contains(.init("authorization", "GenieKey eb243592-faa2-4ba2-a551q-1afdf565c889")))
        let c = try Self.json(create)
        #expect((c["message"] as? String).map { !$0.isEmpty && $0.count <= 130 } == true)
        #expect(c["alias"] as? String == "aasa-monitor-alert-42")
        #expect(c["priority"] as? String == "P1")
        let close = try Self.build(Self.opsgenie, Self.resolved())
        #expect(close.url == "https://api.eu.opsgenie.com/v2/alerts/aasa-monitor-alert-42/close?identifierType=alias")
        #expect(try Self.json(close)["source"] as? String == "aasa-monitor")
    }

    @Test func teamsSendsAnAdaptiveCard() throws {
        let message = try Self.build(Self.channel(.teams, target: "https://prod.westus.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=s"))
        #expect(message.url.hasSuffix("?sig=s"))
        let m = try Self.json(message)
        #expect(m["type"] as? String == "message")
        let attachment = try #require((m["attachments"] as? [[String: Any]])?.first)
        #expect(attachment["contentType"] as? String == "application/vnd.microsoft.card.adaptive")
        #expect(attachment.keys.contains("contentUrl"))
        let card = try #require(attachment["content"] as? [String: Any])
        #expect(card["type"] as? String == "AdaptiveCard")
        #expect(card["version"] as? String == "1.4")
        #expect(card["$schema"] as? String == "http://adaptivecards.io/schemas/adaptive-card.json")
        let action = try #require((card["actions"] as? [[String: Any]])?.first)
        #expect(action["type"] as? String == "Action.OpenUrl")
        #expect(action["url"] as? String == "https://monitor.example.test/domains/xn--bcher-kva.example")
    }

    @Test func discordKeepsToItsLimitsAndMentionsNobody() throws {
        var event = SampleEvents.broken()
        event.title = "@everyone " + String(repeating: "y", count: 3000)
        let m = try Self.json(try Self.build(Self.channel(.discord, target: "https://discord.com/api/webhooks/1/t"), event))
        #expect((m["content"] as? String).map { $0.count <= 2000 } == true)
        #expect((m["allowed_mentions"] as? [String: Any])?["parse"] as? [String] == [])
        let embed = try #require((m["embeds"] as? [[String: Any]])?.first)
        #expect((embed["title"] as? String)?.count == 256)
        #expect(embed["color"] as? Int == 0xD93025)
        #expect((embed["fields"] as? [[String: Any]])?.count == 3)
    }

    @Test func googleChatThreadsAnAlertsMessages() throws {
        let chat = Self.channel(.googleChat, target: "https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t")
        let opened = try Self.build(chat)
        let resolved = try Self.build(chat, Self.resolved())
        #expect(opened.url == "https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t"
            + "&threadKey=aasa-monitor-alert-42&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD")
        #expect(resolved.url == opened.url)
        #expect((try Self.json(opened)["text"] as? String)?.hasPrefix("*bücher.example: ") == true)
        #expect(!(try Self.build(chat, Self.published())).url.contains("threadKey"))
    }

    @Test func mattermostAndTelegramAndNtfy() throws {
        let mm = try Self.json(try Self.build(Self.channel(.mattermost, target: "https://chat.example.test/hooks/abc")))
        #expect((mm["text"] as? String)?.contains("[Open bücher.example in aasa-monitor](https://monitor.example.test/domains/xn--bcher-kva.example)") == true)

        let telegram = try Self.build(Self.channel(.telegram, target: "https://api.telegram.org", secret: "123456:ABC-def_1",
                                                   recipient: "-1001234567890"))
        #expect(telegram.url == "https://api.telegram.org/bot123456:ABC-def_1/sendMessage")
        let t = try Self.json(telegram)
        #expect(t["chat_id"] as? String == "-1001234567890")
        #expect(t["parse_mode"] as? String == "HTML")
        let text = try #require(t["text"] as? String)
        // The title's "<script>" is escaped for Telegram's HTML; our own <b> is not.
        #expect(text.hasPrefix("<b>bücher.example: the apple-app-site-association file is unreachable &lt;script&gt;</b>"))

        let ntfy = try Self.build(Self.channel(.ntfy, target: "https://ntfy.example.test/base/alerts-1", secret: "tk_abc"))
        #expect(ntfy.url == "https://ntfy.example.test/base/")
        #expect(ntfy.headers.contains(.init("authorization", "Bearer tk_abc")))
        let n = try Self.json(ntfy)
        #expect(n["topic"] as? String == "alerts-1")
        #expect(n["priority"] as? Int == 5)
        #expect(n["click"] as? String == "https://monitor.example.test/domains/xn--bcher-kva.example")
        #expect(Ntfy.split("https://ntfy.sh/t").root == "https://ntfy.sh/")
        #expect(Ntfy.split("https://ntfy.sh/").topic == "")
    }

    @Test func customWebhookRendersTheTemplateAsSafeJSON() throws {
        let template = #"{"text": "{{summary}}", "sev": "{{severity}}", "findings": {{findings_json}}, "#
            + #""codes": [{{#findings}}"{{code}}: {{message}}"{{^last()}},{{/last()}}{{/findings}}], "resolved": {{#resolved}}true{{/resolved}}{{^resolved}}false{{/resolved}}}"#
        try CustomWebhook.check(template)
        let secret = WebhookSecret.generate().text
        let message = try Self.build(Self.channel(.customWebhook, target: "https://hooks.example.test/x", secret: secret, template: template))
        let m = try Self.json(message)
        #expect(m["sev"] as? String == "critical")
        #expect(m["codes"] as? [String] == ["http-status: The server answered 503 <b>."])
        #expect(m["resolved"] as? Bool == false)
        #expect((m["findings"] as? [[String: Any]])?.first?["code"] as? String == "http-status")
        #expect(message.headers.contains { $0.name == "webhook-signature" && $0.value.hasPrefix("v1,") })
        // Quotes, backslashes and control characters in a value stay inside the JSON string.
        var hostile = SampleEvents.broken()
        hostile.title = "\"}, \"injected\": true, \"x\": \"\\\u{0}\n\u{2028}"
        let h = try Self.json(try Self.build(Self.channel(.customWebhook, target: "https://h.example.test/", template: #"{"t": "{{title}}", "u": "{{{title}}}"}"#), hostile))
        #expect(h["t"] as? String == hostile.title)
        #expect(h["u"] as? String == hostile.title)
        #expect(h["injected"] == nil)
        // A template that cannot make JSON is refused when it is entered, with the reason.
        #expect(throws: CustomWebhook.TemplateError.self) { try CustomWebhook.check(#"{"t": {{title}}}"#) }
        #expect(throws: CustomWebhook.TemplateError.self) { try CustomWebhook.check(#"{"t": "{{#title}}"}"#) }
    }

    @Test func goldenBodies() throws {
        for (kind, channel, golden) in Self.goldens {
            let body = try Self.build(channel).bodyText
            #expect(body == golden, "\(kind): \(body)")
        }
    }

    static let goldens: [(ChannelKind, ChannelRecord, String)] = [
        (.pagerduty, pagerduty, 
         #####"{"client":"aasa-monitor","client_url":"https://monitor.example.test/domains/xn--bcher-kva.example","dedup_key":"aasa-monitor-alert-42","event_action":"trigger","links":[{"href":"https://monitor.example.test/domains/xn--bcher-kva.example","text":"Open bücher.example in aasa-monitor"}],"payload":{"class":"origin-unreachable","component":"xn--bcher-kva.example","custom_details":{"changes":["applinks: /shop/* no longer opens ABCDE12345.com.example.app"],"detail":"Two checks in a row got no answer & devices cannot fetch the file.","domain":"bücher.example","findings":["[error] http-status: The server answered 503 <b>."],"rule":"origin-unreachable"},"group":"aasa-monitor","severity":"critical","source":"xn--bcher-kva.example","summary":"bücher.example: the apple-app-site-association file is unreachable <script>","timestamp":"2027-01-15T08:00:00Z"},"routing_key":"R0123456789abcdef0123456789abcde"}"#####), (.opsgenie, opsgenie, 
         #####"{"alias":"aasa-monitor-alert-42","description":"bücher.example: the apple-app-site-association file is unreachable <script>\n\nTwo checks in a row got no answer & devices cannot fetch the file.\n\nRule: origin-unreachable\nSeverity: critical\nDomain: bücher.example (xn--bcher-kva.example)\nOpened: 2027-01-15T08:00:00Z\n\nFindings:\n- [error] http-status: The server answered 503 <b>. Fix: Serve it with 200.\n\nWhat changed:\n- applinks: /shop/* no longer opens ABCDE12345.com.example.app\n\nDetails: https://monitor.example.test/domains/xn--bcher-kva.example\n","details":{"domain":"bücher.example","link":"https://monitor.example.test/domains/xn--bcher-kva.example","rule":"origin-unreachable","severity":"critical"},"entity":"xn--bcher-kva.example","message":"bücher.example: the apple-app-site-association file is unreachable <script>","priority":"P1","source":"aasa-monitor","tags":["aasa-monitor","critical","origin-unreachable"]}"#####),
        (.teams, channel(.teams, target: "https://t.example.test/w"), 
         #####"{"attachments":[{"content":{"$schema":"http://adaptivecards.io/schemas/adaptive-card.json","actions":[{"title":"Open bücher.example in aasa-monitor","type":"Action.OpenUrl","url":"https://monitor.example.test/domains/xn--bcher-kva.example"}],"body":[{"color":"Attention","size":"Medium","text":"bücher.example: the apple-app-site-association file is unreachable <script>","type":"TextBlock","weight":"Bolder","wrap":true},{"text":"Two checks in a row got no answer & devices cannot fetch the file.","type":"TextBlock","wrap":true},{"facts":[{"title":"Domain","value":"bücher.example"},{"title":"Severity","value":"critical"},{"title":"Rule","value":"origin-unreachable"},{"title":"Opened","value":"2027-01-15T08:00:00Z"}],"type":"FactSet"},{"text":"- [error] http-status: The server answered 503 <b>.\n- applinks: /shop/* no longer opens ABCDE12345.com.example.app","type":"TextBlock","wrap":true}],"type":"AdaptiveCard","version":"1.4"},"contentType":"application/vnd.microsoft.card.adaptive","contentUrl":null}],"type":"message"}"#####),
        (.discord, channel(.discord, target: "https://discord.com/api/webhooks/1/t"), 
         #####"{"allowed_mentions":{"parse":[]},"content":"[aasa-monitor] FAILING bücher.example: the apple-app-site-association file is unreachable <script>","embeds":[{"color":14233637,"description":"Two checks in a row got no answer & devices cannot fetch the file.\n\n• [error] http-status: The server answered 503 <b>.\n• applinks: /shop/* no longer opens ABCDE12345.com.example.app","fields":[{"inline":true,"name":"Domain","value":"bücher.example"},{"inline":true,"name":"Severity","value":"critical"},{"inline":true,"name":"Rule","value":"origin-unreachable"}],"timestamp":"2027-01-15T08:00:00Z","title":"bücher.example: the apple-app-site-association file is unreachable <script>","url":"https://monitor.example.test/domains/xn--bcher-kva.example"}],"username":"aasa-monitor"}"#####),
        (.googleChat, channel(.googleChat, target: "https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t"), 
         #####"{"text":"*bücher.example: the apple-app-site-association file is unreachable <script>*\nTwo checks in a row got no answer & devices cannot fetch the file.\nSeverity: critical · Rule: `origin-unreachable`\n• [error] http-status: The server answered 503 <b>.\n• applinks: /shop/* no longer opens ABCDE12345.com.example.app\n<https://monitor.example.test/domains/xn--bcher-kva.example|Open bücher.example in aasa-monitor>"}"#####),
        (.mattermost, channel(.mattermost, target: "https://chat.example.test/hooks/abc"), 
         #####"{"text":"**bücher.example: the apple-app-site-association file is unreachable <script>**\nTwo checks in a row got no answer & devices cannot fetch the file.\nSeverity: critical · Rule: `origin-unreachable`\n- [error] http-status: The server answered 503 <b>.\n- applinks: /shop/* no longer opens ABCDE12345.com.example.app\n[Open bücher.example in aasa-monitor](https://monitor.example.test/domains/xn--bcher-kva.example)"}"#####),
        (.telegram, channel(.telegram, target: "https://api.telegram.org", secret: "123456:ABC", recipient: "@ops_alerts"), 
         #####"{"chat_id":"@ops_alerts","link_preview_options":{"is_disabled":true},"parse_mode":"HTML","text":"<b>bücher.example: the apple-app-site-association file is unreachable &lt;script&gt;</b>\nTwo checks in a row got no answer &amp; devices cannot fetch the file.\nSeverity: critical · Rule: <code>origin-unreachable</code>\n• [error] http-status: The server answered 503 &lt;b&gt;.\n• applinks: /shop/* no longer opens ABCDE12345.com.example.app\n<a href=\"https://monitor.example.test/domains/xn--bcher-kva.example\">Open bücher.example in aasa-monitor</a>"}"#####),
        (.ntfy, channel(.ntfy, target: "https://ntfy.sh/alerts"), 
         #####"{"click":"https://monitor.example.test/domains/xn--bcher-kva.example","message":"Two checks in a row got no answer & devices cannot fetch the file.\n[error] http-status: The server answered 503 <b>.\napplinks: /shop/* no longer opens ABCDE12345.com.example.app","priority":5,"tags":["rotating_light","aasa-monitor"],"title":"bücher.example: the apple-app-site-association file is unreachable <script>","topic":"alerts"}"#####),
    ]
}
