import Foundation
import TestSupport
import Testing

@Suite struct ChannelCommandTests {
    @Test func addListTestAndRemoveChannels() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let receiver = try TestWebhookReceiver()
        let smtp = try TestSMTP()
        let db = ["--database-url", database.url]
        // Loopback receivers are allowed for this run only, explicitly.
        let env = ["AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS": "1", "SMTP_URL": smtp.url, "SMTP_FROM": "alerts@monitor.example.test",
                   "AASA_MONITOR_BASE_URL": "https://monitor.example.test"]

        let hook = try BuiltCommand.run(["channel", "add", "webhook", receiver.url] + db, environment: env)
        #expect(hook.status == 0, "\(hook.stderr)")
        #expect(hook.stdout.contains("added channel 1: webhook \(receiver.url)"))
        let secretLine = try #require(hook.stdout.split(separator: "\n").first { $0.hasPrefix("whsec_") })
        #expect(Data(base64Encoded: String(secretLine.dropFirst(6)))?.count ?? 0 >= 24)

        let mail = try BuiltCommand.run(["channel", "add", "email", "ops@example.test", "--min-severity", "critical", "--name", "on-call"] + db)
        #expect(mail.status == 0, "\(mail.stderr)")
        #expect(!mail.stdout.contains("whsec_"))
        // A name is a channel's identity: a second "on-call" is refused (issue #31: alerts went out twice).
        let sameName = try BuiltCommand.run(["channel", "add", "email", "pager@example.test", "--name", "on-call"] + db)
        #expect(sameName.status == 64)
        #expect(sameName.stderr.contains("another channel is already named \"on-call\""))
        let slack = try BuiltCommand.run(["channel", "add", "webhook", receiver.url + "/slack", "--slack"] + db)
        #expect(slack.status == 0, "\(slack.stderr)")

        let bad = try BuiltCommand.run(["channel", "add", "email", "not an address"] + db)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("is not an email address"))
        let badURL = try BuiltCommand.run(["channel", "add", "webhook", "ftp://example.com/"] + db)
        #expect(badURL.status == 64)
        let unknownDomain = try BuiltCommand.run(["channel", "add", "email", "a@example.test", "--domain", "nowhere.example"] + db)
        #expect(unknownDomain.status == 64)
        #expect(unknownDomain.stderr.contains("nowhere.example is not a registered domain"))

        let list = try BuiltCommand.run(["channel", "list"] + db)
        #expect(list.status == 0)
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains("email\tops@example.test\tmin-severity=critical\tall domains\tenabled\ton-call"))
        #expect(lines[2].hasPrefix("3\tslack\t"))
        // The secret is never listed again.
        #expect(!list.stdout.contains("whsec_"))
        let json = try BuiltCommand.run(["channel", "list", "--json"] + db)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let listed = try #require(parsed["channels"] as? [[String: Any]])
        #expect(listed.count == 3)
        #expect(listed[1]["min_severity"] as? String == "critical" && listed[1]["domain_ids"] as? [Int] == [])

        let test = try BuiltCommand.run(["channel", "test", "1"] + db, environment: env)
        #expect(test.status == 0, "\(test.stdout) \(test.stderr)")
        #expect(test.stdout.contains("delivered test notification"))
        #expect(test.stdout.contains("answered 200"))
        let request = try #require(receiver.waitForRequests(1).first)
        #expect(request.bodyText.contains("\"type\":\"test\""))
        #expect(request.headers["webhook-signature"]?.hasPrefix("v1,") == true)

        let mailTest = try BuiltCommand.run(["channel", "test", "2"] + db, environment: env)
        #expect(mailTest.status == 0, "\(mailTest.stdout) \(mailTest.stderr)")
        #expect(mailTest.stdout.contains("answered 250"))
        #expect(smtp.waitForMessages(1).first?.data.contains("https://monitor.example.test/alerts") == true)

        // Without the opt-in, a loopback URL is refused and the failure is reported, not hidden.
        let refused = try BuiltCommand.run(["channel", "test", "1"] + db)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("loopback"))

        let removed = try BuiltCommand.run(["channel", "remove", "3"] + db)
        #expect(removed.status == 0)
        #expect(try BuiltCommand.run(["channel", "remove", "3"] + db).status == 1)
        #expect(try BuiltCommand.run(["channel", "list"] + db).stdout.split(separator: "\n").count == 2)
    }
}
