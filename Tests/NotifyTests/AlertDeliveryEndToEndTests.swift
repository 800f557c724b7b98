import Outbound
import Vocabulary
import AASA
import Fetch
import Foundation
import Monitor
import Notify
import Store
import Testing
import TestSupport

/// The whole path on real things: a domain served by the TLS fleet breaks; the check pipeline
/// opens an alert after the threshold and writes the outbox in the same transaction; the delivery
/// worker sends one email (real SMTP) and one signed webhook (real receiver); the domain recovers
/// and exactly one recovery notice follows. Between the first failing check and the one that
/// crosses the threshold, everything in memory is thrown away and rebuilt (a `serve` restart):
/// the alert is neither lost nor sent twice.
@Suite(.serialized) struct AlertDeliveryEndToEndTests {
    static let good = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.shop"], "components": [{"/": "/*"}]}]}}"#

    /// One "process": a fetcher aimed at the fleet, the pipeline, and a running delivery worker.
    final class Process: @unchecked Sendable {
        let database: Database
        let fetcher: Fetcher
        let pipeline: CheckPipeline
        let worker: DeliveryWorker

        init(testDatabase: TestDatabase, fleet: TestTLSFleet, smtp: TestSMTP) throws {
            database = Database(configuration: testDatabase.configuration, poolSize: 6)
            fetcher = try Fetcher(FetchConfiguration(
                policy: OutboundPolicy(allowPrivateAddresses: true), cdnBase: fleet.cdnBase, checkCDN: false,
                rootLocation: .whenWellKnownFails, compareUserAgents: false, extraCAFile: fleet.caFile,
                connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
                // Generous: on a slow, loaded machine the file's verdict must come from the file.
                connectTimeout: .seconds(30), totalTimeout: .seconds(60)))
            // The settings' thresholds as `serve` reads them, but on every check, so a test can change them between two.
            pipeline = CheckPipeline(database: database, fetcher: fetcher, tuning: AlertTuningSource(database: database, maxAge: .zero))
            worker = DeliveryWorker(database: database, configuration: DeliveryConfiguration(
                mail: MailSettings(url: smtp.url, from: "alerts@monitor.example.test", allowPrivateServer: true),
                links: NotificationLinks(baseURL: "https://monitor.example.test"),
                webhookPolicy: WebhookAddressPolicy(allowPrivateAddresses: true),
                retry: RetryPolicy(initialDelay: .milliseconds(200), maximumDelay: .seconds(1))), log: { _ in })
            worker.start()
        }

        /// One scheduler round for the domain: ask for a check now, lease it, run the pipeline.
        func check(domainID: Int64) async throws {
            _ = try database.requestCheck(domainID: domainID)
            let leased = try database.leaseDueDomains(limit: 10, lease: .seconds(60), worker: "e2e")
            #expect(leased.count == 1)
            let ids = leased.map(\.id)
            let expectations = Dictionary(grouping: try database.expectations(domainIDs: ids), by: \.domainID)
            let histories = try database.domainHistories(domainIDs: ids)
            for domain in leased {
                _ = try await pipeline.run(domain, expectations: Expectations(rows: expectations[domain.id] ?? []),
                                           history: histories[domain.id])
            }
        }

        /// One scheduler round by the due times alone (no "check now"): the domains due are leased and
        /// checked; returns how many were due.
        func checkDue() async throws -> Int {
            let leased = try database.leaseDueDomains(limit: 10, lease: .seconds(60), worker: "e2e")
            let ids = leased.map(\.id)
            let expectations = Dictionary(grouping: try database.expectations(domainIDs: ids), by: \.domainID)
            let histories = try database.domainHistories(domainIDs: ids)
            for domain in leased {
                _ = try await pipeline.run(domain, expectations: Expectations(rows: expectations[domain.id] ?? []),
                                           history: histories[domain.id])
            }
            return leased.count
        }

        /// The clock moved on by `seconds`, as far as the scheduler can tell: every due time comes that much closer.
        func advance(seconds: Int) throws {
            try database.execute("UPDATE domains SET next_check_at = next_check_at - $1::int * interval '1 second'", seconds)
        }

        /// Seconds from the domain's last check to its next one.
        func gapToNextCheck(domainID: Int64) throws -> Double {
            try database.value("SELECT extract(epoch FROM next_check_at - last_checked_at)::float8 FROM domains WHERE id = $1", domainID)
        }

        func shutDown() {
            worker.stop()
            fetcher.shutdown()
            database.close()
        }
    }

    /// An hourly domain that must list ABCDE12345.shop under applinks; nil when it was not created.
    func registerHourly(_ host: String, in database: Database) throws -> Int64? {
        guard case .created(let domainID) = try database.createDomain(DomainDraft(
            host: host, displayName: host, wildcard: false, intervalSeconds: 3600, badgeEnabled: false,
            appIDs: [AppIDExpectation(service: .applinks, appID: "ABCDE12345.shop")], watchedURLs: []))
        else { return nil }
        return domainID
    }

    func serve(_ fleet: TestTLSFleet, _ text: String) throws {
        try fleet.deploy(text, at: "/.well-known/apple-app-site-association")
    }

    @Test func breakThresholdRestartRecover() async throws {
        try await TestTLSFleet.with { fleet in
            let testDatabase = try TestPostgres.createDatabase()
            defer { testDatabase.drop() }
            let smtp = try TestSMTP()
            let receiver = try TestWebhookReceiver()
            let host = fleet.host("e2e")
            try serve(fleet, Self.good)

            var process = try Process(testDatabase: testDatabase, fleet: fleet, smtp: smtp)
            guard let domainID = try registerHourly(host, in: process.database) else { Issue.record("domain not created"); return }
            // Both channels page on breakage only; "a new version was published" (info) is not for them.
            _ = try ChannelSetup.add(kind: .email, target: "ops@example.test", minSeverity: .critical, in: process.database)
            let hook = try ChannelSetup.add(kind: .webhook, target: receiver.url, minSeverity: .critical, in: process.database)
            let secret = try #require(hook.secret)

            try await process.check(domainID: domainID)          // passing
            try serve(fleet, "this is not json")
            try await process.check(domainID: domainID)          // failing 1 of 2: no alert yet
            #expect(try process.database.deliveries().isEmpty)

            // A restart: nothing survives but the database.
            process.shutDown()
            process = try Process(testDatabase: testDatabase, fleet: fleet, smtp: smtp)
            defer { process.shutDown() }

            try await process.check(domainID: domainID)          // failing 2 of 2: the alert opens
            let opened = try process.database.deliveries()
            #expect(opened.count == 2, "one email and one webhook: \(opened.map { ($0.channelID, $0.event.rule ?? "") })")
            #expect(try waitUntil { try process.database.deliveries().allSatisfy { $0.state == .sent } })
            let mails = smtp.waitForMessages(1)
            let hooks = receiver.waitForRequests(1)
            #expect(mails.count == 1)
            #expect(hooks.count == 1)
            let mail = try ParsedMail(try #require(mails.first).data)
            let subject = try #require(mail.decodedSubject)
            #expect(subject.hasPrefix("[aasa-monitor] FAILING \(host):"), "\(subject)")
            #expect(mail.part("text/plain")?.contains("https://monitor.example.test/domains/\(host)") == true)
            let request = try #require(hooks.first)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
            #expect(body["type"] as? String == "alert.opened")
            let data = try #require(body["data"] as? [String: Any])
            #expect((data["domain"] as? [String: Any])?["host"] as? String == host)
            #expect(data["severity"] as? String == "critical")
            #expect((data["rule"] as? String)?.isEmpty == false)
            let id = try #require(request.headers["webhook-id"])
            let timestamp = try #require(request.headers["webhook-timestamp"].flatMap(Int.init))
            #expect(try PythonHMAC.standardWebhooksSignature(secret: secret, id: id, timestamp: timestamp, body: request.body)
                    == request.headers["webhook-signature"])

            try await process.check(domainID: domainID)          // still failing: nothing new
            #expect(try process.database.deliveries().count == 2)

            try serve(fleet, Self.good)
            try await process.check(domainID: domainID)          // passing: the alert resolves
            #expect(try process.database.deliveries().count == 4)
            #expect(try waitUntil { try process.database.deliveries().allSatisfy { $0.state == .sent } })
            let allMails = smtp.waitForMessages(2)
            let allHooks = receiver.waitForRequests(2)
            // Every outbox row is sent, so nothing more can arrive: these counts are final.
            #expect(allMails.count == 2)
            #expect(allHooks.count == 2)
            #expect(try ParsedMail(allMails[1].data).decodedSubject?.hasPrefix("[aasa-monitor] RESOLVED \(host):") == true)
            let resolved = try #require(try JSONSerialization.jsonObject(with: Data(allHooks[1].body)) as? [String: Any])
            #expect(resolved["type"] as? String == "alert.resolved")
            #expect(Set(allHooks.compactMap { $0.headers["webhook-id"] }).count == 2)
        }
    }

    /// Confirm fast, then alert (issue #31): an hourly domain breaks; its first failing check puts the
    /// next one a retry interval later (1 minute), not an hour; that check confirms the break and the
    /// webhook goes out once; with the alert open the domain is back on its hourly interval. The clock
    /// is the scheduler's due times, moved on by hand: no test waits a minute.
    @Test func aBreakIsRetriedAfterAMinuteAndAlertedOnce() async throws {
        try await TestTLSFleet.with { fleet in
            let testDatabase = try TestPostgres.createDatabase()
            defer { testDatabase.drop() }
            let smtp = try TestSMTP()
            let receiver = try TestWebhookReceiver()
            let host = fleet.host("e2e-confirm")
            try serve(fleet, Self.good)
            let process = try Process(testDatabase: testDatabase, fleet: fleet, smtp: smtp)
            defer { process.shutDown() }
            guard let domainID = try registerHourly(host, in: process.database) else { Issue.record("domain not created"); return }
            _ = try ChannelSetup.add(kind: .webhook, target: receiver.url, minSeverity: .critical, in: process.database)

            try await process.check(domainID: domainID)          // passing: an hour (± jitter, or the host's slot) to the next
            #expect(try process.gapToNextCheck(domainID: domainID) > 3000)
            try process.advance(seconds: 60)
            #expect(try await process.checkDue() == 0, "a passing hourly domain is not due a minute later")

            try serve(fleet, "this is not json")
            try await process.check(domainID: domainID)          // failing 1 of 2: no alert yet, a retry in a minute
            #expect(try process.database.deliveries().isEmpty)
            #expect(abs(try process.gapToNextCheck(domainID: domainID) - 60) < 0.01)
            try process.advance(seconds: 60)
            #expect(try await process.checkDue() == 1, "the retry is due a minute later")  // failing 2 of 2: the alert opens
            #expect(try process.database.deliveries().count == 1)
            #expect(try waitUntil { try process.database.deliveries().allSatisfy { $0.state == .sent } })
            #expect(try process.gapToNextCheck(domainID: domainID) > 3000, "an open alert needs no confirming: the interval again")
            try process.advance(seconds: 120)
            #expect(try await process.checkDue() == 0)

            try process.advance(seconds: 3600 * 2)
            #expect(try await process.checkDue() == 1)           // still failing an interval later: nothing new
            #expect(try process.database.deliveries().count == 1)
            let hooks = receiver.waitForRequests(1)
            #expect(hooks.count == 1)
            let hook = try #require(hooks.first)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(hook.body)) as? [String: Any])
            #expect(body["type"] as? String == "alert.opened")
        }
    }

    /// The thresholds and the retry interval are the instance's settings: set to three failing checks,
    /// two passing ones and 2 minutes, the break is retried 2 then 4 minutes later and alerted on the
    /// third failing check; the first passing check of the open alert is retried 2 minutes later and the
    /// second resolves it.
    @Test func theSettingsThresholdsAndRetryIntervalDecideTheConfirmingChecks() async throws {
        try await TestTLSFleet.with { fleet in
            let testDatabase = try TestPostgres.createDatabase()
            defer { testDatabase.drop() }
            let smtp = try TestSMTP()
            let host = fleet.host("e2e-thresholds")
            try serve(fleet, Self.good)
            let process = try Process(testDatabase: testDatabase, fleet: fleet, smtp: smtp)
            defer { process.shutDown() }
            guard let domainID = try registerHourly(host, in: process.database) else { Issue.record("domain not created"); return }
            _ = try ChannelSetup.add(kind: .email, target: "ops@example.test", minSeverity: .critical, in: process.database)
            try process.database.setAlertTuning(AlertTuning(failureThreshold: 3, successThreshold: 2, retryMinutes: 2))

            try await process.check(domainID: domainID)          // passing
            try serve(fleet, "this is not json")
            var gaps: [Double] = []
            var delivered: [Int] = []
            for _ in 0..<3 {                                     // failing 1, 2, 3 of 3
                try await process.check(domainID: domainID)
                gaps.append(try process.gapToNextCheck(domainID: domainID))
                delivered.append(try process.database.deliveries().count)
            }
            #expect(gaps.prefix(2).map { $0.rounded() } == [120, 240])
            #expect(gaps[2] > 3000, "open: the interval")
            #expect(delivered == [0, 0, 1])
            try serve(fleet, Self.good)
            try await process.check(domainID: domainID)          // passing 1 of 2: still open, a retry in 2 minutes
            #expect(try process.gapToNextCheck(domainID: domainID).rounded() == 120)
            #expect(try process.database.deliveries().count == 1)
            try await process.check(domainID: domainID)          // passing 2 of 2: resolved
            #expect(try process.database.deliveries().count == 2)
            #expect(try process.gapToNextCheck(domainID: domainID) > 3000)
        }
    }

    func serveAssetLinks(_ fleet: TestTLSFleet, _ text: String) throws {
        try fleet.deploy(text, at: "/.well-known/assetlinks.json")
    }

    /// Spec §11's "statement newly dropped" on real things: the site's assetlinks.json keeps its app
    /// statement but its web statement turns invalid; after the threshold the receiver gets exactly one
    /// signed alert.opened naming the rule, and once the file is fixed exactly one alert.resolved.
    @Test func anAndroidStatementNewlyDroppedReachesTheReceiverOnceThenRecoversOnce() async throws {
        try await TestTLSFleet.with { fleet in
            let testDatabase = try TestPostgres.createDatabase()
            defer { testDatabase.drop() }
            let smtp = try TestSMTP()
            let receiver = try TestWebhookReceiver()
            let host = fleet.host("e2e-android")
            let app = #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\#(FleetAssetLinks.appSigningKey)"]}}"#
            func web(_ site: String) -> String {
                #"{"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": "\#(site)"}}"#
            }
            let good = "[\(app), \(web("https://\(host)"))]", bad = "[\(app), \(web("https://\(host)/login"))]"
            try serve(fleet, Self.good)
            try serveAssetLinks(fleet, good)
            let process = try Process(testDatabase: testDatabase, fleet: fleet, smtp: smtp)
            defer { process.shutDown() }
            guard let domainID = try registerHourly(host, in: process.database) else { Issue.record("domain not created"); return }
            _ = try ChannelSetup.add(kind: .webhook, target: receiver.url, minSeverity: .critical, in: process.database)

            try await process.check(domainID: domainID)          // passing
            try serveAssetLinks(fleet, bad)
            try await process.check(domainID: domainID)          // failing 1 of 2: no alert yet
            #expect(try process.database.deliveries().isEmpty)
            try await process.check(domainID: domainID)          // failing 2 of 2: the alert opens
            #expect(try process.database.deliveries().count == 1)
            #expect(try waitUntil { try process.database.deliveries().allSatisfy { $0.state == .sent } })
            let hooks = receiver.waitForRequests(1)
            #expect(hooks.count == 1)
            let first = try #require(hooks.first)
            let opened = try #require(try JSONSerialization.jsonObject(with: Data(first.body)) as? [String: Any])
            #expect(opened["type"] as? String == "alert.opened")
            let data = try #require(opened["data"] as? [String: Any])
            #expect(data["rule"] as? String == "android-statement-dropped", "\(data)")
            #expect(data["severity"] as? String == "critical")

            try await process.check(domainID: domainID)          // still failing: nothing new
            try serveAssetLinks(fleet, good)
            try await process.check(domainID: domainID)          // fixed: the alert resolves
            #expect(try process.database.deliveries().count == 2)
            #expect(try waitUntil { try process.database.deliveries().allSatisfy { $0.state == .sent } })
            let all = receiver.waitForRequests(2)
            #expect(all.count == 2)
            let resolved = try #require(try JSONSerialization.jsonObject(with: Data(all[1].body)) as? [String: Any])
            #expect(resolved["type"] as? String == "alert.resolved")
            #expect((resolved["data"] as? [String: Any])?["rule"] as? String == "android-statement-dropped")
        }
    }

    /// A domain watched for Android only, on real things: it never had an assetlinks.json, so after the
    /// threshold each channel (email, webhook) gets exactly one android-file-invalid alert; the file
    /// published, exactly one recovery each; the file lost again, one more alert each, and its return one
    /// more recovery. No app is expected of it: the platform setting alone makes a missing file a failure.
    @Test func anAndroidOnlyDomainWithoutItsFileAlertsOncePerChannelAndRecoversOnce() async throws {
        try await TestTLSFleet.with { fleet in
            let testDatabase = try TestPostgres.createDatabase()
            defer { testDatabase.drop() }
            let smtp = try TestSMTP()
            let receiver = try TestWebhookReceiver()
            let host = fleet.host("e2e-android-only")
            let file = fleet.directory.appendingPathComponent("www/_default/.well-known/assetlinks.json")
            let good = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\#(FleetAssetLinks.appSigningKey)"]}}]"#
            try? FileManager.default.removeItem(at: file)
            let process = try Process(testDatabase: testDatabase, fleet: fleet, smtp: smtp)
            defer { process.shutDown() }
            guard case .created(let domainID) = try process.database.createDomain(DomainDraft(
                host: host, displayName: host, wildcard: false, intervalSeconds: 3600, badgeEnabled: false,
                appIDs: [], watchedURLs: [], platforms: .android))
            else { Issue.record("domain not created"); return }
            _ = try ChannelSetup.add(kind: .email, target: "ops@example.test", minSeverity: .critical, in: process.database)
            _ = try ChannelSetup.add(kind: .webhook, target: receiver.url, minSeverity: .critical, in: process.database)
            /// The deliveries' (event, rule) once every outbox row is sent, so nothing more can arrive.
            func delivered(_ expected: Int) throws -> [String] {
                let rows = try process.database.deliveries()
                #expect(rows.count == expected, "\(rows.map { ($0.event.kind, $0.event.rule ?? "") })")
                #expect(try waitUntil { try process.database.deliveries().allSatisfy { $0.state == .sent } })
                return rows.map { "\($0.event.kind.rawValue) \($0.event.rule ?? "")" }.sorted()
            }

            try await process.check(domainID: domainID)          // no file: failing 1 of 2
            let failing = try #require(try process.database.domain(id: domainID))
            #expect(failing.lastVerdict == .fail, "a missing file fails an Android-only domain: \(failing.lastReason?.line ?? "")")
            #expect(try process.database.monitorMetrics().failingByCode[.android] == ["http-status": 1], "/metrics counts it as Android's")
            #expect(try delivered(0).isEmpty)
            try await process.check(domainID: domainID)          // failing 2 of 2: one alert per channel
            #expect(try delivered(2) == ["alert.opened android-file-invalid", "alert.opened android-file-invalid"])
            try await process.check(domainID: domainID)          // still failing: nothing new
            #expect(try delivered(2).count == 2)

            try DeployedFile.write(Array(good.utf8), to: file)
            try await process.check(domainID: domainID)          // published: one recovery per channel
            #expect(try process.database.domain(id: domainID)?.lastVerdict == .pass)
            #expect(try process.database.monitorMetrics().failingByCode[.android] == nil)
            #expect(try delivered(4).filter { $0.hasPrefix("alert.resolved") } == ["alert.resolved android-file-invalid", "alert.resolved android-file-invalid"])

            try FileManager.default.removeItem(at: file)
            try await process.check(domainID: domainID)          // lost: failing 1 of 2
            try await process.check(domainID: domainID)          // failing 2 of 2: the alert opens again
            try await process.check(domainID: domainID)          // still failing: nothing new
            #expect(try delivered(6).filter { $0.hasPrefix("alert.opened") }.count == 4)
            try DeployedFile.write(Array(good.utf8), to: file)
            try await process.check(domainID: domainID)          // back: one more recovery per channel
            try await process.check(domainID: domainID)          // passing: nothing new
            #expect(try delivered(8).filter { $0.hasPrefix("alert.resolved") }.count == 4)

            let mails = smtp.waitForMessages(4)
            let hooks = receiver.waitForRequests(4)
            #expect(mails.count == 4 && hooks.count == 4)
            let subjects = try mails.map { try ParsedMail($0.data).decodedSubject ?? "" }
            #expect(zip(subjects, ["FAILING", "RESOLVED", "FAILING", "RESOLVED"]).allSatisfy { $0.hasPrefix("[aasa-monitor] \($1) \(host):") },
                    "\(subjects)")
            let types = try hooks.map { try #require(try JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any])["type"] as? String }
            #expect(types == ["alert.opened", "alert.resolved", "alert.opened", "alert.resolved"])
            #expect(!fleet.requests().contains { $0.host == host && $0.uri.contains("apple-app-site-association") }, "no Apple request")
        }
    }
}
