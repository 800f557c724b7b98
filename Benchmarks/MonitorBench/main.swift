// Monitor benchmark (issue 5), against the TLS fleet and a real PostgreSQL (TestPostgres):
//  1. checks/s through the whole pipeline (claim → fetch → validate → compare → one transaction)
//     for N domains, against the fetcher alone on the same hosts and fetch settings (goal ≥ 0.8×);
//  2. bytes of database growth per unchanged check (goal ≤ 100) and per changed check;
//  3. the claim statement's time with 100,000 domains registered (EXPLAIN ANALYZE, goal ≤ 5 ms);
//  4. the same pipeline with both files per domain (the AASA and assetlinks.json on the fleet, issue
//     #13), beside the AASA-only run as a ratio, and against the bare fetcher asking both.
// Build in release: swift build -c release --product MonitorBench
//
//   MonitorBench [--domains 10000] [--parallel 128] [--unchanged-rounds 3] [--claim-domains 100000] [--skip-claim]
//                [--apple-only]   (domains watched for Apple only, as before Android (#13): the AASA
//                                  part alone, then its CPU per check; no both-files nor claim part)
//   MonitorBench --economy 2000 [--parallel 128]     (requests per check and checks/s, both platforms)
//   MonitorBench --handshakes 2000 [--parallel 64] [--unchanged-rounds 3]   (full handshakes, resumptions, 304s per check)
//   MonitorBench --workers 1,2,4 --domains 2000      (worker processes against one PostgreSQL: checks/s per count)
//   MonitorBench --round 10000[,100000] [--workers 1,2,4] [--pace 278,0.8] [--baseline-hosts 10000]
//                [--max-in-flight 128] [--pool-size 4] [--poll-seconds S] [--max-per-address N] [--rss-curve] [--first-round-only]
//                [--statements] [--seed-first-round K] [--pace-domains M] [--paced-only] [--keep-data DIR]
//       (serve + worker processes on serve's embedded PostgreSQL: sustained checks/s, scheduler lag, RSS,
//        dead tuples; SustainedRound.swift; Benchmarks/scale-bench.sh --round runs it. --seed-first-round:
//        the first round on K domains, its state copied to the rest, SeedFirstRound.swift; --paced-only:
//        no backlog round, straight to the paced rounds, whose paces must then be checks/s)
import Fetch
import Foundation
import Monitor
import Outbound
import Store
import TestSupport
import Vocabulary

struct Options {
    var domains = 10_000
    var parallel = 128
    var unchangedRounds = 3
    var claimDomains = 100_000
    var skipClaim = false
    /// `--apple-only`: the domains are registered watched for Apple only (platforms = apple), so a check
    /// asks for the AASA alone, as every check did before Android (#13); the both-files and claim parts are skipped.
    var appleOnly = false
    /// `--economy N`: only the request-economy comparison (RequestEconomy.swift) with N domains.
    var economy: Int?
    /// `--handshakes N`: only the handshake economy (Handshakes.swift) with N domains.
    var handshakes: Int?
    /// `--workers 1,2,4`: only the worker-process scaling run (Workers.swift).
    var workers: [Int] = []
    /// `--round N[,N…]`: only the sustained rounds of the real processes (SustainedRound.swift).
    var round: RoundOptions?

