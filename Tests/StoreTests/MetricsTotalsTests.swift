import Foundation
import Store
import TestSupport
import Testing
import Vocabulary

/// /metrics reads kept totals (migrations 0049, 0054; issue #17): every check's counters and histogram
/// from `check_counter_totals`, the failing-codes gauge from `failing_code_counts` (by platform and
/// code). These hold them to what counting every row from scratch says — the queries /metrics ran
/// before 0049, with 0054's per-platform condition — through changed checks, batches of repeats,
/// verdict changes without a check, an opened alert, deletes and TRUNCATE.
@Suite struct MetricsTotalsTests {
    /// The counters and the failing-codes gauge counted from every row, as /metrics did before 0049.
    struct FromScratch: Equatable, CustomStringConvertible {
        var counters: [Int]
        var codes: [String: Int]
        /// Android's (migrations 0045, 0054): assetlinks.json error codes where Android counts and fails.
        var android: [String: Int]
        var description: String { "counters \(counters) codes \(codes) android \(android)" }

        static func count(_ db: Database) throws -> FromScratch {
            // The living domains' rows plus the deleted domains' counts, counter by counter.
            var counters = Array(repeating: 0, count: 14)
            for table: SQL in [" domain_stats s", " retired_check_counts s"] {
                let sums = try #require(try db.firstRow("""
                    SELECT coalesce(sum(checks_passed), 0)::bigint AS passed, coalesce(sum(checks_warned), 0)::bigint AS warned,
                      coalesce(sum(checks_failed), 0)::bigint AS failed, coalesce(sum(latency_sum_ms), 0)::bigint AS latency_sum FROM
                    """ + table))
                let buckets = try db.rows("SELECT coalesce(sum(s.latency_buckets[i]), 0)::bigint AS b FROM generate_series(1, 10) i LEFT JOIN "
                                          + table + " ON true GROUP BY i ORDER BY i")
                let values = try ["passed", "warned", "failed", "latency_sum"].map { try sums.decode($0, as: Int.self) }
                    + (try buckets.map { try $0.decode("b", as: Int.self) })
                for (i, v) in values.enumerated() where i < counters.count { counters[i] += v }
            }
            // A platform's error codes where that platform's state fails (migration 0061): the domain's
            // own column, the codes read from its latest check's findings.
            var codes: [String: Int] = [:]
            for r in try db.rows("""
                SELECT f->>'code' AS code, count(DISTINCT d.id) AS n FROM domains d JOIN checks c ON c.id = d.last_check_id,
                  jsonb_array_elements(c.findings) f
                WHERE d.last_apple_state = 'fail' AND f->>'severity' = 'error' GROUP BY 1
                """) { codes[try r.decode("code")] = try r.decode("n") }
            var android: [String: Int] = [:]
            for r in try db.rows("""
                SELECT f->>'code' AS code, count(DISTINCT d.id) AS n FROM domains d JOIN checks c ON c.id = d.last_check_id,
                  jsonb_array_elements(c.android->'findings') f
                WHERE d.last_android_state = 'fail' AND f->>'severity' = 'error' GROUP BY 1
                """) { android[try r.decode("code")] = try r.decode("n") }
            return FromScratch(counters: counters, codes: codes, android: android)
        }

        /// What `monitorMetrics` reports, in the same shape (its histogram is cumulative; undone here).
        static func kept(_ db: Database) throws -> FromScratch {
            let m = try db.monitorMetrics()
            var counters = [m.checksByVerdict["pass"] ?? 0, m.checksByVerdict["warn"] ?? 0, m.checksByVerdict["fail"] ?? 0, m.latencySum]
            var previous = 0
            for b in m.latencyBuckets { counters.append(b.count - previous); previous = b.count }
            // The two counters past the bounds: above the last bound, and checks that measured no time.
            let kept: [Int] = try db.rows("""
                SELECT coalesce(sum(latency_buckets[9]), 0)::bigint AS above, coalesce(sum(latency_buckets[10]), 0)::bigint AS untimed
                FROM check_counter_totals
                """).flatMap { [try $0.decode("above", as: Int.self), try $0.decode("untimed", as: Int.self)] }
            counters += kept
            #expect(m.latencyCount == counters[4..<13].reduce(0, +), "the +Inf bucket counts every check that measured a time")
            return FromScratch(counters: counters, codes: m.failingByCode[.apple] ?? [:], android: m.failingByCode[.android] ?? [:])
        }
    }

    static func expectKeptEqualsFromScratch(_ db: Database, _ when: String) throws {
        let kept = try FromScratch.kept(db), counted = try FromScratch.count(db)
        #expect(kept == counted, "\(when)")
    }

    static let file = Array(#"{"applinks":{"details":[]}}"#.utf8)

    /// A changed check of `domain` through the pipeline's own write (`record`), with error findings of `codes`.
    static func changedCheck(_ db: Database, _ domain: Int64, verdict: Verdict, codes: [String], latency: Int,
                             alert: AlertChange? = nil, android: AndroidResult? = nil) throws {
        try db.execute("UPDATE domains SET next_check_at = now() - interval '1 second' WHERE id = $1", domain)
        let lease = try #require(try db.leaseDueDomains(limit: 1, lease: .seconds(60), worker: "metrics-test").first { $0.id == domain })
        let findings = (codes + codes.prefix(1)).map {   // one code twice: a domain counts once per code
            Finding(code: $0, severity: .error, location: SourceLocation(pointer: ""), message: "Broken.")
        } + [Finding(code: "content-type-not-json", severity: .warning, location: SourceLocation(pointer: ""), message: "Warned.")]
        let now = Date()
        var record = try CheckRecord(
            domainID: domain, attemptKey: lease.attemptKey, startedAt: now.addingTimeInterval(-Double(latency) / 1000), finishedAt: now,
            verdict: verdict, version: StoredBody(.apple, sha256: SHA256.hex(file), bytes: file), changed: true,
            latencyMilliseconds: latency, findings: findings, transport: CheckTransport(), expectations: ExpectationResults(),
            summaryJSON: "{}", eventsJSON: "[]", consecutiveFailures: verdict == .fail ? 1 : 0, nextCheckAt: now.addingTimeInterval(3600),
            streaks: nil, alertChanges: alert.map { [$0] } ?? [])
        record.android = android
        // The states the pipeline's DomainVerdict gives a check without expectations of a domain watched
        // for both (Android counts where the site serves a file or an app is expected) or Android only.
        let platforms: WatchedPlatforms = try db.value("SELECT platforms FROM domains WHERE id = $1", domain)
        record.platformStates = Self.states(platforms: platforms, verdict: verdict, android: android)
        record.domainVerdict = [record.platformStates.apple, record.platformStates.android].compactMap { $0 }.max() ?? .pass
        let outcome = try db.record(record)
        guard case .recorded = outcome else { Issue.record("not recorded: \(outcome)"); return }
    }

    /// Each platform's state as `DomainVerdict` judges a check with no expectations, under `platforms`.
    static func states(platforms: WatchedPlatforms, verdict: Verdict, android: AndroidResult?) -> PlatformStates {
        switch platforms {
        case .android: PlatformStates(android: android?.verdict)
        case .apple: PlatformStates(apple: verdict)
        case .both: PlatformStates(apple: verdict, android: android.flatMap { $0.isWatched ? $0.verdict : nil })
        }
    }

    /// Re-measures `domain` under its platform setting as `DomainVerdict.reevaluate` does after an edit
    /// (the registry's way to change the setting): the states and the verdict they make.
    static func remeasure(_ db: Database, _ domain: Int64, android: AndroidResult?) throws {
        let row = try #require(try db.firstRow("SELECT platforms, last_check_id, c.verdict FROM domains d JOIN checks c ON c.id = d.last_check_id "
                                               + "WHERE d.id = $1", domain))
        let states = states(platforms: try row.decode("platforms"), verdict: try row.decode("verdict"), android: android)
        #expect(try db.setDomainState(domainID: domain, verdict: [states.apple, states.android].compactMap { $0 }.max() ?? .pass,
                                       reason: nil, platforms: states, expectations: nil, basedOnCheck: try row.decode("last_check_id")))
    }

    /// A platform's codes count where that platform fails in the latest check (migration 0054), not
    /// where the domain's overall state fails, as 0045/0049 counted them: a domain failing on Apple only
    /// counts no Android code, and a domain whose Android side fails counts Android's codes whatever its
    /// state says. The second domain's state is its Apple file's warning (this suite's writer stores no
    /// separate domain verdict); through the pipeline the state and the platform verdicts part this way
    /// after a re-measure (`DomainVerdict.reevaluate`: an expectation edited) until the next check.
    @Test func aPlatformsCodesCountWhereThatPlatformFails() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            var ids: [Int64] = []
            for name in ["apple-fails", "android-fails"] {
                guard case .created(let id) = try db.createDomain(DomainDraft(host: "\(name).example", displayName: "\(name).example",
                    wildcard: false, intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: []), requestFirstCheck: false) else {
                    Issue.record("\(name) not created"); return
                }
                ids.append(id)
            }
            try db.execute("UPDATE domains SET next_check_at = now() + interval '1 day'")
            // Apple's file fails; Android's assetlinks.json is served and only warns.
            let warns = AndroidResult(verdict: .warn, serves: true, versionSHA256: "cd",
                                      findings: [Finding(code: "fetcher-blocked", severity: .warning, message: "Warned.")])
            try Self.changedCheck(db, ids[0], verdict: .fail, codes: ["http-status"], latency: 50, android: warns)
            // Apple's file only warns; Android's is served and broken.
            let broken = AndroidResult(verdict: .fail, serves: true, versionSHA256: "ab",
                                       findings: [Finding(code: "invalid-json", severity: .error, message: "Broken.")])
            try Self.changedCheck(db, ids[1], verdict: .warn, codes: [], latency: 50, android: broken)

            let m = try db.monitorMetrics()
            #expect(m.failingByCode == [.apple: ["http-status": 1], .android: ["invalid-json": 1]])
            // Each platform's codes are counted over the domains aasa_platform_domains counts failing there.
            for platform in Platform.allCases {
                let failing = m.domainsByPlatform[platform]?[.fail] ?? 0
                #expect(m.failingByCode[platform]?.values.allSatisfy { $0 <= failing } ?? true, "\(platform)")
            }
            try Self.expectKeptEqualsFromScratch(db, "one domain failing on each platform")
        }
    }

    @Test func keptTotalsEqualCountingEveryRow() throws {
        try TestPostgres.withDatabase { (db: Database) throws in
            var ids: [Int64] = []
            for i in 0..<8 {
                guard case .created(let id) = try db.createDomain(DomainDraft(host: "m\(i).example", displayName: "m\(i).example",
                    wildcard: false, intervalSeconds: 3600, badgeEnabled: false, appIDs: [], watchedURLs: []), requestFirstCheck: false) else {
                    Issue.record("m\(i) not created"); return
                }
                ids.append(id)
            }
            // Each check below makes its own domain due, so a lease takes that one alone.
            try db.execute("UPDATE domains SET next_check_at = now() + interval '1 day'")
            try Self.expectKeptEqualsFromScratch(db, "registered, never checked")

            // Changed checks: failing with codes (one domain twice, its latest codes replacing the first's),
            // passing, warning, and one that never measured a time.
            try Self.changedCheck(db, ids[0], verdict: .fail, codes: ["http-status", "redirect-not-allowed"], latency: 30)
            try Self.changedCheck(db, ids[1], verdict: .fail, codes: ["http-status"], latency: 700)
            try Self.changedCheck(db, ids[2], verdict: .pass, codes: [], latency: 120)
            try Self.changedCheck(db, ids[3], verdict: .warn, codes: [], latency: 20_000)
            try Self.changedCheck(db, ids[4], verdict: .fail, codes: ["invalid-json"], latency: 0)
            try Self.changedCheck(db, ids[4], verdict: .fail, codes: ["not-found"], latency: 60,
                                  alert: AlertChange(event: AlertEvent(kind: .opened, key: AlertKey(rule: .originInvalid), severity: .critical,
                                                                           summary: "The file is not valid.", at: Date()),
                                                     domainHost: "m4.example"))
            try Self.expectKeptEqualsFromScratch(db, "after changed checks")
            #expect(try db.monitorMetrics().failingByCode == [.apple: ["http-status": 2, "redirect-not-allowed": 1, "not-found": 1]])

            // Android's codes (0045): a domain watched for Android only with no file; one watched for both
            // whose served assetlinks.json is broken; one watched for both that serves none and expects
            // no app (Android does not count there).
            try db.execute("UPDATE domains SET platforms = 'android' WHERE id = $1", ids[5])
            let missing = AndroidResult(verdict: .fail, serves: false, findings: [Finding(code: "http-status", severity: .error, message: "404")])
            let broken = AndroidResult(verdict: .fail, serves: true, versionSHA256: "ab",
                                       findings: [Finding(code: "invalid-json", severity: .error, message: "Broken."),
                                                  Finding(code: "fetcher-blocked", severity: .warning, message: "Warned.")])
            try Self.changedCheck(db, ids[5], verdict: .fail, codes: [], latency: 50, android: missing)
            try Self.changedCheck(db, ids[6], verdict: .fail, codes: ["http-status"], latency: 50, android: broken)
            try Self.changedCheck(db, ids[7], verdict: .fail, codes: ["http-status"], latency: 50, android: missing)
            try Self.expectKeptEqualsFromScratch(db, "after Android checks")
            #expect(try db.monitorMetrics().failingByCode[.android] == ["http-status": 1, "invalid-json": 1])
            // The platform setting moves a domain's Android codes in and out without a check, with the
            // re-measure that goes with it (DomainRegistry.edit, a config apply).
            try db.execute("UPDATE domains SET platforms = 'apple' WHERE id = $1", ids[6])
            try Self.remeasure(db, ids[6], android: broken)
            try Self.expectKeptEqualsFromScratch(db, "after a switch to Apple only")
            #expect(try db.monitorMetrics().failingByCode[.android] == ["http-status": 1])
            try db.execute("UPDATE domains SET platforms = 'android' WHERE id = $1", ids[7])
            try Self.remeasure(db, ids[7], android: missing)
            try Self.expectKeptEqualsFromScratch(db, "after a switch to Android only")
            #expect(try db.monitorMetrics().failingByCode[.android] == ["http-status": 2])
            try db.execute("UPDATE domains SET platforms = 'both' WHERE id = ANY($1)", SQLArray([ids[6], ids[7]]))
            try Self.remeasure(db, ids[6], android: broken)
            try Self.remeasure(db, ids[7], android: missing)
            try Self.expectKeptEqualsFromScratch(db, "after both back to both")

            // A batch of repeats in one statement, as the pipeline's RepeatWriter writes them.
            var repeats: [RepeatRecord] = []
            for (i, id) in ids.prefix(4).enumerated() {
                try db.execute("UPDATE domains SET next_check_at = now() - interval '1 second' WHERE id = $1", id)
                let lease = try #require(try db.leaseDueDomains(limit: 8, lease: .seconds(60), worker: "metrics-test").first { $0.id == id })
                let verdict: Verdict = i < 2 ? .fail : (i == 2 ? .pass : .warn)
                repeats.append(RepeatRecord(domainID: id, attemptKey: lease.attemptKey, finishedAt: Date(),
                                            verdict: verdict, states: PlatformStates(apple: verdict), latencyMilliseconds: 40 + i * 300,
                                            consecutiveFailures: 0, nextCheckAt: Date().addingTimeInterval(3600), versions: []))
            }
            #expect(try db.recordRepeats(repeats).count == 4)
            try Self.expectKeptEqualsFromScratch(db, "after a batch of repeats")

            // The domain's state changes without a check (an expectation re-measured), both ways.
            let latest: Int64 = try db.value("SELECT last_check_id FROM domains WHERE id = $1", ids[0])
            #expect(try db.setDomainState(domainID: ids[0], verdict: .warn, reason: DomainReason("edited", platform: .apple), platforms: PlatformStates(apple: .warn),
                                          expectations: nil, basedOnCheck: latest))
            try Self.expectKeptEqualsFromScratch(db, "after a failing domain stopped failing")
            #expect(try db.setDomainState(domainID: ids[0], verdict: .fail, reason: DomainReason("edited back", platform: .apple), platforms: PlatformStates(apple: .fail),
                                          expectations: nil, basedOnCheck: latest))
            try Self.expectKeptEqualsFromScratch(db, "after it failed again")

            // Deletes: one domain, then several in one statement; the counters keep their checks.
            #expect(try db.deleteDomain(id: ids[1]))
            try Self.expectKeptEqualsFromScratch(db, "after a delete")
            try db.execute("DELETE FROM domains WHERE id = ANY($1)", SQLArray([ids[0], ids[4], ids[5], ids[6], ids[7]]))
            try Self.expectKeptEqualsFromScratch(db, "after deleting several in one statement")
            #expect(try db.monitorMetrics().failingByCode.isEmpty)
            #expect(try db.monitorMetrics().checksByVerdict["fail"] == 9)   // 7 changed checks, 2 repeats

            try db.execute("TRUNCATE domains CASCADE")
            try Self.expectKeptEqualsFromScratch(db, "after TRUNCATE")
            #expect(try db.value("SELECT count(*) FROM failing_code_counts WHERE n <> 0", as: Int.self) == 0)
        }
    }
}
