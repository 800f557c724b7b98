import BenchSupport
import Foundation
import Store
import Vocabulary
import Web

// Web latency benchmark: 10,000 domains, a year of hourly checks for 100 of them (stored as the
// pipeline stores them: few changed checks, a week of repeats, daily roll-ups before), then the overview
// and a domain page (with a year of history) rendered many times through the app's own responder.
// Prints p50/p95 per page. DATABASE_URL must point at an empty, migrated database (see Benchmarks/README).
//
//   DATABASE_URL=postgresql:///aasa_bench?host=/tmp/pg swift run -c release WebBench [--seed-only|--no-seed] [--only TEXT]
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
@MainActor func measure(_ name: String, _ target: String, runs: Int = 200) {
    if let only, !name.contains(only) { return }
    var times: [Double] = []
    var status = 0, size = 0
    for i in 0..<(runs + 10) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let r = send("GET", target, cookie: session)
        let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        if i >= 10 { times.append(ms) }   // the first few warm caches and connections
        status = r.status
        size = r.body.count
    }
    times.sort()
    let p50 = times[times.count / 2], p95 = times[Int(Double(times.count) * 0.95)]
    print(String(format: "%-40@ status %d  %7d bytes  p50 %6.1f ms  p95 %6.1f ms  (goal p95 <= 50 ms)", name as NSString, status, size, p50, p95))
}
measure("overview (worst first, page 1)", "/")
measure("overview search 'site12'", "/?q=site12")
measure("overview page 100 by host", "/?sort=host&page=100")
measure("domain page (a year of history)", "/domains/\(historyID)")
// 50 domains checked every minute for the retention week: 10,080 repeats each, the most history an
// overview row can have. The search shows exactly them on one page.
if !args.contains("--no-seed") {
    try db.seedBusyDomains(count: 50, days: 7)
}
measure("overview of 50 domains checked every minute", "/?q=busy")
let busyID: Int64 = try db.value("SELECT min(id) FROM domains WHERE host LIKE 'busy%'")
measure("domain page (checked every minute, a week)", "/domains/\(busyID)")
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