    init(_ arguments: [String]) {
        var i = 1
        func list(_ i: Int) -> [Substring] { (i + 1 < arguments.count ? arguments[i + 1] : "").split(separator: ",") }
        while i < arguments.count {
            let value = i + 1 < arguments.count ? Int(arguments[i + 1]) : nil
            switch arguments[i] {
            case "--domains": domains = value ?? domains; i += 1
            case "--parallel": parallel = value ?? parallel; i += 1
            case "--unchanged-rounds": unchangedRounds = value ?? unchangedRounds; i += 1
            case "--claim-domains": claimDomains = value ?? claimDomains; i += 1
            case "--skip-claim": skipClaim = true
            case "--apple-only": appleOnly = true
            case "--economy": economy = value; i += 1
            case "--handshakes": handshakes = value; i += 1
            case "--workers":
                workers = list(i).compactMap { Int($0) }
                i += 1
            case "--round": round = round ?? RoundOptions(); round?.domains = list(i).compactMap { Int($0) }; i += 1
            case "--pace": round = round ?? RoundOptions(); round?.paces = list(i).compactMap { Double($0) }; i += 1
            case "--baseline-hosts": round = round ?? RoundOptions(); round?.baselineHosts = value ?? 10_000; i += 1
            case "--max-in-flight": round = round ?? RoundOptions(); round?.maxInFlight = value ?? 128; i += 1
            case "--pool-size": round = round ?? RoundOptions(); round?.poolSize = value ?? 4; i += 1
            case "--poll-seconds": round = round ?? RoundOptions(); round?.pollSeconds = list(i).first.flatMap { Double($0) }; i += 1
            case "--max-per-address": round = round ?? RoundOptions(); round?.maxPerAddress = list(i).first.flatMap { Int($0) }; i += 1
            case "--statements": round = round ?? RoundOptions(); round?.statements = true
            case "--rss-curve": round = round ?? RoundOptions(); round?.rssCurve = true
            case "--first-round-only": round = round ?? RoundOptions(); round?.firstRoundOnly = true
            case "--paced-only": round = round ?? RoundOptions(); round?.pacedOnly = true
            case "--seed-first-round": round = round ?? RoundOptions(); round?.seedFirstRound = value; i += 1
            case "--pace-domains": round = round ?? RoundOptions(); round?.paceDomains = value; i += 1
            case "--keep-data": round = round ?? RoundOptions(); round?.keepData = i + 1 < arguments.count ? arguments[i + 1] : nil; i += 1
            default: break
            }
            i += 1
        }
    }
}

func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

func fetchConfiguration(_ fleet: TestTLSFleet, parallel: Int) throws -> FetchConfiguration {
    var configuration = FetchConfiguration(
        policy: OutboundPolicy(allowPrivateAddresses: true), cdnBase: fleet.cdnBase, checkCDN: false,
        rootLocation: .whenWellKnownFails, compareUserAgents: false, extraCAFile: fleet.caFile,
        connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
        maxConnections: parallel, maxConnectionsPerAddress: parallel)
    configuration.totalTimeout = .seconds(60)
    configuration.connectTimeout = .seconds(30)
    return configuration
}

/// Runs the scheduler until `expected` checks have finished. Every domain's next check is due the
/// moment its last one finished (the test-only interval override of zero), so the scheduler goes
/// round and round the domains in due order, and no extra UPDATE makes them due between rounds:
/// the database sees what production sees, only faster.
func pipelineRound(_ database: Database, fleet: TestTLSFleet, parallel: Int, expected: Int) async throws -> Double {
    let fetcher = try Fetcher(try fetchConfiguration(fleet, parallel: parallel))
    defer { fetcher.shutdown() }
    let scheduler = DomainScheduler(
        pipeline: CheckPipeline(database: database, fetcher: fetcher, schedule: SchedulePolicy(testIntervalOverride: .zero)),
        configuration: DomainScheduler.Configuration(workerID: "bench", maxInFlight: parallel * 2, batchSize: 128,
                                                     lease: .seconds(600), pollInterval: .milliseconds(50)))
    let done = Tally()
    let stop = StopSignal()
    let start = ContinuousClock.now
    await scheduler.run(until: stop) { _, _ in
        done.add()
        if done.value >= expected { stop.stop() }
    }
    return Double(expected) / seconds(since: start)
}

func fetcherAlone(_ hosts: [HostName], fleet: TestTLSFleet, parallel: Int) async throws -> Double {
    let fetcher = try Fetcher(try fetchConfiguration(fleet, parallel: parallel))
    defer { fetcher.shutdown() }
    let start = ContinuousClock.now
    await fetcher.check(hosts, maxInFlight: parallel * 2) { _ in }
    return Double(hosts.count) / seconds(since: start)
}

/// The bare fetcher asking both platforms of each host (`checkPlatforms`: one resolution, the AASA and
/// assetlinks.json), at most `parallel * 2` hosts at a time, as the scheduler runs them.
func fetcherAloneBothPlatforms(_ hosts: [HostName], fleet: TestTLSFleet, parallel: Int) async throws -> Double {
    let fetcher = try Fetcher(try fetchConfiguration(fleet, parallel: parallel))
    defer { fetcher.shutdown() }
    let start = ContinuousClock.now
    await withTaskGroup(of: Void.self) { group in
        var next = 0
        func add() {
            guard next < hosts.count else { return }
            let host = hosts[next]
            next += 1
            group.addTask { _ = await fetcher.checkPlatforms(host) }
        }
        for _ in 0..<min(parallel * 2, hosts.count) { add() }
        while await group.next() != nil { add() }
    }
    return Double(hosts.count) / seconds(since: start)
}

