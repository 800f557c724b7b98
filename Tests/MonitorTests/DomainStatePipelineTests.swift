import Vocabulary
import AASA
import Foundation
@testable import Store
import Testing
import TestSupport
@testable import Monitor

/// A valid file that misses an expectation makes the DOMAIN fail (what the overview, `status`, the
/// API, /metrics and the badge read) while the check's own verdict stays the file's (what the alert
/// rules read). Real PostgreSQL and the HTTPS test fleet.
@Suite(.serialized) struct DomainStatePipelineTests {
    static let shop = "ABCDE12345.shop"
    static let absent = "ABCDE12345.com.example.app"

    struct DomainRow: Equatable {
        var verdict: Verdict?
        var reason: String?
        /// `last_reason_platform` (0069); nil where a test reads rows from before it.
        var platform: Platform? = nil

        /// The reason as the Store reads it back (`DomainReason`).
        var typed: DomainReason? { reason.map { DomainReason($0, platform: platform) } }
    }

    func domainRow(_ database: Database, _ id: Int64) throws -> DomainRow {
        let row = try #require(try database.firstRow("SELECT last_verdict, last_reason, last_reason_platform FROM domains WHERE id = $1", id))
        return DomainRow(verdict: try row.decode("last_verdict"), reason: try row.decode("last_reason"), platform: try row.decode("last_reason_platform"))
    }

    @Test func unmetExpectationsFailTheDomainButNotTheCheck() async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            guard case .added(let id) = try database.importDomain(
                host: "expect.fleet.test", displayName: "expect.fleet.test", wildcard: false,
                appIDs: [(.applinks, Self.shop), (.applinks, Self.absent)]) else {
                Issue.record("not added")
                return
            }
            let first = try #require(try await checkDueDomains(pipeline).first?.1.step)
            let fileVerdict = first.check.verdict
            #expect(fileVerdict != .fail, "the served file itself is valid: \((first.check.apple?.findings ?? []).map(\.code))")

            // The check keeps the file's verdict; the domain fails, saying which app ID is missing.
            #expect(try database.value("SELECT verdict FROM checks WHERE domain_id = $1", id, as: String.self) == fileVerdict.rawValue)
            let missing = "App ID \(Self.absent) is missing from applinks."
            #expect(try domainRow(database, id) == DomainRow(verdict: .fail, reason: missing, platform: .apple))
            // The domain keeps what the check measured, for the domain page (which never parses the file for it).
            #expect(try database.domain(id: id)?.lastExpectations == ExpectationResults(missingAppIDs: [.applinks: [Self.absent]]))

            // `aasa-monitor status [--json]` reads the domain's state.
            let status = try #require(try database.domainStatuses().first)
            #expect(status.state == .failing && status.reason == DomainReason(missing, platform: .apple))
            let json = DomainStatus.json([status])
            #expect(json.contains(#""state":"failing""#) && json.contains(#""reason":"\#(missing)""#), "\(json)")
            #expect(DomainStatus.text([status], now: Date()).contains("↳ " + missing))

            // The overview's state, filter and counts, and /metrics' per-state counts.
            let overview = try database.overview(OverviewFilter(state: .failing, sort: .state, pageSize: 10))
            #expect(overview.items.map(\.state) == [.failing] && overview.items.first?.reason == DomainReason(missing, platform: .apple))
            #expect(overview.counts[.failing] == 1 && overview.counts[.passing] == nil)
            let failing = try database.monitorMetrics()
            #expect(failing.domainsByState == ["fail": 1] && failing.unmetExpectations == 1)

            // Editing the expectations re-measures the stored file at once, without a check.
            var draft = DomainDraft(host: "expect.fleet.test", displayName: "expect.fleet.test", wildcard: false,
                                    intervalSeconds: 3600, badgeEnabled: false,
                                    appIDs: [AppIDExpectation(service: .applinks, appID: Self.shop)], watchedURLs: [])
            try database.updateDomain(id: id, draft)
            #expect(try DomainVerdict.reevaluate(domainID: id, in: database)?.verdict == fileVerdict)
            #expect(try domainRow(database, id).verdict == fileVerdict)
            #expect(try domainRow(database, id).reason != missing)
            #expect(try database.monitorMetrics().unmetExpectations == 0)

