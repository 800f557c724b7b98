import Foundation
import Store
import Vocabulary

/// The assetlinks.json every seeded domain watched for Android serves, and what its check stored.
public struct AndroidFile: Sendable {
    public var body: [UInt8]
    public var result: AndroidResult
    public init(body: [UInt8], result: AndroidResult) {
        self.body = body
        self.result = result
    }
}

/// Benchmark data, kept out of the production targets: only WebBench (and whatever else measures
/// a populated database) links this.
extension Database {
    /// Fills an empty database the way the product would have after running for a while: `domains`
    /// domains; the first `withHistory` of them were checked every `intervalMinutes` for `days`
    /// days, the rest for the last `recentChecks` intervals (default: the retention age, so every
    /// domain has a full week of repeats, as after a week of running). Like the pipeline, only a few checks
    /// changed something (full `checks` rows); every other check is an unchanged repeat
    /// (`check_repeats`), and repeats older than `retentionDays` are folded into `check_rollups` by
    /// the retention job's own statement. A few set-based statements: the benchmark and the
    /// screenshots need a realistic size, and row-by-row inserts would take minutes.
    public func seedBenchmarkData(domains: Int, withHistory: Int, days: Int, intervalMinutes: Int, retentionDays: Int = 7,
                                  recentChecks: Int? = nil, body: [UInt8], otherBody: [UInt8], findings: [Finding],
                                  transport: CheckTransport, android: AndroidFile? = nil) throws {
        let transportJSON = try StoredJSON.encode(transport), findingsJSON = try StoredJSON.encode(findings)
        let androidJSON = try android.map { try StoredJSON.encode($0.result) }
        // With Android: a tenth of the domains watched for Apple only and a tenth for Android only
        // (the overview's platform filter then has something to leave out); the rest both.
        try execute("""
            INSERT INTO domains (host, display_name, interval_seconds, next_check_at, last_verdict, last_checked_at, last_changed_at, platforms)
            SELECT 'site' || g || '.example', 'site' || g || '.example', $2 * 60,
              -- Due times spread evenly over one interval, as after a round of checks.
              now() + make_interval(secs => $2 * 60.0 * (g % 3600) / 3600),
              CASE WHEN g % 17 = 0 THEN 'fail' WHEN g % 5 = 0 THEN 'warn' ELSE 'pass' END,
              now() - (g % 60) * interval '1 minute', now() - (g % 90) * interval '1 day',
              CASE WHEN $3 AND g % 10 = 1 THEN 'apple' WHEN $3 AND g % 10 = 2 THEN 'android' ELSE 'both' END
            FROM generate_series(1, $1) g
            """, domains, intervalMinutes, android != nil)
        let a = SHA256.hex(body), b = SHA256.hex(otherBody)
        try execute("INSERT INTO association_versions (platform, sha256, body, size) VALUES ('apple', $1, $2, $3), ('apple', $4, $5, $6) ON CONFLICT DO NOTHING",
                    a, body, body.count, b, otherBody, otherBody.count)
        let androidSHA = android.map { SHA256.hex($0.body) }
        if let android, let androidSHA {
            try execute("INSERT INTO association_versions (platform, sha256, body, size) VALUES ('android', $1, $2, $3) ON CONFLICT DO NOTHING",
                        androidSHA, android.body, android.body.count)
        }

        // Checks counted back from now (0: the latest). The ones that changed something over a year:
        // the first check (the older file), the file's update, a verdict change, a certificate
        // renewal before the retention age and one within it.
        let total = days * 1440 / intervalMinutes
        let retained = retentionDays * 1440 / intervalMinutes
        let history = Array(Set([total, total * 57 / 100, total * 23 / 100, total * 34 / 1000, max(1, retained / 5)]))
            .filter { $0 <= total }.sorted(by: >)
        let verdictChange = history.count > 2 ? history[2] : 0
        let recentChecks = recentChecks ?? retained
        let recent = [recentChecks]
        for (limit, offset, changedAt, span) in [(withHistory, 0, history, total), (domains - withHistory, withHistory, recent, recentChecks)]
        where limit > 0 {
            try execute("""
                INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, origin_version_id, cdn_version_id,
                                    transport, findings, changed, latency_ms, android, android_version_id)
                SELECT d.id, 'seed-' || t.n, now() - t.n * make_interval(mins => $3),
                  now() - t.n * make_interval(mins => $3) + interval '200 milliseconds', v.verdict,
                  (SELECT id FROM association_versions WHERE platform = 'apple' AND sha256 = CASE WHEN t.n = $8 AND $1 > 0 AND $2 = 0 THEN $5 ELSE $4 END),
                  (SELECT id FROM association_versions WHERE platform = 'apple' AND sha256 = $4),
                  $6::jsonb, CASE WHEN v.verdict = 'pass' THEN '[]'::jsonb ELSE $7::jsonb END, true,
                  40 + ((d.id * 7 + t.n * 13) % 160),
                  CASE WHEN d.platforms <> 'apple' THEN $11::jsonb END,
                  CASE WHEN d.platforms <> 'apple' THEN (SELECT id FROM association_versions WHERE platform = 'android' AND sha256 = $12) END
                FROM (SELECT id, last_verdict, platforms FROM domains ORDER BY id LIMIT $1 OFFSET $2) d
                CROSS JOIN unnest($9::int[]) AS t(n)
                CROSS JOIN LATERAL (SELECT CASE WHEN t.n > $10 THEN 'pass' ELSE d.last_verdict END AS verdict) v
                """, limit, offset, intervalMinutes, a, b, transportJSON, findingsJSON, span, SQLArray(changedAt), verdictChange,
                androidJSON, androidSHA)
            try execute("""
                INSERT INTO check_repeats (domain_id, checked_at, latency_ms)
                SELECT d.id, now() - t.n * make_interval(mins => $3) + interval '200 milliseconds', 40 + ((d.id * 7 + t.n * 13) % 160)
                FROM (SELECT id FROM domains ORDER BY id LIMIT $1 OFFSET $2) d
                CROSS JOIN generate_series(0, $4) AS t(n)
                WHERE t.n <> ALL($5::int[])
                """, limit, offset, intervalMinutes, span, SQLArray(changedAt))
        }
        // What the retention job would have done by now: roll up past the retention age, and pack
        // every day before today a row per domain and day.
        try rollUpRepeats(olderThan: .seconds(retentionDays * 86_400))
        try packRepeats(before: Self.startOfTodayUTC())
        // Each platform's state and the verdict they make, as the pipeline judges the latest check
        // (migration 0061's rule in SQL; 0062 refuses a row whose states do not make its verdict).
        try execute("""
            UPDATE domains d SET last_check_id = c.id, last_changed_at = c.started_at,
              last_reason = (SELECT f->>'message' FROM jsonb_array_elements(c.findings) f
                             ORDER BY CASE f->>'severity' WHEN 'error' THEN 0 WHEN 'warning' THEN 1 WHEN 'deprecation' THEN 2 ELSE 3 END
                             LIMIT 1),
              last_apple_state = aasa_apple_state(d.platforms, true, c.verdict, c.expectations),
              last_android_state = aasa_android_state(d.platforms, true, c.android),
              last_verdict = aasa_verdict_of_states(aasa_apple_state(d.platforms, true, c.verdict, c.expectations),
                                                    aasa_android_state(d.platforms, true, c.android))
            FROM (SELECT DISTINCT ON (domain_id) domain_id, id, started_at, findings, verdict, expectations, android FROM checks
                  ORDER BY domain_id, started_at DESC) c
            WHERE c.domain_id = d.id
            """)
        // The per-verdict counters, latency histograms and sparklines every check adds to.
        try execute("SELECT aasa_recount_domain_stats()")
        // The roll-up emptied most of check_repeats at once; a running system reuses that space hour
        // by hour, so compact it rather than measure a table four times its steady size. Then set the
        // visibility map, as autovacuum would have, so index-only scans stay index-only.
        try execute("VACUUM FULL check_repeats")
        try execute("VACUUM ANALYZE")
    }

