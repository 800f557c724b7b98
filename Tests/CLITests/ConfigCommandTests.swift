import Foundation
import Store
import TestSupport
import Testing

/// `apply`, `apply --dry-run`, `export --yaml` and `serve --config` through the built binary: exit
/// statuses, the plan's text, and no secret in any output.
@Suite struct ConfigCommandTests {
    static let secret = "whsec_" + Data(repeating: 9, count: 32).base64EncodedString()
    static let slackURL = "https://hooks.slack.example/services/T0/B0/cliSECRETpath"
    static let environment = ["HOOK_SECRET": secret, "SLACK_URL": slackURL]

    static let file = """
        # Monitored by the platform team.
        domains:
          - host: example.com
            interval_minutes: 15
            app_ids:
              applinks: [ABCDE12345.com.example.app]
          - host: "evil\\e[2J.example"
        channels:
          - name: hook
            kind: webhook
            url: https://hooks.example.net/aasa
            secret: ${HOOK_SECRET}
          - name: chat
            kind: slack
            url: ${SLACK_URL}
        """

    static func run(_ arguments: [String], stdin: String = "", database: TestDatabase) throws -> BuiltCommand.Outcome {
        try BuiltCommand.run(arguments + ["--database-url", database.url], stdin: Array(stdin.utf8), environment: environment)
    }

    static func noSecret(_ outcome: BuiltCommand.Outcome) {
        for text in [outcome.stdout, outcome.stderr] {
            #expect(!text.contains(secret) && !text.contains("cliSECRETpath"), "\(text)")
        }
    }