            // A watched URL the file keeps in the browser (/help is excluded) but that should open the app.
            draft.watchedURLs = [WatchedURLExpectation(url: "https://expect.fleet.test/help/1", expectedAppID: Self.shop)]
            try database.updateDomain(id: id, draft)
            try DomainVerdict.reevaluate(domainID: id, in: database)
            let watched = "Watched URL https://expect.fleet.test/help/1 does not open \(Self.shop): it stays in the browser."
            #expect(try domainRow(database, id) == DomainRow(verdict: .fail, reason: watched, platform: .apple))
            #expect(try database.domain(id: id)?.lastExpectations == ExpectationResults(watchedURLs: [
                WatchedURLResult(url: "https://expect.fleet.test/help/1", expected: .opensApp(Self.shop), actual: .staysInBrowser)]))

            // The next check measures the same and agrees; it does not change the check's verdict.
            try makeAllDue(database)
            let second = try #require(try await checkDueDomains(pipeline).first?.1.step)
            #expect(second.check.verdict == fileVerdict)
            #expect(try domainRow(database, id) == DomainRow(verdict: .fail, reason: watched, platform: .apple))
            #expect(try database.value("SELECT count(*)::int FROM checks WHERE domain_id = $1 AND verdict = 'fail'", id, as: Int.self) == 0)
            // An unchanged repeat keeps it.
            try makeAllDue(database)
            _ = try await checkDueDomains(pipeline)
            #expect(try domainRow(database, id) == DomainRow(verdict: .fail, reason: watched, platform: .apple))
            // /metrics counts the checks by their own (file) verdict: none failed.
            let metrics = try database.monitorMetrics()
            #expect(metrics.checksByVerdict["fail", default: 0] == 0 && metrics.domainsByState["fail"] == 1, "\(metrics.checksByVerdict)")

            // The file starts opening /help for the app: the domain passes again after the check.
            try writeDefaultFile(fleet, #"{"applinks": {"details": [{"appIDs": ["\#(Self.shop)"], "components": [{"/": "/*"}]}]}}"#)
            try makeAllDue(database)
            _ = try await checkDueDomains(pipeline)
            #expect(try domainRow(database, id).verdict != .fail)
            #expect(try database.monitorMetrics().unmetExpectations == 0)
            #expect(try database.domainStatuses().first?.state != .failing)
            #expect(try database.domain(id: id)?.lastExpectations?.watchedURLs.map(\.actual) == [.opensApp(Self.shop)])

            // A file that cannot be read measures nothing: the page shows no expectation as holding or not.
            try writeDefaultFile(fleet, "not json")
            try makeAllDue(database)
            _ = try await checkDueDomains(pipeline)
            #expect(try database.domain(id: id)?.lastExpectations == nil)
        }
    }

    /// A passing row leads with its problem (issue #32): the fleet's file has only an informational
    /// note (no applinks.apps, which matters to iOS 12 and earlier) and shows no reason; once its
    /// certificate is within an expiry threshold, the alert that opens is the row's reason, in
    /// `status` as in the overview, and stays so when the domain is re-measured between checks.
    @Test func aPassingRowShowsNoInfoNoteAndLeadsWithAnExpiringCertificate() async throws {
        try await TestTLSFleet.with { fleet in
            try writeDefaultFile(fleet, shopFile())
            let fetcher = try fleetFetcher(fleet)
            defer { fetcher.shutdown() }
            try await TestPostgres.withDatabase { database in
                guard case .added(let id) = try database.importDomain(
                    host: "expect.fleet.test", displayName: "expect.fleet.test", wildcard: false, appIDs: [(.applinks, Self.shop)]) else {
                    Issue.record("not added")
                    return
                }
                // Every check reads the certificate, so the second one judges it with its own thresholds.
                let everyCheck = SecondaryCadence(certificate: 0)
                let first = try #require(try await checkDueDomains(CheckPipeline(database: database, fetcher: fetcher, cadence: everyCheck)).first?.1.step)
                let notes = first.check.apple?.findings ?? []
                #expect(first.check.verdict == .pass && !notes.isEmpty && notes.allSatisfy { $0.severity == .info }, "\(notes.map(\.code))")
                #expect(try domainRow(database, id) == DomainRow(verdict: .pass, reason: nil))

                // A threshold of a century: the fleet's certificate is "close to expiry" and its alert opens at once.
                let policy = AlertPolicy(certificateThresholdDays: [36_500])
                try makeAllDue(database)
                let second = try #require(try await checkDueDomains(CheckPipeline(database: database, fetcher: fetcher, alertDefaults: policy,
                                                                                  cadence: everyCheck)).first?.1.step)
                #expect(second.state.openAlerts.map(\.key.rule) == [.certificateExpiring])
                let row = try domainRow(database, id)
                #expect(row.verdict == .pass)
                #expect(row.reason?.hasPrefix("The certificate expires on ") == true, "\(row.reason ?? "no reason")")
                #expect(row.platform == nil, "an open alert's summary leads: it names no platform of the domain's")
                #expect(try database.domainStatuses().first?.reason == row.typed)
                #expect(try database.overview(OverviewFilter(pageSize: 10)).items.first?.reason == row.typed)
                try DomainVerdict.reevaluate(domainID: id, in: database)
                #expect(try domainRow(database, id) == row, "the open alert still leads when re-measured without a check")
            }
        }
    }

    /// The migration that introduced the state fills it in for domains checked before it.
    @Test func theMigrationFailsDomainsWhoseStoredCheckMissedAnExpectation() throws {
        let testDatabase = try TestPostgres.createDatabase(migrated: false)
        defer { testDatabase.drop() }
        let all = try MigrationDirectory.load(try TestPostgres.migrationsDirectory())
        let added = try #require(all.first { $0.name == "domain_reason" })
        try Migrator(migrations: all.filter { $0.version < added.version }).migrate(testDatabase.configuration)
        let database = Database(configuration: testDatabase.configuration, poolSize: 1)
        defer { database.close() }

        func domain(_ host: String, verdict: Verdict, findings: [Finding], expectations: ExpectationResults) throws -> Int64 {
            let id: Int64 = try database.value("INSERT INTO domains (host, display_name) VALUES ($1, $1) RETURNING id", host)
            let check: Int64 = try database.value("""
                INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, findings, expectations)
                VALUES ($1, 'k', now(), now(), $2, $3::jsonb, $4::jsonb) RETURNING id
                """, id, verdict, try StoredJSON.encode(findings), try StoredJSON.encode(expectations))
            try database.execute("UPDATE domains SET last_check_id = $2, last_verdict = $3 WHERE id = $1", id, check, verdict)
            return id
        }
        let warning = Finding(code: "content-type-not-json", severity: .warning, message: "Served as text/plain.")
        let fine = try domain("fine.example", verdict: .warn, findings: [warning], expectations: ExpectationResults())
        let app = try domain("app.example", verdict: .pass, findings: [],
                             expectations: ExpectationResults(missingAppIDs: [.applinks: [Self.absent]]))
        let url = try domain("url.example", verdict: .warn, findings: [warning], expectations: ExpectationResults(watchedURLs: [
            WatchedURLResult(url: "https://url.example/a", expected: .opensApp(Self.shop), actual: .opensApp(Self.shop)),
            WatchedURLResult(url: "https://url.example/b", expected: .opensApp(Self.shop), actual: .staysInBrowser),
        ]))
        let never: Int64 = try database.value("INSERT INTO domains (host, display_name) VALUES ('new.example', 'new.example') RETURNING id")
        // A broken file that also misses an app ID fails for the file, not (only) for the expectation.
        let error = Finding(code: "json-invalid", severity: .error, message: "Not JSON.")
        let broken = try domain("broken.example", verdict: .fail, findings: [error],
                                expectations: ExpectationResults(missingAppIDs: [.applinks: [Self.absent]]))

        try Migrator(migrations: all).migrate(testDatabase.configuration)
        func row(_ id: Int64) throws -> DomainRow {
            let r = try #require(try database.firstRow("SELECT last_verdict, last_reason FROM domains WHERE id = $1", id))
            return DomainRow(verdict: try r.decode("last_verdict"), reason: try r.decode("last_reason"))
        }
        // The same words the monitor writes.
        #expect(try row(fine) == DomainRow(verdict: .warn, reason: "Served as text/plain."))
        #expect(try row(app) == DomainRow(verdict: .fail, reason: ExpectationResults(missingAppIDs: [.applinks: [Self.absent]]).unmetDescriptions[0]))
        #expect(try row(url) == DomainRow(verdict: .fail, reason: "Watched URL https://url.example/b does not open \(Self.shop): it stays in the browser."))
        #expect(try row(never) == DomainRow(verdict: nil, reason: nil))
        #expect(try row(broken) == DomainRow(verdict: .fail, reason: "Not JSON."))
        // /metrics: the two whose file is fine but an expectation is not.
        let metrics = try database.monitorMetrics()
        #expect(metrics.unmetExpectations == 2 && metrics.domainsByState["fail"] == 3, "\(metrics.domainsByState)")
    }

    /// Migration 0068 rewrites the reasons stored before reasons led with the point, which an unchanged
    /// check would keep: a non-failing domain's note goes, its most severe open alert leads; a failing
    /// domain keeps its cause.
    @Test func migration0068RewritesStoredReasonsTheWayTheMonitorNowWritesThem() throws {
        let testDatabase = try TestPostgres.createDatabase(migrated: false)
        defer { testDatabase.drop() }
        let all = try MigrationDirectory.load(try TestPostgres.migrationsDirectory())
        try Migrator(migrations: all.filter { $0.version < 68 }).migrate(testDatabase.configuration)
        let database = Database(configuration: testDatabase.configuration, poolSize: 1)
        defer { database.close() }

        let note = Finding(code: "applinks-apps-missing", severity: .info, message: "applinks has no apps key; iOS 12 and earlier need it.")
        let warning = Finding(code: "content-type-not-json", severity: .warning, message: "Served as text/plain.")
        let error = Finding(code: "json-invalid", severity: .error, message: "Not JSON.")
        func domain(_ host: String, verdict: Verdict, findings: [Finding], android: AndroidResult? = nil, reason: String?) throws -> Int64 {
            let id: Int64 = try database.value("INSERT INTO domains (host, display_name) VALUES ($1, $1) RETURNING id", host)
            let check: Int64 = try database.value("""
                INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, findings, android)
                VALUES ($1, 'k', now(), now(), $2, $3::jsonb, $4::jsonb) RETURNING id
                """, id, verdict, try StoredJSON.encode(findings), try android.map { try StoredJSON.encode($0) })
            try database.execute("UPDATE domains SET last_check_id = $2, last_verdict = $3, last_apple_state = $3, last_reason = $4 WHERE id = $1",
                                 id, check, verdict, reason)
            return id
        }
        func alert(_ domainID: Int64, _ rule: AlertRule, _ summary: String, open: Bool = true) throws {
            try database.execute("""
                INSERT INTO alerts (domain_id, rule, severity, summary, state, resolved_at)
                VALUES ($1, $2, $3, $4, $5, CASE WHEN $5 = 'resolved' THEN now() END)
                """, domainID, rule.rawValue, rule.severity.rawValue, summary, open ? "open" : "resolved")
        }
        let noted = try domain("noted.example", verdict: .pass, findings: [note], reason: note.message)
        let androidNoted = try domain("android.example", verdict: .pass, findings: [],
                                      android: AndroidResult(verdict: .pass, serves: true, findings: [note]), reason: "Android: " + note.message)
        let warned = try domain("warned.example", verdict: .warn, findings: [note, warning], reason: warning.message)
        let expiring = try domain("expiring.example", verdict: .pass, findings: [note], reason: note.message)
        let soon = "The certificate expires on 2026-12-07, within 7 days."
        try alert(expiring, .cdnStale, "Apple's CDN still serves an older file, 30 h after the origin changed.")
        try alert(expiring, .certificateExpiring, soon)
        try alert(expiring, .newVersion, "A new file was published.")
        try alert(warned, .certificateExpiring, "The certificate expired on 2026-01-01.", open: false)
        let broken = try domain("broken.example", verdict: .fail, findings: [error], reason: error.message)
        try alert(broken, .certificateExpiring, soon)

        try Migrator(migrations: all).migrate(testDatabase.configuration)
        func reason(_ id: Int64) throws -> String? {
            try #require(try database.firstRow("SELECT last_reason FROM domains WHERE id = $1", id)).decode("last_reason")
        }
        #expect(try reason(noted) == nil)
        #expect(try reason(androidNoted) == nil)
        #expect(try reason(warned) == warning.message, "a warning stays; a resolved alert does not lead")
        #expect(try reason(expiring) == soon, "the critical alert before the warning one and the notice")
        #expect(try reason(broken) == error.message)
    }
}
