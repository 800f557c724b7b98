import Foundation
import Store
import TestSupport
import Testing

/// The issue's promise on the real binary: `serve` crawls a domain of the TLS fleet that breaks;
/// it is restarted between the first failing check and the one that crosses the threshold; the
/// alert then arrives exactly once by email and once by webhook, and the recovery exactly once.
@Suite(.serialized) struct ServeAlertRestartTests {
    static let good = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.shop"], "components": [{"/": "/*"}]}]}}"#

    @Test func aServeRestartBetweenFailureAndThresholdNeitherLosesNorDuplicates() async throws {
        try await TestTLSFleet.with { fleet in
            func serveFile(_ text: String) throws {
                try fleet.deploy(text, at: "/.well-known/apple-app-site-association")
            }
            try serveFile(Self.good)
            let testDatabase = try TestPostgres.createDatabase()
            defer { testDatabase.drop() }
            let db = Database(configuration: testDatabase.configuration, poolSize: 2)
            defer { db.close() }
            let smtp = try TestSMTP()
            let receiver = try TestWebhookReceiver()
            let host = fleet.host("restart")
            guard case .created(let domainID) = try db.createDomain(DomainDraft(
                host: host, displayName: host, wildcard: false, intervalSeconds: 3600, badgeEnabled: false,
                appIDs: [AppIDExpectation(service: .applinks, appID: "ABCDE12345.shop")], watchedURLs: []))
            else { Issue.record("domain not created"); return }
            _ = try db.createChannel(NewChannel(kind: .email, target: "ops@example.test", minSeverity: .critical))
            _ = try db.createChannel(NewChannel(kind: .webhook, target: receiver.url, minSeverity: .critical))

            let environment = [
                "DATABASE_URL": testDatabase.url,
                "AASA_MONITOR_ALLOW_PRIVATE": "1", "AASA_MONITOR_CA_FILE": fleet.caFile,
                "AASA_MONITOR_CONNECT_TO": fleet.connectTo.joined(separator: ","), "AASA_MONITOR_CDN_BASE": fleet.cdnBase,
                "AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS": "1", "AASA_MONITOR_RETRY_INITIAL_SECONDS": "0.2",
                "SMTP_URL": smtp.url, "SMTP_FROM": "alerts@monitor.example.test",
                "AASA_MONITOR_BASE_URL": "https://monitor.example.test",
            ]
            func checked(after previous: Date?) throws -> Date? {
                var seen: Date?
                _ = try waitUntil(timeout: .seconds(60)) {
                    seen = try db.domain(id: domainID)?.lastCheckedAt
                    guard let seen else { return false }
                    return previous.map { seen > $0 } ?? true
                }
                return seen
            }

            var serve = try ServeProcess(arguments: ["--poll-seconds", "0.2"], environment: environment)
            _ = try serve.waitForPort()
            let first = try #require(try checked(after: nil), "\(serve.standardError)")   // passing (registration asked for it)
            try serveFile("this is not json")
            try db.requestCheck(domainID: domainID)
            let second = try #require(try checked(after: first), "\(serve.standardError)")  // failing 1 of 2
            #expect(try db.deliveries().isEmpty)
            #expect(try serve.terminate() == 0)

            serve = try ServeProcess(arguments: ["--poll-seconds", "0.2"], environment: environment)
            _ = try serve.waitForPort()
            try db.requestCheck(domainID: domainID)
            _ = try #require(try checked(after: second), "\(serve.standardError)")         // failing 2 of 2: opens
            #expect(try waitUntil(timeout: .seconds(60)) {
                let rows = try db.deliveries()
                return rows.count == 2 && rows.allSatisfy { $0.state == .sent }
            }, "\((try? db.deliveries().map { ($0.state, $0.lastError ?? "") }) ?? []) \(serve.standardError)")
            #expect(smtp.waitForMessages(1).count == 1)
            #expect(receiver.waitForRequests(1).count == 1)
            #expect(smtp.messages().first?.data.contains("Subject: [aasa-monitor] FAILING \(host):") == true)
            #expect(receiver.requests().first?.bodyText.contains("\"type\":\"alert.opened\"") == true)

            try serveFile(Self.good)
            let beforeRecovery = try db.domain(id: domainID)?.lastCheckedAt
            try db.requestCheck(domainID: domainID)
            _ = try #require(try checked(after: beforeRecovery), "\(serve.standardError)")  // passing: resolves
            #expect(try waitUntil(timeout: .seconds(60)) {
                let rows = try db.deliveries()
                return rows.count == 4 && rows.allSatisfy { $0.state == .sent }
            }, "\(serve.standardError)")
            // Every outbox row is sent: these counts are final.
            #expect(smtp.waitForMessages(2).count == 2)
            #expect(receiver.waitForRequests(2).count == 2)
            #expect(smtp.messages().last?.data.contains("Subject: [aasa-monitor] RESOLVED \(host):") == true)
            #expect(receiver.requests().last?.bodyText.contains("\"type\":\"alert.resolved\"") == true)
            #expect(try serve.terminate() == 0)
        }
    }
}