    @Test func applyDryRunExportRoundTrip() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        // The escape sequence in a host (YAML's "\e") is refused by the form's rules, and printed escaped.
        let refused = try Self.run(["apply", "-"], stdin: Self.file, database: database)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("standard input:7: evil\\u{1B}[2J.example: "), "\(refused.stderr)")
        #expect(!refused.stderr.contains("\u{1B}"))
        Self.noSecret(refused)

        let good = Self.file.replacingOccurrences(of: "\"evil\\e[2J.example\"", with: "shop.example")
        let dryRun = try Self.run(["apply", "-", "--dry-run", "--exit-code"], stdin: good, database: database)
        #expect(dryRun.status == 2, "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("+ domain example.com\n    interval_minutes: 15\n    app_ids.applinks: ABCDE12345.com.example.app\n"))
        #expect(dryRun.stdout.contains("+ channel chat\n    kind: slack\n    url: (from ${SLACK_URL})\n"), "\(dryRun.stdout)")
        #expect(dryRun.stdout.hasSuffix("Plan: 4 to add, 0 to change, 0 to remove (dry run: nothing was changed).\n"))
        Self.noSecret(dryRun)

        let applied = try Self.run(["apply", "-"], stdin: good, database: database)
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stdout.hasSuffix("Applied: 4 added, 0 changed, 0 removed.\n"))
        Self.noSecret(applied)

        let exported = try Self.run(["export", "--yaml"], database: database)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("url: ${SLACK_URL}") && exported.stdout.contains("secret: ${HOOK_SECRET}"), "\(exported.stdout)")
        Self.noSecret(exported)

        let again = try Self.run(["apply", "-", "--prune", "--dry-run", "--exit-code"], stdin: exported.stdout, database: database)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout == "No changes: the database already says what the file says.\n")
    }

    /// `apply --dry-run --json`: the plan as one JSON object, the same steps and details as the text,
    /// no secret; a refused file as its problems with their lines.
    @Test func thePlanAsJSON() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let good = Self.file.replacingOccurrences(of: "\"evil\\e[2J.example\"", with: "shop.example")
        let planned = try Self.run(["apply", "-", "--dry-run", "--json"], stdin: good, database: database)
        #expect(planned.status == 0, "\(planned.stderr)")
        Self.noSecret(planned)
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(planned.stdout.utf8)) as? [String: Any])
        #expect(plan["applied"] as? Bool == false)
        #expect(plan["changes"] as? [String: Int] == ["add": 4, "change": 0, "remove": 0])
        let steps = try #require(plan["steps"] as? [[String: Any]])
        #expect(steps.map { "\($0["action"] ?? "") \($0["type"] ?? "") \($0["name"] ?? "")" }
                == ["add domain example.com", "add domain shop.example", "add channel hook", "add channel chat"])
        #expect(steps.last?["details"] as? [String] == ["kind: slack", "url: (from ${SLACK_URL})", "min_severity: info", "domains: all"])
        #expect(try Self.run(["apply", "-"], stdin: good, database: database).status == 0)

        // Applied: changes counted, and what the file no longer lists is kept, by name.
        let fewer = good.replacingOccurrences(of: "  - host: shop.example\n", with: "")
        let changed = try Self.run(["apply", "-", "--json"], stdin: fewer, database: database)
        let applied = try #require(try JSONSerialization.jsonObject(with: Data(changed.stdout.utf8)) as? [String: Any])
        #expect(applied["applied"] as? Bool == true && (applied["steps"] as? [Any])?.isEmpty == true)
        #expect((applied["kept"] as? [String: [String]])?["domains"] == ["shop.example"])

        let refused = try Self.run(["apply", "-", "--dry-run", "--json"], stdin: Self.file, database: database)
        #expect(refused.status == 65)
        let problems = try #require((try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [String: Any])?["refused"] as? [[String: Any]])
        #expect(problems.first?["line"] as? Int == 7 && (problems.first?["message"] as? String)?.hasPrefix("evil") == true, "\(problems)")
    }

    /// A bad file is refused with every problem and its line, whichever check finds it: the reader's
    /// (an unknown key, a missing host, a value it does not take) and the form's rules and the plan's
    /// (an app ID, an interval, a channel's address, a route to a domain nowhere) in one report; it
    /// printed the reader's alone (issue #31). An entry with a value the reader refused goes no
    /// further (its other problems show once that one is fixed).
    @Test func applyReportsEveryProblemOfAFile() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let file = """
            domains:
              - host: shop.example
                app_ids:
                  applinks: [abcde12345.com.example.app]
                colour: blue
              - host: other.example
                interval_minutes: 7
              - hots: third.example
            channels:
              - name: ops
                kind: email
                to: not-an-address
              - name: chat
                kind: slack
                url: https://hooks.slack.example/services/T0/B0/x
                domains: [nowhere.example]
              - name: pager
                kind: email
                to: pager@example.com
                min_severity: loud
            """
        let refused = try Self.run(["apply", "-", "--dry-run"], stdin: file, database: database)
        #expect(refused.status == 65)
        let lines = refused.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "aasa-monitor: error: standard input was refused and nothing was changed (8 problems):", "\(refused.stderr)")
        for (line, words) in [(4, "The Team ID \"abcde12345\" must be upper-case"), (5, "unknown key \"colour\""),
                              (7, "Choose one of the offered intervals"), (8, "a domain needs host:"),
                              (12, "\"not-an-address\" is not an email address"), (16, "nowhere.example is neither declared"),
                              (20, "min_severity must be critical, warning or info")] {
            #expect(lines.contains { $0.hasPrefix("standard input:\(line): ") && $0.contains(words) }, "line \(line): \(refused.stderr)")
        }
        // The same in --json, each with its line; nothing was written.
        let json = try Self.run(["apply", "-", "--dry-run", "--json"], stdin: file, database: database)
        let problems = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["refused"] as? [[String: Any]])
        #expect(problems.compactMap { $0["line"] as? Int } == [4, 5, 7, 8, 8, 12, 16, 20], "\(problems)")
        #expect(try Self.run(["apply", "-"], stdin: file, database: database).status == 65)
        let db = Database(configuration: database.configuration, poolSize: 1)
        defer { db.close() }
        #expect(try db.listDomains().isEmpty && db.channels().isEmpty)
    }

    /// A refused file stops `serve` before it opens the database or listens.
    @Test func serveRefusesABadConfigBeforeStarting() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.url.appendingPathComponent("monitor.yaml").path
        try Data("domains:\n  - host: a.example\n    interval_minutes: 7\n  - hots: b.example\n".utf8).write(to: URL(fileURLWithPath: path))
        let outcome = try BuiltCommand.run(["serve", "--config", path, "--port", "0", "--database-url", "postgresql://nobody@127.0.0.1:1/none"])
        #expect(outcome.status == 65, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("\(path):4: unknown key \"hots\" in a domain"), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }
}