/// Every fleet host without a file of its own serves this assetlinks.json (nil: none, a 404).
func serveAssetLinks(_ fleet: TestTLSFleet, _ body: [UInt8]?) throws {
    let url = fleet.directory.appendingPathComponent("www/_default/.well-known/assetlinks.json")
    guard let body else {
        try? FileManager.default.removeItem(at: url)
        return
    }
    try Data(body).write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
}

/// The bench process's own CPU time so far, ms: every thread (fetcher, pipeline, libpq), not PostgreSQL's nor nginx's.
func processCPUMilliseconds() -> Double {
    var used = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used)
    return Double(used.tv_sec) * 1000 + Double(used.tv_nsec) / 1e6
}

func databaseBytes(_ database: Database) throws -> Int {
    try database.value("SELECT sum(pg_total_relation_size(c.oid))::bigint FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'")
}

/// Heap and index bytes per table, to see where growth goes.
func relationBytes(_ database: Database) throws -> [String: (heap: Int, indexes: Int)] {
    var sizes: [String: (heap: Int, indexes: Int)] = [:]
    for row in try database.rows("""
        SELECT c.relname::text, pg_table_size(c.oid)::bigint, pg_indexes_size(c.oid)::bigint
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'
        """) {
        sizes[try row.decode(0)] = (try row.decode(1), try row.decode(2))
    }
    return sizes
}

let options = Options(CommandLine.arguments)
let fleet = try TestTLSFleet(workerProcesses: 2)
defer { fleet.stop() }
if let domains = options.economy {
    try await requestEconomy(domains: domains, parallel: options.parallel, fleet: fleet)
    fleet.stop()
    exit(0)
}
if let domains = options.handshakes {
    try await handshakeEconomy(domains: domains, parallel: options.parallel, rounds: options.unchangedRounds, fleet: fleet)
    fleet.stop()
    exit(0)
}
if var round = options.round, !round.domains.isEmpty {
    if !options.workers.isEmpty { round.workers = options.workers }
    try await sustainedRounds(round, fleet: fleet)
    fleet.stop()
    exit(0)
}
if !options.workers.isEmpty {
    try workerScaling(domains: options.domains, counts: options.workers, fleet: fleet)
    fleet.stop()
    exit(0)
}
print("monitor-bench: \(options.domains) domains on the TLS fleet, parallelism \(options.parallel)"
      + (options.appleOnly ? ", watched for Apple only" : ""))

/// One pipeline run's figures: the first round (every check a change), the unchanged rounds, growth.
struct PipelineFigures {
    var alone = 0.0, first = 0.0, best = 0.0
    /// The bench process's CPU per check over the unchanged rounds after the warm-up, ms.
    var cpuPerUnchanged = 0.0
    var unchangedRates: [Double] = []
    var bytesPerChanged = 0, bytesPerUnchangedFromFirst = 0, steadyBefore = 0, steadyAfter = 0
}

