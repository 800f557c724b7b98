import Foundation
import TestSupport
import Testing

/// Proxy variables in the environment are not obeyed by any connection the product makes: a proxy
/// would carry the request past the address the outbound policy judged and pinned (issue #16,
/// finding 2). Each command runs with every proxy variable pointing at a trap that records what
/// reaches it; the command's own environment is the only one changed.
@Suite struct ProxyEnvironmentTests {
    static func proxyEnvironment(_ trap: TestWebhookReceiver) -> [String: String] {
        ["http_proxy": trap.proxyURL, "https_proxy": trap.proxyURL, "HTTPS_PROXY": trap.proxyURL,
         "all_proxy": trap.proxyURL, "ALL_PROXY": trap.proxyURL, "smtp_proxy": trap.proxyURL,
         "no_proxy": "", "NO_PROXY": ""]
    }

    @Test func crawlerIgnoresProxyVariables() async throws {
        let trap = try TestWebhookReceiver()
        try await TestTLSFleet.with { fleet in
            let flags = ["--allow-private-addresses", "--ca-file", fleet.caFile, "--cdn-base", fleet.cdnBase]
                + fleet.connectTo.flatMap { ["--connect-to", $0] }
            let outcome = try BuiltCommand.run(["check", fleet.host("good")] + flags, environment: Self.proxyEnvironment(trap))
            #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("good.fleet.test: PASS"), "\(outcome.stdout)")
        }
        #expect(trap.requests().isEmpty, "\(trap.requests().map { "\($0.method) \($0.path)" })")
    }

    @Test func webhooksAndEmailIgnoreProxyVariables() throws {
        let trap = try TestWebhookReceiver()
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let receiver = try TestWebhookReceiver()
        let smtp = try TestSMTP()
        let db = ["--database-url", database.url]
        let env = ["AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS": "1", "SMTP_URL": smtp.url, "SMTP_FROM": "alerts@monitor.example.test"]
            .merging(Self.proxyEnvironment(trap)) { $1 }
        #expect(try BuiltCommand.run(["channel", "add", "webhook", receiver.url] + db).status == 0)
        #expect(try BuiltCommand.run(["channel", "add", "email", "ops@example.test"] + db).status == 0)

        let hook = try BuiltCommand.run(["channel", "test", "1"] + db, environment: env)
        #expect(hook.status == 0, "\(hook.stdout) \(hook.stderr)")
        #expect(receiver.waitForRequests(1).count == 1)
        let mail = try BuiltCommand.run(["channel", "test", "2"] + db, environment: env)
        #expect(mail.status == 0, "\(mail.stdout) \(mail.stderr)")
        #expect(smtp.waitForMessages(1).count == 1)
        // Both commands have finished, so a request that went through the proxy is already recorded.
        #expect(trap.requests().isEmpty, "\(trap.requests().map { "\($0.method) \($0.path)" })")
    }
}
