import Foundation
import Store
import TestSupport
import Testing

/// `serve --config FILE` on a real PostgreSQL: a file the database refuses stops the start with its
/// line; a good one is applied before the server listens, and the pages it serves over a real
/// socket show the file's channels without a secret the file read from the environment.
@Suite struct ServeConfigTests {
    static let slackURL = "https://hooks.slack.example/services/T0/B0/SERVEsecretPATH"
    static let pagerKey = "R0123456789abcdefSERVEKEY6789abc"
    static let environment = ["SLACK_URL": slackURL, "PD_KEY": pagerKey, "AASA_MONITOR_ALLOW_PRIVATE": "1"]

    static let file = """
        domains:
          - host: shop.example
            interval_minutes: 15
        channels:
          - name: chat
            kind: slack
            url: ${SLACK_URL}
            domains: [shop.example]
          - name: pager
            kind: pagerduty
            routing_key: ${PD_KEY}
            min_severity: critical
        """

    @Test func serveAppliesItsConfigBeforeListeningAndKeepsSecretsOffItsPages() throws {
        let database = try TestPostgres.createDatabase()
        defer { database.drop() }
        let scratch = try ScratchDirectory()
        let path = scratch.url.appendingPathComponent("monitor.yaml").path

        // Fits the format, refused against the database (a route to a domain that is nowhere): no start.
        try Data((Self.file + "\n    domains: [elsewhere.example]\n").utf8).write(to: URL(fileURLWithPath: path))
        let refused = try BuiltCommand.run(["serve", "--config", path, "--port", "0", "--no-crawl", "--no-notify",
                                            "--database-url", database.url], environment: Self.environment)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(path):13: pager: elsewhere.example is neither declared in this file nor registered"), "\(refused.stderr)")
        #expect(!refused.stdout.contains("listening on"))

        try Data(Self.file.utf8).write(to: URL(fileURLWithPath: path))
        let serve = try ServeProcess(arguments: ["--config", path, "--no-crawl", "--no-notify"],
                                     environment: Self.environment.merging(["DATABASE_URL": database.url]) { $1 })
        let port = try serve.waitForPort()
        #expect(serve.standardError.contains("config \(path): 3 added, 0 changed, 0 removed"), "\(serve.standardError)")

        // What the file declares is there once the server listens.
        let db = Database(configuration: database.configuration, poolSize: 2)
        defer { db.close() }
        let shop = try #require(try db.domain(host: "shop.example"))
        #expect(shop.intervalSeconds == 900)
        let channels = try db.channels()
        #expect(channels.map(\.name) == ["chat", "pager"])
        #expect(channels.first?.domainIDs == [shop.id] && channels.first?.target == Self.slackURL && channels.last?.secret == Self.pagerKey)

        // An admin's session, as signing in makes one (the cookie's secret, its SHA-256 stored).
        let userID = try #require(try db.createUser(email: "admin@example.com", passwordHash: "unused", role: .admin))
        let cookie = "servetestsessionsecret0123456789"
        try db.createSession(tokenHash: SHA256.hex(Array(cookie.utf8)), userID: userID, csrfToken: "csrf",
                             expiresAt: Date().addingTimeInterval(3600))
        for page in ["/settings", "/settings/channels", "/alerts"] + channels.map({ "/channels/\($0.id)/edit" }) {
            let response = try PlainHTTPResponse.get(port: port, path: page, headers: ["Cookie: aasa_session=\(cookie)"])
            #expect(response.status == 200, "\(page): \(response.body.prefix(300))")
            #expect(!response.body.contains("SERVEsecretPATH") && !response.body.contains("SERVEKEY"), "a secret on \(page)")
            // The channels' section lists each channel with its target as the config file wrote it.
            if page == "/settings/channels" { #expect(response.body.contains("${SLACK_URL}"), "the reference, not the value") }
        }
        #expect(try serve.terminate() == 0)
    }
}
