import BenchSupport
import Foundation
import Store
import Vocabulary
import Web

// Web latency benchmark: 10,000 domains, a year of hourly checks for 100 of them (stored as the
// pipeline stores them: few changed checks, a week of repeats, daily roll-ups before), then the overview
// and a domain page (with a year of history) rendered many times through the app's own responder.
// Prints p50/p95 per page, and the CPU each request cost this process and the PostgreSQL backends
// serving it (/proc, so PostgreSQL on this machine), with the statements per request where the
// database has pg_stat_statements: figures a loaded machine does not skew as it skews latency.
// DATABASE_URL must point at an empty, migrated database (see Benchmarks/README).
//
//   DATABASE_URL=postgresql:///aasa_bench?host=/tmp/pg swift run -c release WebBench [--seed-only|--no-seed] [--only TEXT] [--runs N]
let args = CommandLine.arguments
guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"] else {
    FileHandle.standardError.write(Data("set DATABASE_URL to a migrated, empty database\n".utf8))
    exit(64)
}
let db = Database(configuration: ConnectionConfiguration(url: url), poolSize: 4)
let good = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/product/*"},{"/":"/help/*","exclude":true}]}]},"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#.utf8)
let older = Array(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/product/*"}]}]}}"#.utf8)
let findings = [Finding(code: "content-type-not-json", severity: .warning, location: SourceLocation(pointer: ""),
                         message: "Served as text/plain; serve it as application/json.")]
let transport = CheckTransport(
    wellKnown: TransportFacts(location: .wellKnown, url: "https://site.example/.well-known/apple-app-site-association", status: 200,
                              headers: ["content-type": "application/json"], decodedSize: 180,
                              tls: TLSFacts(trusted: true, issuer: "Bench CA", notAfter: Date(timeIntervalSince1970: 1_803_859_200))),
    cdn: TransportFacts(location: .cdn, url: "https://app-site-association.cdn-apple.com/a/v1/site.example", status: 200, decodedSize: 180),
    deviceLocation: .wellKnown)

if !args.contains("--no-seed") {
    let started = Date()
    try db.seedBenchmarkData(domains: 10_000, withHistory: 100, days: 365, intervalMinutes: 60, body: good, otherBody: older,
                             findings: findings, transport: transport)
    let checks: Int = try db.value("SELECT count(*) FROM checks")
    let repeats: Int = try db.value("SELECT (SELECT count(*) FROM check_repeats) + (SELECT coalesce(sum(cardinality(checked_at)), 0) FROM check_repeat_days)")
    let rollups: Int = try db.value("SELECT count(*) FROM check_rollups")
    let represented: Int = try db.value("SELECT coalesce(sum(check_count), 0) FROM check_rollups")
    print("seeded 10000 domains: \(checks) changed checks, \(repeats) repeats, \(rollups) roll-ups of \(represented) checks"
          + " in \(Int(Date().timeIntervalSince(started))) s")
    // 50 domains checked every minute for the retention week: 10,080 repeats each, the most history an
    // overview row can have. The search shows exactly them on one page. Seeded here, before
    // `--seed-only` stops, so a later `--no-seed` run finds them.
    try db.seedBusyDomains(count: 50, days: 7)
}
if args.contains("--seed-only") { exit(0) }

let app = WebApp(database: db, configuration: WebConfiguration(passwordHasher: PasswordHasher(opsLimit: 1, memLimit: 8192)))
// A signed-in browser: setup, then reuse its session cookie.
func send(_ method: String, _ target: String, cookie: String = "", body: String = "") -> WebResponse {
    // A streamed body (the exports) is read to its end: the time to the last byte.
    let r = app.respond(WebRequest(method: method, target: target, headers: cookie.isEmpty ? [] : [("Cookie", cookie)], body: Array(body.utf8)))
    return (try? r.collected()) ?? WebResponse(status: 599)
}
let visitor = send("GET", "/setup")
let visitorCookie = visitor.headers.first { $0.name == "Set-Cookie" }?.value.split(separator: ";").first.map(String.init) ?? ""
let csrf = visitor.bodyText.range(of: "name=\"csrf\" value=\"").map { String(visitor.bodyText[$0.upperBound...].prefix(64)) } ?? ""
let done = send("POST", "/setup", cookie: visitorCookie,
                body: "setup_code=\(app.setupCode.value)&email=bench%40example.com&password=benchmark+password&confirm=benchmark+password&csrf=\(csrf)")
var signedIn = done.headers.first { $0.name == "Set-Cookie" }?.value.split(separator: ";").first.map(String.init) ?? ""
if signedIn.isEmpty {
    // Already set up by an earlier run: log in instead.
    let login = send("GET", "/login")
    let c = login.headers.first { $0.name == "Set-Cookie" }?.value.split(separator: ";").first.map(String.init) ?? visitorCookie
    let t = login.bodyText.range(of: "name=\"csrf\" value=\"").map { String(login.bodyText[$0.upperBound...].prefix(64)) } ?? ""
    let r = send("POST", "/login", cookie: c, body: "email=bench%40example.com&password=benchmark+password&csrf=\(t)")
    signedIn = r.headers.first { $0.name == "Set-Cookie" }?.value.split(separator: ";").first.map(String.init) ?? ""
}
let session = signedIn
let historyID: Int64 = try db.value("SELECT min(id) FROM domains")

// `--only TEXT`: measure only the pages whose name contains TEXT (an A/B of one page without the
// exports' minutes), e.g. `--no-seed --only "a year"`.
let only = args.firstIndex(of: "--only").flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
// `--runs N`: requests per page (default 200; the exports 20), e.g. fewer under callgrind.
let runsArgument = args.firstIndex(of: "--runs").flatMap { $0 + 1 < args.count ? Int(args[$0 + 1]) : nil }

/// This process's user + system CPU, in milliseconds.
func processCPU() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
}

/// User + system CPU of these PostgreSQL backends (/proc/PID/stat), in milliseconds; nil when any
/// cannot be read (PostgreSQL on another machine).
func backendCPU(_ pids: [Int64]) -> Double? {
    guard !pids.isEmpty else { return nil }
    var ticks = 0
    for pid in pids {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.range(of: ")", options: .backwards) else { return nil }
        // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = stat[end.upperBound...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        ticks += user + system
    }
    return Double(ticks) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// Statements this database has run (pg_stat_statements' calls), nil without the extension.
func statementCount() -> Int64? {
    try? db.value("""
        SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        """)
}

/// `body`: a form POSTed (the URL tester), else a GET.
@MainActor func measure(_ name: String, _ target: String, runs defaultRuns: Int = 200, body: String? = nil) {
    if let only, !name.contains(only) { return }
    let runs = runsArgument.map { min($0, defaultRuns) } ?? defaultRuns
    var times: [Double] = []
    var status = 0, size = 0
    var cpu0 = 0.0, backends: [Int64] = [], backend0: Double?, statements0: Int64?
    for i in 0..<(runs + 10) {
        if i == 10 {
            // The first few warm caches and connections; then the pool's backends are open.
            backends = (try? db.rows("SELECT pid::bigint FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
                .map { try $0.decode(0, as: Int64.self) }) ?? []
            statements0 = statementCount()
            backend0 = backendCPU(backends)
            cpu0 = processCPU()
        }
        let t0 = DispatchTime.now().uptimeNanoseconds
        let r = send(body == nil ? "GET" : "POST", target, cookie: session, body: body ?? "")
        let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        if i >= 10 { times.append(ms) }
        status = r.status
        size = r.body.count
    }
    let cpu = (processCPU() - cpu0) / Double(runs)
    let backend1 = backendCPU(backends), statements1 = statementCount()
    var backend: Double?, statements: Double?
    if let backend0, let backend1 { backend = (backend1 - backend0) / Double(runs) }
    // The first count is itself counted in the second.
    if let statements0, let statements1 { statements = Double(statements1 - statements0 - 1) / Double(runs) }
    times.sort()
    let p50 = times[times.count / 2], p95 = times[Int(Double(times.count) * 0.95)]
    print(String(format: "%-40@ status %d  %7d bytes  p50 %6.1f ms  p95 %6.1f ms  (goal p95 <= 50 ms)", name as NSString, status, size, p50, p95)
          + String(format: "  CPU/request %.2f ms", cpu) + (backend.map { String(format: " + PostgreSQL %.2f ms", $0) } ?? "")
          + (statements.map { String(format: ", %.1f statements", $0) } ?? ""))
}
measure("overview (worst first, page 1)", "/")
measure("overview search 'site12'", "/?q=site12")
measure("overview page 100 by host", "/?sort=host&page=100")
measure("domain page (a year of history)", "/domains/\(historyID)")
// The URL tester on that domain's stored file: the form's POST, with the token of its page.
let testerPage = send("GET", "/tester", cookie: session).bodyText
let testerToken = testerPage.range(of: "name=\"csrf\" value=\"").map { String(testerPage[$0.upperBound...].prefix(64)) } ?? ""
let historyHost: String = try db.value("SELECT host FROM domains WHERE id = $1", historyID)
measure("URL tester (the file with a year of history)", "/tester",
        body: "domain=\(historyID)&url=https://\(historyHost)/product/1&aasa=&csrf=\(testerToken)")
measure("overview of 50 domains checked every minute", "/?q=busy")
if let busyID = try db.value("SELECT min(id) FROM domains WHERE host LIKE 'busy%'", as: Int64?.self) {
    measure("domain page (checked every minute, a week)", "/domains/\(busyID)")
} else {
    print("no domain checked every minute: seeded by a WebBench from before they were seeded with the rest")
}
measure("/metrics (a Prometheus scrape)", "/metrics")
measure("export CSV (every domain)", "/export/domains.csv", runs: 20)
measure("export JSON (every domain)", "/export/domains.json", runs: 20)
// As `serve` runs it: the change feed listens, so the overview and session lookups are cached
// (the rows above are the uncached path, what a request pays after a change).
app.startChangeFeed()
let liveBy = Date().addingTimeInterval(10)
while !app.changes.isLive && Date() < liveBy { Thread.sleep(forTimeInterval: 0.01) }
measure("overview page 1, cached (feed live)", "/")
measure("overview page 100 by host, cached", "/?sort=host&page=100")
app.stopChangeFeed()
db.close()
