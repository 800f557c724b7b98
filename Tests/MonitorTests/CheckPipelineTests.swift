import AASA
import Fetch
import Foundation
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Monitor

/// The pipeline against a real PostgreSQL and real HTTPS servers.
@Suite(.serialized) struct CheckPipelineTests {
    @Test func unchangedFileIsStoredOnceAndAChangedByteAddsAVersion() async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            _ = try database.importDomain(host: "mutable.fleet.test", displayName: "mutable.fleet.test", wildcard: false, appIDs: [])
            for _ in 0..<10 {
                let results = try await checkDueDomains(pipeline)
                #expect(results.count == 1)
                try makeAllDue(database)
            }
            #expect(try count(database, "SELECT count(*)::int FROM association_versions") == 1)
            #expect(try count(database, "SELECT count(*)::int FROM checks") == 1, "only the first check changed anything")
            #expect(try count(database, "SELECT count(*)::int FROM check_repeats") == 9)

            let oldSHA: String = try database.value("SELECT sha256 FROM association_versions")
            #expect(oldSHA == SHA256.hex(Array(shopFile().utf8)))
            try writeDefaultFile(fleet, shopFile() + " ")   // one byte more, same behaviour
            let results = try await checkDueDomains(pipeline)
            #expect(results.first?.1.step.changes == [
                .versionChanged(from: oldSHA, to: SHA256.hex(Array((shopFile() + " ").utf8))),
            ])
            #expect(try count(database, "SELECT count(*)::int FROM association_versions") == 2)
            #expect(try count(database, "SELECT count(*)::int FROM checks") == 2)
        }
    }

    /// A registration's first check runs at once (requested); the second goes to the host's slot in
    /// the interval, not interval ± 10 % after the first, so domains registered together come apart.
    @Test func aRequestedFirstCheckSchedulesTheSecondOnTheHostsSlot() async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            let requested = DomainDraft(host: "good.fleet.test", displayName: "good.fleet.test", wildcard: false,
                                        intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: [])
            _ = try database.createDomain(requested, requestFirstCheck: true)
            _ = try database.importDomain(host: "mutable.fleet.test", displayName: "mutable.fleet.test", wildcard: false, appIDs: [])
            let results = try await checkDueDomains(pipeline)
            #expect(Set(results.map { "\($0.0.host) \($0.0.requested)" }) == ["good.fleet.test true", "mutable.fleet.test false"])
            let schedule = SchedulePolicy()
            for (domain, _) in results {
                let row = try #require(try database.rows("""
                    SELECT extract(epoch FROM next_check_at)::float8 AS next, extract(epoch FROM last_checked_at)::float8 AS finished
                    FROM domains WHERE id = $1
                    """, domain.id).first)
                let next: Double = try row.decode("next"), finished: Double = try row.decode("finished")
                if domain.requested {
                    let slot = schedule.slot(for: domain.host.ascii, interval: .seconds(3600),
                                             notBefore: Date(timeIntervalSince1970: finished + 3240))
                    #expect(abs(slot.timeIntervalSince1970 - next) < 0.01, "next \(next), slot \(slot)")
                } else {
                    // A routine first check keeps the jitter rule (an import due at once, as the test fixtures make it).
                    let jitter = SchedulePolicy.seconds(schedule.jitter(for: .seconds(3600), domainKey: UInt64(domain.id), round: 0))
                    #expect(abs(next - finished - 3600 - jitter) < 0.01, "gap \(next - finished)")
                }
            }
        }
    }

    /// An imported domain's first check, taken from the first-check queue an hour before its place in
    /// the interval (issue #31), runs at once; the second goes to that place, as a requested first
    /// check's does, so the import's domains come apart over the interval and keep their places.
    @Test func aQueuedFirstCheckRunsAtOnceAndTheSecondKeepsTheHostsPlace() async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            let schedule = SchedulePolicy()
            for host in ["good.fleet.test", "mutable.fleet.test"] {
                let draft = DomainDraft(host: host, displayName: host, wildcard: false, intervalSeconds: 3600, badgeEnabled: false,
                                        appIDs: [], watchedURLs: [])
                let place = schedule.slot(for: host, interval: .seconds(3600), notBefore: Date().addingTimeInterval(600))
                _ = try database.createDomain(draft, requestFirstCheck: false, queueFirstCheck: true, firstCheckAt: place)
            }
            let results = try await checkDueDomains(pipeline)
            #expect(Set(results.map { "\($0.0.host) queued \($0.0.queued) requested \($0.0.requested)" })
                    == ["good.fleet.test queued true requested false", "mutable.fleet.test queued true requested false"])
            for (domain, _) in results {
                let row = try #require(try database.rows("""
                    SELECT extract(epoch FROM next_check_at)::float8 AS next, extract(epoch FROM last_checked_at)::float8 AS finished
                    FROM domains WHERE id = $1
                    """, domain.id).first)
                let next: Double = try row.decode("next"), finished: Double = try row.decode("finished")
                let slot = schedule.slot(for: domain.host.ascii, interval: .seconds(3600), notBefore: Date(timeIntervalSince1970: finished + 3240))
                #expect(abs(slot.timeIntervalSince1970 - next) < 0.01, "\(domain.host): next \(next), slot \(slot)")
            }
            #expect(try await checkDueDomains(pipeline).isEmpty, "checked once, then not again before its place")
        }
    }

    @Test func theCDNFileIsAVersionAndTheTimingsAreStored() async throws {
        try await withFleetPipeline(serving: nil, checkCDN: true) { fleet, database, pipeline in
            // The fleet's CDN serves this site's file re-encoded: same behaviour, other bytes.
            guard case .added(let id) = try database.importDomain(host: "good.fleet.test", displayName: "good.fleet.test",
                                                                  wildcard: false, appIDs: []) else {
                Issue.record("not added")
                return
            }
            for _ in 0..<3 {
                #expect(try await checkDueDomains(pipeline).count == 1)
                try makeAllDue(database)
            }
            // What the dashboard reads: both files, each stored once however many checks saw them.
            let latest = try #require(try database.checks(domainID: id, onlyChanges: false, limit: 1).first)
            #expect(latest.originVersionSHA256 == SHA256.hex(FleetFiles.good))
            #expect(latest.cdnVersionSHA256 == SHA256.hex(FleetFiles.goodReformatted))
            #expect(try database.version(VersionKey(.apple, sha256: SHA256.hex(FleetFiles.goodReformatted)))?.body == FleetFiles.goodReformatted)
            #expect(try count(database, "SELECT count(*)::int FROM association_versions") == 2)
            #expect(try count(database, "SELECT count(*)::int FROM checks") == 1)
            #expect(try count(database, "SELECT count(*)::int FROM check_repeats") == 2)

            // The fetcher's phase timings per location (seconds from the request's start).
            for location in ["wellKnown", "cdn"] {
                let timings: String? = try database.value("SELECT transport->$1->>'timings' FROM checks", location)
                let phases = try JSONDecoder().decode(TransportTimings.self, from: Data(try #require(timings).utf8))
                #expect(phases.total > 0 && phases.firstByte > 0 && phases.connect > 0, "\(location): \(phases)")
                #expect(phases.dns <= phases.connect && phases.connect <= phases.tls && phases.tls <= phases.firstByte
                        && phases.firstByte <= phases.total, "\(location): \(phases)")
            }

            // A rolled-up repeat keeps which check, so which CDN file, it repeated.
            try database.rollUpRepeats(olderThan: .zero)
            let rolledUp: Int = try database.value("""
                SELECT count(*)::int FROM check_rollups r JOIN checks c ON c.id = r.repeated_check_id
                JOIN association_versions v ON v.id = c.cdn_version_id
                WHERE v.sha256 = $1 AND r.check_count = 2
                """, SHA256.hex(FleetFiles.goodReformatted))
            #expect(rolledUp == 1)
        }
    }

    @Test func comparisonEventsAreExactlyTheChanges() async throws {
        try await withFleetPipeline(serving: shopFile(webcredentials: ["ABCDE12345.shop"])) { fleet, database, pipeline in
            guard case .added(let id) = try database.importDomain(
                host: "events.fleet.test", displayName: "events.fleet.test", wildcard: false,
                appIDs: [(.applinks, "ABCDE12345.shop"), (.webcredentials, "ABCDE12345.shop")]) else {
                Issue.record("not added")
                return
            }
            try database.addExpectations([ExpectationRow(domainID: id, kind: .watchedURL(WatchedURLExpectation(
                url: "https://events.fleet.test/buy/42", expectedAppID: "ABCDE12345.shop")))])

            func step(_ file: String) async throws -> MonitorState.Step {
                try writeDefaultFile(fleet, file)
                try makeAllDue(database)
                let results = try await checkDueDomains(pipeline)
                guard let step = results.first?.1.step else { throw TestFailure("no check ran") }
                return step
            }
            let first = try await step(shopFile(webcredentials: ["ABCDE12345.shop"]))
            #expect(first.changes.isEmpty && first.check.verdict != .fail)

            // A watched URL stops opening the app.
            let excluded = try await step(shopFile(excludeBuy: true, webcredentials: ["ABCDE12345.shop"]))
            #expect(excluded.changes.contains(.watchedURLChanged(url: "https://events.fleet.test/buy/42",
                                                                 from: .opensApp("ABCDE12345.shop"), to: .staysInBrowser)))
            #expect(!excluded.changes.contains { if case .appIDsDisappeared = $0 { true } else { false } })
            // The new-version notice carries the behavioural diff.
            #expect(excluded.alerts.contains { $0.kind == .notice && $0.summary.contains("Behaviour changed") },
                    "\(excluded.alerts.map(\.summary))")

            // An app ID is removed from webcredentials.
            let removed = try await step(shopFile(excludeBuy: true))
            #expect(removed.changes.contains(.appIDsDisappeared(.webcredentials, ["ABCDE12345.shop"])))
            #expect(!removed.changes.contains { if case .watchedURLChanged = $0 { true } else { false } })

            // The verdict flips: the file stops being JSON.
            let broken = try await step("this is not json")
            #expect(broken.changes.contains(.verdictChanged(from: removed.check.verdict, to: .fail)))
            #expect(broken.changes.contains { if case .findingsAppeared = $0 { true } else { false } })
        }
    }

    @Test func alertOpensAfterTwoFailuresWithOneDeliveryPerChannelAndRecovers() async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            _ = try database.importDomain(host: "alerting.fleet.test", displayName: "alerting.fleet.test", wildcard: false,
                                          appIDs: [(.applinks, "ABCDE12345.shop")])
            try database.execute("INSERT INTO channels (kind, target, min_severity) VALUES ('webhook', 'https://hooks.example/a', 'critical')")
            try database.execute("INSERT INTO channels (kind, target, enabled) VALUES ('email', 'off@example.com', false)")

            func round(_ file: String) async throws -> [AlertEvent] {
                try writeDefaultFile(fleet, file)
                try makeAllDue(database)
                // New-version notices are informational and tested elsewhere; count the alerts.
                return try await checkDueDomains(pipeline).flatMap(\.1.step.alerts).filter { $0.kind != .notice }
            }
            #expect(try await round(shopFile()).isEmpty)
            #expect(try await round(shopFile(apps: ["ZZZZZ99999.other"])).isEmpty, "one failing check pages nobody")
            let opened = try await round(shopFile(apps: ["ZZZZZ99999.other"]))
            #expect(opened.map(\.kind) == [.opened])
            #expect(opened.first?.key == AlertKey(rule: .appIDMissing, subject: "applinks ABCDE12345.shop"))
            #expect(try count(database, "SELECT count(*)::int FROM alerts WHERE state = 'open'") == 1)
            #expect(try count(database, "SELECT count(*)::int FROM deliveries WHERE event = 'opened'") == 1)
            #expect(try count(database, "SELECT count(*)::int FROM alert_streaks") == 1)

            #expect(try await round(shopFile(apps: ["ZZZZZ99999.other"])).isEmpty, "still failing: nothing new")
            let recovered = try await round(shopFile())
            #expect(recovered.map(\.kind) == [.resolved])
            #expect(try count(database, "SELECT count(*)::int FROM alerts WHERE state = 'resolved'") == 1)
            #expect(try count(database, "SELECT count(*)::int FROM deliveries WHERE event = 'resolved'") == 1)
            #expect(try count(database, "SELECT count(*)::int FROM alert_streaks") == 0)
            let payload: String = try database.value("SELECT payload::text FROM deliveries WHERE event = 'resolved'")
            let event = try NotificationEvent.fromStoredJSON(payload)
            #expect(event.kind == .alertResolved && event.rule == "app-id-missing" && event.resolvedAt != nil)
        }
    }
}