/// Registers the domains in a fresh database and runs the pipeline rounds. `bothFiles`: the fleet
/// serves assetlinks.json too, so every check fetches and stores Android's file beside the AASA.
/// `platforms`: what the domains are watched for (`.apple`: the pipeline asks for the AASA alone).
func measurePipeline(_ hosts: [HostName], bothFiles: Bool, details: Bool, platforms: WatchedPlatforms = .both) async throws -> PipelineFigures {
    var figures = PipelineFigures()
    try await TestPostgres.withDatabase(poolSize: 16) { database in
    for host in hosts {
        _ = try database.importDomain(host: host.ascii, displayName: host.unicode, wildcard: false, appIDs: [], platforms: platforms)
    }
    let aloneBefore = bothFiles ? try await fetcherAloneBothPlatforms(hosts, fleet: fleet, parallel: options.parallel)
        : try await fetcherAlone(hosts, fleet: fleet, parallel: options.parallel)
    func repeatCount() throws -> Int { try database.value("SELECT count(*)::int FROM check_repeats") }
    let before = try databaseBytes(database)
    let first = try await pipelineRound(database, fleet: fleet, parallel: options.parallel, expected: options.domains)
    try database.execute("VACUUM")
    let afterChanged = try databaseBytes(database)
    let relationsAfterChanged = try relationBytes(database)
    // One unchanged round, rolled up at once: the domain rows' versions and the day's roll-up rows
    // exist from here on, as they do in a running installation (the steady state).
    let repeatsBeforeWarm = try repeatCount()
    let warm = try await pipelineRound(database, fleet: fleet, parallel: options.parallel, expected: options.domains)
    let warmRepeats = try repeatCount() - repeatsBeforeWarm
    try database.rollUpRepeats(olderThan: .zero)
    try database.execute("VACUUM")
    let afterWarm = try databaseBytes(database)
    var unchangedRates: [Double] = [warm]
    let cpuBefore = processCPUMilliseconds()
    for _ in 0..<options.unchangedRounds {
        unchangedRates.append(try await pipelineRound(database, fleet: fleet, parallel: options.parallel, expected: options.domains))
    }
    let cpuPerUnchanged = (processCPUMilliseconds() - cpuBefore) / Double(max(options.unchangedRounds * options.domains, 1))
    try database.execute("VACUUM")
    let afterUnchanged = try databaseBytes(database)
    let repeats = try repeatCount()
    try database.rollUpRepeats(olderThan: .zero)
    try database.execute("VACUUM")
    let afterRollup = try databaseBytes(database)
    let relationsAfterRollup = try relationBytes(database)
    let rollupRows: Int = try database.value("SELECT count(*)::int FROM check_rollups")
    let rollupBytes: Int = try database.value("SELECT pg_total_relation_size('check_rollups')::bigint")
    let aloneAfter = bothFiles ? try await fetcherAloneBothPlatforms(hosts, fleet: fleet, parallel: options.parallel)
        : try await fetcherAlone(hosts, fleet: fleet, parallel: options.parallel)
    let alone = (aloneBefore + aloneAfter) / 2
    let unchangedChecks = warmRepeats + repeats
    let best = unchangedRates.max() ?? 0
    let ratio = { (rate: Double) in String(format: "%.2f", rate / alone) + "×" }
    if bothFiles {
        let android: Int = try database.value("SELECT count(*)::int FROM checks WHERE android_version_id IS NOT NULL")
        print("(both files: \(android) checks stored an assetlinks.json version)")
    }
    figures = PipelineFigures(alone: alone, first: first, best: best, unchangedRates: unchangedRates,
                              bytesPerChanged: (afterChanged - before) / max(options.domains, 1),
                              bytesPerUnchangedFromFirst: (afterRollup - afterChanged) / max(unchangedChecks, 1),
                              steadyBefore: (afterUnchanged - afterWarm) / max(repeats, 1),
                              steadyAfter: (afterRollup - afterWarm) / max(repeats, 1))
    figures.cpuPerUnchanged = cpuPerUnchanged
    guard details else { return }

    print("| measure | value |")
    print("|---|---:|")
    print("| fetcher alone, checks/s (before / after the pipeline runs) | \(Int(aloneBefore)) / \(Int(aloneAfter)) |")
    print("| pipeline, first round (every check a change), checks/s | \(Int(first)) (\(ratio(first))) |")
    print("| pipeline, unchanged rounds (best of \(unchangedRates.count)), checks/s | \(Int(best)) (\(ratio(best))); all: \(unchangedRates.map { ratio($0) }.joined(separator: " ")) |")
    print("| bench process CPU per unchanged check (rounds after the warm-up), ms | \(String(format: "%.3f", cpuPerUnchanged)) |")
    print("| DB bytes per changed (first) check | \((afterChanged - before) / max(options.domains, 1)) |")
    print("| DB bytes per unchanged check from the first: \(unchangedChecks) repeats, all rolled up | \((afterRollup - afterChanged) / max(unchangedChecks, 1)) |")
    print("| DB bytes per unchanged check in steady state, before roll-up (\(repeats) repeats) | \((afterUnchanged - afterWarm) / max(repeats, 1)) |")
    print("| DB bytes per unchanged check in steady state, after roll-up into the day's rows | \((afterRollup - afterWarm) / max(repeats, 1)) |")
    print("| roll-up rows (one per domain, day and repeated check), bytes each with index | \(rollupRows), \(rollupBytes / max(rollupRows, 1)) |")
    print("\nGrowth per unchanged check from the first, after roll-up, by table (heap + TOAST / indexes, bytes):")
    for (name, after) in relationsAfterRollup.sorted(by: { $0.key < $1.key }) {
        let before = relationsAfterChanged[name] ?? (0, 0)
        let heap = Double(after.heap - before.heap) / Double(max(unchangedChecks, 1))
        let indexes = Double(after.indexes - before.indexes) / Double(max(unchangedChecks, 1))
        if heap != 0 || indexes != 0 { print("    \(name): \(String(format: "%.1f", heap)) / \(String(format: "%.1f", indexes))") }
    }
    }
    return figures
}