    /// The retention job's packing cutoff (DomainScheduler's): the midnight that started today, UTC.
    static func startOfTodayUTC() -> Date {
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }

    /// Adds `count` domains `busyN.example` checked every minute for `days` days: one changed check
    /// each and a repeat for every other minute, with no roll-up yet (within the retention age), the
    /// days before today packed as the retention job packs them.
    /// The heaviest history the overview's rows can have.
    public func seedBusyDomains(count: Int, days: Int) throws {
        try execute("""
            INSERT INTO domains (host, display_name, interval_seconds, next_check_at, last_verdict, last_checked_at, last_changed_at)
            SELECT 'busy' || g || '.example', 'busy' || g || '.example', 60, now() + interval '1 minute', 'pass', now(),
              now() - make_interval(days => $2)
            FROM generate_series(1, $1) g
            """, count, days)
        try execute("""
            INSERT INTO checks (domain_id, attempt_key, started_at, finished_at, verdict, transport, findings, changed, latency_ms)
            SELECT id, 'seed-busy', now() - make_interval(days => $1), now() - make_interval(days => $1), 'pass', '{}'::jsonb,
              '[]'::jsonb, true, 60
            FROM domains WHERE host LIKE 'busy%'
            """, days)
        try execute("""
            INSERT INTO check_repeats (domain_id, checked_at, latency_ms)
            SELECT d.id, now() - t.n * interval '1 minute', 40 + ((d.id * 7 + t.n * 13) % 160)
            FROM domains d CROSS JOIN generate_series(0, $1 * 1440 - 1) AS t(n) WHERE d.host LIKE 'busy%'
            ORDER BY t.n DESC, d.id
            """, days)
        try packRepeats(before: Self.startOfTodayUTC())
        try execute("""
            UPDATE domains d SET last_check_id = c.id, last_apple_state = 'pass' FROM checks c WHERE c.domain_id = d.id AND d.host LIKE 'busy%'
            """)
        try execute("SELECT aasa_recount_domain_stats()")
        try execute("VACUUM ANALYZE")
    }
}

extension Database {
    /// One app (an Apple app ID and an Android package with its signing key) linked for both
    /// platforms to the first `links` domains watched for both, as a platform's own app that claims
    /// its customers' domains: the app page's matrix reads every link's latest check.
    public func seedBenchmarkApp(name: String, links: Int) throws {
        let appID: Int64 = try value("""
            INSERT INTO apps (name, android_package) VALUES ($1, 'com.example.bench') RETURNING id
            """, name)
        try execute("INSERT INTO app_apple_ids (app_id, apple_app_id, position) VALUES ($1, 'ABCDE12345.com.example.app', 0)", appID)
        try execute("""
            INSERT INTO app_fingerprints (app_id, fingerprint, key_role) VALUES ($1, $2, 'app-signing')
            """, appID, Array(repeating: "AB", count: 32).joined(separator: ":"))
        try execute("""
            INSERT INTO app_links (app_id, domain_id, platform, service, declared_as)
            SELECT $1, d.id, p.platform, 'applinks', 'applinks:' || d.host
            FROM (SELECT id, host FROM domains WHERE platforms = 'both' ORDER BY id LIMIT $2) d
            CROSS JOIN (VALUES ('apple'), ('android')) p (platform)
            """, appID, links)
        try execute("ANALYZE app_links")
    }
}
