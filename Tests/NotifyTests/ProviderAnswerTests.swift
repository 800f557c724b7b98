import Foundation
import Store
import Testing
@testable import Notify

/// How a provider's answer becomes the outbox's verdict, and what a channel accepts when it is added.
@Suite struct ProviderAnswerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func answersBecomeVerdictsWithTheProvidersWords() {
        let pd = PagerDuty.answer
        let ok = pd.result(status: 202, headers: [:], body: Array(#"{"status":"success","message":"Event processed","dedup_key":"k"}"#.utf8))
        #expect(ok.verdict == .delivered)
        #expect(ok.reply?.contains("Event processed") == true)
        let refused = pd.result(status: 400, headers: [:], body: Array(
            #"{"status":"invalid event","message":"Event object is invalid","errors":["Length of 'routing_key' is incorrect (should be 32 characters)"]}"#.utf8))
        #expect(refused.verdict == .refused)
        #expect(refused.error == "PagerDuty refused the message (HTTP 400): Length of 'routing_key' is incorrect (should be 32 characters)")
        let limited = pd.result(status: 429, headers: ["retry-after": "7"], body: [])
        #expect(limited.verdict == .retry)
        #expect(limited.retryAfterSeconds == 7)
        #expect(pd.result(status: 502, headers: [:], body: Array("bad gateway".utf8)).verdict == .retry)
        #expect(pd.result(status: 410, headers: [:], body: []).verdict == .gone)
        #expect(pd.result(status: 408, headers: [:], body: []).verdict == .retry)
        // Discord and Telegram say how long to wait in the body too.
        let discord = Discord.answer.result(status: 429, headers: [:], body: Array(#"{"message":"You are being rate limited.","retry_after":1.5,"global":false}"#.utf8))
        #expect(discord.retryAfterSeconds == 1.5)
        #expect(discord.error?.contains("You are being rate limited.") == true)
        let telegram = Telegram.answer.result(status: 429, headers: [:], body: Array(
            #"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 5","parameters":{"retry_after":5}}"#.utf8))
        #expect(telegram.retryAfterSeconds == 5)
        let chat = Telegram.answer.result(status: 400, headers: [:], body: Array(#"{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}"#.utf8))
        #expect(chat.error == "Telegram refused the message (HTTP 400): Bad Request: chat not found")
        #expect(GoogleChat.answer.result(status: 400, headers: [:], body: Array(#"{"error":{"code":400,"message":"Invalid JSON payload","status":"INVALID_ARGUMENT"}}"#.utf8)).error
            == "Google Chat refused the message (HTTP 400): Invalid JSON payload")
    }

    @Test func retryAfterReadsSecondsAndDates() {
        #expect(ProviderAnswer.retryAfter("120", now: Self.now) == 120)
        #expect(ProviderAnswer.retryAfter(" 0 ", now: Self.now) == 0)
        #expect(ProviderAnswer.retryAfter("-5", now: Self.now) == 0)
        // 1_800_000_000 is Fri, 15 Jan 2027 08:00:00 GMT.
        #expect(ProviderAnswer.retryAfter("Fri, 15 Jan 2027 08:00:30 GMT", now: Self.now) == 30)
        #expect(ProviderAnswer.retryAfter("soon", now: Self.now) == nil)
        #expect(ProviderAnswer.retryAfter(nil, now: Self.now) == nil)
    }

    @Test func eachKindAsksForWhatItNeeds() throws {
        let pd = try ChannelSetup.validated(ChannelSpec(kind: .pagerduty, credential: " R0123456789abcdef0123456789abcde "))
        #expect(pd.settings.target == "https://events.pagerduty.com")
        #expect(pd.secret == "R0123456789abcdef0123456789abcde")
        #expect(throws: ChannelSetup.InvalidInput.self) { try ChannelSetup.validated(ChannelSpec(kind: .pagerduty)) }
        let eu = try ChannelSetup.validated(ChannelSpec(kind: .opsgenie, target: "https://api.eu.opsgenie.com", credential: "key"))
        #expect(eu.settings.target == "https://api.eu.opsgenie.com")
        let telegram = try ChannelSetup.validated(ChannelSpec(kind: .telegram, credential: "123456:ABC-def", recipient: "-100123"))
        #expect(telegram.settings.recipient == "-100123")
        for bad in [ChannelSpec(kind: .telegram, credential: "not-a-token", recipient: "1"),
                    ChannelSpec(kind: .telegram, credential: "1:A", recipient: "me"),
                    ChannelSpec(kind: .telegram, credential: "1:A"),
                    ChannelSpec(kind: .discord, target: "https://discord.com/api/webhooks/1/t", credential: "x"),
                    ChannelSpec(kind: .ntfy, target: "https://ntfy.sh/"),
                    ChannelSpec(kind: .teams, target: "ftp://x.example/"),
                    ChannelSpec(kind: .customWebhook, target: "https://h.example/"),
                    ChannelSpec(kind: .customWebhook, target: "https://h.example/", template: "{{title}}"),
                    ChannelSpec(kind: .slack, target: "https://h.example/", template: "{}"),
                    ChannelSpec(kind: .opsgenie, credential: "two\nlines")] {
            #expect(throws: ChannelSetup.InvalidInput.self, "\(bad)") { try ChannelSetup.validated(bad) }
        }
        let custom = try ChannelSetup.validated(ChannelSpec(kind: .customWebhook, target: "https://h.example/", template: #"{"t":"{{title}}"}"#))
        // No signing secret given: `add` makes one. One given is kept (it was replaced by a new one,
        // which broke a receiver that already verified with it), and must be a whsec_ secret.
        #expect(custom.secret == nil)
        let given = "whsec_" + Data(repeating: 7, count: 32).base64EncodedString()
        let kept = try ChannelSetup.validated(ChannelSpec(kind: .webhook, target: "https://h.example/", credential: given))
        #expect(kept.secret == given)
        #expect(throws: ChannelSetup.InvalidInput.self) {
            try ChannelSetup.validated(ChannelSpec(kind: .webhook, target: "https://h.example/", credential: "whsec_short"))
        }
        // An edit may leave a required credential out: the stored one is kept.
        #expect(try ChannelSetup.validated(ChannelSpec(kind: .pagerduty), keepsStoredSecret: true).secret == nil)
        do {
            _ = try ChannelSetup.validated(ChannelSpec(kind: .telegram, credential: "1:A"))
        } catch {
            #expect(error.field == "recipient")
        }
    }
}