let hosts = try (0..<options.domains).map { try HostName("m\($0).fleet.test") }
try serveAssetLinks(fleet, nil)
let appleOnly = try await measurePipeline(hosts, bothFiles: false, details: true, platforms: options.appleOnly ? .apple : .both)
if options.appleOnly {
    // The bench process's own CPU (every thread: fetcher, pipeline, libpq), not PostgreSQL's nor nginx's,
    // over the run's checks: the fetcher alone twice, the first round, the warm-up and the unchanged rounds.
    var used = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used)
    let cpu = Double(used.tv_sec) * 1000 + Double(used.tv_nsec) / 1e6
    let checks = options.domains * (4 + options.unchangedRounds)
    print("| bench process CPU per check (\(checks) checks: fetcher alone ×2, pipeline rounds), ms | \(String(format: "%.2f", cpu / Double(max(checks, 1)))) |")
    fleet.stop()
    exit(0)
}
try serveAssetLinks(fleet, FleetAssetLinks.good)
let both = try await measurePipeline(hosts, bothFiles: true, details: false)
try serveAssetLinks(fleet, nil)

func times(_ a: Double, _ b: Double) -> String { String(format: "%.2f", a / max(b, 1e-9)) + "×" }
print("\nBoth files per domain (the AASA and assetlinks.json) beside the AASA only:")
print("| measure | AASA only | both files | both / AASA only |")
print("|---|---:|---:|---:|")
print("| bare fetcher, checks/s (mean of before and after) | \(Int(appleOnly.alone)) | \(Int(both.alone)) | \(times(both.alone, appleOnly.alone)) |")
print("| pipeline, first round (every check a change), checks/s | \(Int(appleOnly.first)) (\(times(appleOnly.first, appleOnly.alone)) of its fetcher) | \(Int(both.first)) (\(times(both.first, both.alone)) of its fetcher) | \(times(both.first, appleOnly.first)) |")
print("| pipeline, unchanged rounds (best), checks/s | \(Int(appleOnly.best)) (\(times(appleOnly.best, appleOnly.alone))) | \(Int(both.best)) (\(times(both.best, both.alone))) | \(times(both.best, appleOnly.best)) |")
print("| bench process CPU per unchanged check, ms | \(String(format: "%.3f", appleOnly.cpuPerUnchanged)) | \(String(format: "%.3f", both.cpuPerUnchanged)) | \(times(both.cpuPerUnchanged, appleOnly.cpuPerUnchanged)) |")
print("| DB bytes per changed (first) check | \(appleOnly.bytesPerChanged) | \(both.bytesPerChanged) | \(times(Double(both.bytesPerChanged), Double(appleOnly.bytesPerChanged))) |")
print("| DB bytes per unchanged check, steady state before / after roll-up | \(appleOnly.steadyBefore) / \(appleOnly.steadyAfter) | \(both.steadyBefore) / \(both.steadyAfter) | |")

if !options.skipClaim { try TestPostgres.withDatabase { database in
    try database.execute("""
        INSERT INTO domains (host, display_name, next_check_at)
        SELECT 'c' || g || '.example', 'c' || g || '.example', now() + (g % 3600) * interval '1 second'
        FROM generate_series(1, $1) g
        """, options.claimDomains)
    // A steady state: a few due, a few requested, most waiting.
    try database.execute("UPDATE domains SET next_check_at = now() - interval '1 second' WHERE id % 1000 = 0")
    try database.execute("UPDATE domains SET check_requested_at = now() WHERE id % 20000 = 7")
    try database.execute("VACUUM ANALYZE domains")
    var times: [Double] = []
    var plan: [String] = []
    for _ in 0..<20 {
        plan = try database.explainLeaseDue(limit: 64, lease: .seconds(300), worker: "bench")
        if let line = plan.last(where: { $0.hasPrefix("Execution Time") }),
           let value = Double(line.split(separator: " ")[2]) {
            times.append(value)
        }
    }
    times.sort()
    print("| claim statement with \(options.claimDomains) domains (64 due), median execution time ms | \(times.isEmpty ? "?" : String(format: "%.3f", times[times.count / 2])) |")
    print("\nEXPLAIN ANALYZE of the claim statement:")
    plan.forEach { print("    " + $0) }
} }
