import BenchSupport
import Foundation
import Store
import Vocabulary

// The 1M-domain benchmark's database side (issue #17); Benchmarks/scale-bench.sh drives it beside a
// real `serve`. DATABASE_URL must point at a migrated database.
//
//   ScaleBench seed N [--history-domains K] [--history-days D] [--recent-checks R] [--app-links L]
//       N domains watched for both platforms (a tenth Apple only, a tenth Android only), each with
//       its latest changed check (both platforms' results) and R hourly unchanged repeats (default
//       24); the first K (default 1,000) with D days (default 30) of hourly history, rolled up by the
//       retention job's own statement past its 7 days and the days before today packed a row per
//       domain and day (0056); one app linked to L domains (default 1,000).
//   ScaleBench sizes [--history-domains K]
//       The database's size, each table's (with indexes and TOAST), bytes per unchanged and changed
//       check, and the projection per domain-month from the K domains with a month of history.
let args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, _ fallback: Int) -> Int {
    guard let i = args.firstIndex(of: name), i + 1 < args.count, let v = Int(args[i + 1]) else { return fallback }
    return v
}
guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], let mode = args.first else {
    FileHandle.standardError.write(Data("usage: DATABASE_URL=… ScaleBench seed N | sizes\n".utf8))
    exit(64)
}
let db = Database(configuration: ConnectionConfiguration(url: url), poolSize: 2)
defer { db.close() }
let historyDomains = option("--history-domains", 1_000)

