import Foundation
import TestSupport
import Testing

/// `channel add pagerduty ROUTING_KEY` and friends, and `channel test` printing the provider's answer,
/// against the test suite's provider receiver.
@Suite struct ProviderChannelCommandTests {
    @Test func addAProviderAndTestItSeeingTheProvidersAnswer() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let receiver = try TestProviderReceiver()
        let db = ["--database-url", database.url]
        let env = ["AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS": "1"]
        let key = "R0123456789abcdef0123456789abcde"

        let pd = try BuiltCommand.run(["channel", "add", "pagerduty", key, "--endpoint", receiver.url(for: "pagerduty")] + db)
        #expect(pd.status == 0, "\(pd.stderr)")
        #expect(pd.stdout.contains("added channel 1: pagerduty \(receiver.url(for: "pagerduty"))"))
        let telegram = try BuiltCommand.run(["channel", "add", "telegram", "123456:ABC-def", "--chat-id=-100123",
                                             "--endpoint", receiver.url(for: "telegram")] + db)
        #expect(telegram.status == 0, "\(telegram.stderr)")
        let noChat = try BuiltCommand.run(["channel", "add", "telegram", "123456:ABC-def"] + db)
        #expect(noChat.status == 64)
        #expect(noChat.stderr.contains("Telegram needs the chat id"))

        // The credentials are never listed.
        let list = try BuiltCommand.run(["channel", "list"] + db)
        let json = try BuiltCommand.run(["channel", "list", "--json"] + db)
        for output in [list.stdout, json.stdout, pd.stdout, telegram.stdout] {
            #expect(!output.contains(key) && !output.contains("ABC-def"), "\(output)")
        }

        let test = try BuiltCommand.run(["channel", "test", "1"] + db, environment: env)
        #expect(test.status == 0, "\(test.stdout) \(test.stderr)")
        #expect(test.stdout.contains("answered 202"), "\(test.stdout)")
        #expect(test.stdout.contains("Event processed"), "\(test.stdout)")

        // A refusal prints the provider's words and exits 1.
        try receiver.set(.refuse)
        let refused = try BuiltCommand.run(["channel", "test", "2"] + db, environment: env)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("Telegram refused the message (HTTP 400): Bad Request: chat not found"), "\(refused.stdout)")
        #expect(!refused.stdout.contains("ABC-def"))

        // Without the opt-in, the refusal says why and how to allow it.
        try receiver.set(.accept)
        let strict = try BuiltCommand.run(["channel", "test", "1"] + db)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("loopback"), "\(strict.stdout)")
        #expect(strict.stdout.contains("AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS=1"), "\(strict.stdout)")
    }
}