func elapsed(_ start: ContinuousClock.Instant) -> String {
    let d = ContinuousClock.now - start
    return String(format: "%.1f s", Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
}

switch mode {
case "seed":
    guard args.count > 1, let n = Int(args[1]), n > 0 else { print("seed needs a domain count"); exit(64) }
    let historyDays = option("--history-days", 30), recent = option("--recent-checks", 24), appLinks = option("--app-links", 1_000)
    let good = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/product/*"},{"/":"/help/*","exclude":true}]}]},"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#.utf8)
    let older = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/product/*"}]}]}}"#.utf8)
    let key = Array(repeating: "AB", count: 32).joined(separator: ":")
    let assetlinks = Array(#"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.bench","sha256_cert_fingerprints":["\#(key)"]}}]"#.utf8)
    let findings = [Finding(code: "content-type-not-json", severity: .warning, location: SourceLocation(pointer: ""),
                            message: "Served as text/plain; serve it as application/json.")]
    let transport = CheckTransport(
        wellKnown: TransportFacts(location: .wellKnown, url: "https://site.example/.well-known/apple-app-site-association", status: 200,
                                  headers: ["content-type": "application/json"], decodedSize: 180,
                                  tls: TLSFacts(trusted: true, issuer: "Bench CA", notAfter: Date(timeIntervalSince1970: 1_803_859_200))),
        cdn: TransportFacts(location: .cdn, url: "https://app-site-association.cdn-apple.com/a/v1/site.example", status: 200, decodedSize: 180),
        deviceLocation: .wellKnown)
    let android = AndroidFile(body: assetlinks, result: AndroidResult(
        verdict: .pass, serves: true, versionSHA256: SHA256.hex(assetlinks),
        identities: [AndroidIdentityResult(packageName: "com.example.bench", expectedFingerprints: [key], named: true,
                                           grantedFingerprints: [key])]))
    let start = ContinuousClock.now
    try db.seedBenchmarkData(domains: n, withHistory: min(historyDomains, n), days: historyDays, intervalMinutes: 60,
                             recentChecks: recent, body: good, otherBody: older, findings: findings, transport: transport,
                             android: android)
    try db.seedBenchmarkApp(name: "Bench App", links: min(appLinks, n))
    let checks: Int = try db.value("SELECT count(*) FROM checks")
    let repeats: Int = try db.value("SELECT (SELECT count(*) FROM check_repeats) + (SELECT coalesce(sum(cardinality(checked_at)), 0) FROM check_repeat_days)")
    let packedDays: Int = try db.value("SELECT count(*) FROM check_repeat_days")
    let rollups: Int = try db.value("SELECT count(*) FROM check_rollups")
    print("seeded \(n) domains (\(min(historyDomains, n)) with \(historyDays) days of hourly history, the rest \(recent) hourly repeats): "
          + "\(checks) changed checks, \(repeats) repeats (\(packedDays) packed days), \(rollups) roll-ups, app links \(min(appLinks, n) * 2) in \(elapsed(start))")
case "sizes":
    try printSizes(db, historyDomains: historyDomains)
default:
    print("unknown mode \(mode)")
    exit(64)
}

/// Sizes from PostgreSQL's own accounting (pg_total_relation_size: heap, indexes, TOAST). A row's
/// share of its table is the table's total over its rows, so the per-check figures include index
/// and page overhead, as the disk sees them.
func printSizes(_ db: Database, historyDomains: Int) throws {
    try db.execute("ANALYZE")
    let total: Int = try db.value("SELECT pg_database_size(current_database())")
    let domains: Int = try db.value("SELECT count(*) FROM domains")
    print(String(format: "database: %.1f MB for %d domains (%.0f bytes per domain)", Double(total) / 1e6, domains,
                 Double(total) / Double(max(domains, 1))))
    var perRow: [String: Double] = [:]
    for r in try db.rows("""
        SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes, pg_relation_size(c.oid) AS heap,
               greatest(c.reltuples, 0)::bigint AS rows
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'r' AND n.nspname = 'public' ORDER BY 2 DESC LIMIT 20
        """) {
        let name: String = try r.decode("name"), bytes: Int = try r.decode("bytes"), heap: Int = try r.decode("heap")
        let rows: Int = try r.decode("rows")   // ANALYZE's estimate: counting 25M rows would take a minute
        perRow[name] = Double(bytes) / Double(max(rows, 1))
        print("  " + name.padding(toLength: 22, withPad: " ", startingAt: 0) + String(format: " %9.1f MB (heap %8.1f MB) %11d rows %7.0f B/row", Double(bytes) / 1e6,
                     Double(heap) / 1e6, rows, perRow[name] ?? 0))
    }
    print(String(format: "per unchanged check (a check_repeats row): %.0f bytes; per packed day of repeats (a check_repeat_days row): %.0f bytes; per changed check (a checks row): %.0f bytes",
                 perRow["check_repeats"] ?? 0, perRow["check_repeat_days"] ?? 0, perRow["checks"] ?? 0))
    // The sample: the first K domains, seeded with a month of hourly history and rolled up by the
    // retention job. Their rows per table, times each table's bytes per row.
    let sample: [(String, SQL)] = [
        ("checks", "SELECT count(*) FROM checks WHERE domain_id IN (SELECT id FROM domains ORDER BY id LIMIT $1)"),
        ("check_repeats", "SELECT count(*) FROM check_repeats WHERE domain_id IN (SELECT id FROM domains ORDER BY id LIMIT $1)"),
        ("check_repeat_days", "SELECT count(*) FROM check_repeat_days WHERE domain_id IN (SELECT id FROM domains ORDER BY id LIMIT $1)"),
        ("check_rollups", "SELECT count(*) FROM check_rollups WHERE domain_id IN (SELECT id FROM domains ORDER BY id LIMIT $1)"),
    ]
    var perDomainMonth = (perRow["domains"] ?? 0) + (perRow["domain_stats"] ?? 0)
    var line = "sample of \(historyDomains) domains with a month of hourly checks, per domain:"
    for (table, count) in sample {
        let n: Int = try db.value(count, historyDomains)
        let each = Double(n) / Double(max(historyDomains, 1))
        perDomainMonth += each * (perRow[table] ?? 0)
        line += String(format: " %@ %.1f rows", table, each)
    }
    print(line)
    print(String(format: "projection: %.0f bytes per domain-month (30 days hourly, retention roll-ups) -> %.1f GB for 1,000,000 domains",
                 perDomainMonth, perDomainMonth * 1e6 / 1e9))
}
