// Sustained rounds (issue #17): the real product, not the pipeline in-process. A release `serve` starts
// its embedded PostgreSQL (full durability, as shipped) and W release `worker` processes join it; N
// domains are registered (both platforms' files on the fleet's default server, a CDN copy and Google's
// answer each, the wildcard certificate for every name through connect-to). Per worker count:
//   - backlog round: every domain due at once; checks/s is N over the time until every domain has had
//     the round's check (`domains.check_round`): what the processes sustain flat out;
//   - paced rounds: each domain due at its own time, spread over the round at R checks/s in the order
//     of a hash of its host (as SchedulePolicy's slots spread an interval); scheduler lag is
//     started − due per check, from check_repeats (started = finished − the check's fetch time) and
//     checks (started_at), against the due times the bench wrote (`bench_due`).
// Every second the bench reads each process's memory from /proc (serve, each worker, every postgres
// process: VmHWM is the kernel's own peak) and every two seconds pg_stat_user_tables' dead tuples.
// Once per N, on the same host names: curl --parallel and the bare fetcher (a settled check's own two
// fetches), and a full-handshake loop (`openssl s_time -new`) against the fleet: the physical limit.
import Fetch
import Foundation
import Glibc
import Store
import TestSupport
import Vocabulary

struct RoundOptions {
    var domains: [Int] = [10_000]
    var workers: [Int] = [1, 2, 4]
    /// Paced rounds: a value above 1 is checks/s; at most 1, a fraction of the backlog round's rate.
    var paces: [Double] = [278, 0.8]
    /// Host names for the curl and bare-fetcher baselines (their rate does not depend on N).
    var baselineHosts = 10_000
    var maxInFlight = 128
    var poolSize = 4
    var pollSeconds: Double?
    /// `--max-per-address N`: the workers' cap on requests towards one address (the product's default
    /// when absent). Every fleet host is one address, so with the default it bounds a round.
    var maxPerAddress: Int?
    /// Load pg_stat_statements and print, per round, the statements by execution time per check.
    var statements = false
    /// Print each worker's VmRSS against the domains checked so far, about every 2 % of a round: whether
    /// memory grows with the number of distinct domains (a first round checks each for the first time).
    var rssCurve = false
    /// Only the first round (every domain checked once, each for the first time): the RSS curve's run.
    var firstRoundOnly = false
    /// `--seed-first-round K`: the real first round on K domains only; every other domain gets a copy of
    /// the state a template's first check left (SeedFirstRound.swift), then the backlog round runs on all.
    var seedFirstRound: Int?
    /// `--pace-domains M`: a paced round covers only the first M domains (in the hash order of their
    /// hosts), the rest wait: scheduler lag on the N-domain database without pacing all N.
    var paceDomains: Int?
    /// `--keep-data DIR`: keep each N's data directory (DIR/round-N) instead of deleting it.
    var keepData: String?
    /// `--paced-only`: no backlog round; the paced rounds (paces in checks/s) follow the first (or seeded)
    /// round directly. At 1M a backlog round is an hour of its own, measured once already.
    var pacedOnly = false
}

/// A process's memory from /proc/PID/status, in kB: VmRSS (now), VmHWM (its peak), RssAnon (private).
struct ProcessMemory {
    var rss = 0, peak = 0, anonymous = 0

    init?(pid: Int32) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })   // "VmRSS:\t   1234 kB"
            guard parts.count >= 2, let kB = Int(parts[1]) else { continue }
            switch parts[0] {
            case "VmRSS:": rss = kB
            case "VmHWM:": peak = kB
            case "RssAnon:": anonymous = kB
            default: break
            }
        }
    }

    /// The postmaster and its children (backends, autovacuum, checkpointer …).
    static func postgresProcesses(dataDirectory: String) -> [Int32] {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postgresql/postmaster.pid", encoding: .utf8),
              let first = text.split(separator: "\n").first, let postmaster = Int32(first) else { return [] }
        var pids = [postmaster]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // "pid (comm) state ppid …": comm may hold spaces, so read after its closing parenthesis.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == postmaster { pids.append(pid) }
        }
        return pids
    }
}

/// CPU time from /proc/PID/stat in seconds: the process's own (every thread) plus its children's that
/// have exited (a postgres backend whose worker went). Zero for a process that is gone.
func cpuSeconds(_ pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return 0 }
    // After "pid (comm)": state is field 3, utime 14, stime 15, cutime 16, cstime 17.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 15 else { return 0 }
    let ticks = (11...14).compactMap { Double(fields[$0]) }.reduce(0, +)
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The direct children of `parent`.
func childProcesses(of parent: Int32) -> [Int32] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> Int32? in
        guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 && Int32(fields[1]) == parent ? pid : nil
    }
}

/// The nginx master of `fleet` (its command line names the fleet's directory).
func fleetNginx(_ fleet: TestTLSFleet) -> Int32? {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> Int32? in
        guard let pid = Int32(entry), (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("nginx") == true,
              let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")),
              String(decoding: command, as: UTF8.self).contains(fleet.directory.path) else { return nil }
        return pid
    }.first
}

/// Samples the processes' memory every second and the tables' dead tuples every two, on its own thread.
final class RoundSampler: @unchecked Sendable {
    struct Peaks {
        /// Per named process: the largest VmRSS seen and the last VmHWM read.
        var rss: [String: Int] = [:], hwm: [String: Int] = [:]
        /// Every postgres process together: the largest sum of private memory, and of VmRSS.
        var postgresAnonymous = 0, postgresRSS = 0, postgresLargestHWM = 0, postgresProcesses = 0
        var deadTuples: [String: Int] = [:], liveTuples: [String: Int] = [:]
        var autovacuums: [String: Int] = [:]
    }

    private let lock = NSLock()
    private var peaks = Peaks()
    private var processes: [String: Int32] = [:]
    private var running = true
    private let database: Database
    private let dataDirectory: String
    private var thread: Thread?

    init(database: Database, dataDirectory: String) {
        self.database = database
        self.dataDirectory = dataDirectory
    }

    func track(_ name: String, pid: Int32) { lock.withLock { processes[name] = pid } }
    func untrack(_ name: String) { _ = lock.withLock { processes.removeValue(forKey: name) } }

    /// Returns the peaks since the last reset and starts over.
    func reset() -> Peaks {
        sample(tables: true)
        return lock.withLock {
            let result = peaks
            peaks = Peaks()
            return result
        }
    }

    func start() {
        let thread = Thread { [self] in
            var tick = 0
            while lock.withLock({ running }) {
                sample(tables: tick % 2 == 0)
                tick += 1
                Thread.sleep(forTimeInterval: 1)
            }
        }
        self.thread = thread
        thread.start()
    }

    func stop() { lock.withLock { running = false } }

    private func sample(tables: Bool) {
        let named = lock.withLock { processes }
        var memory: [String: ProcessMemory] = [:]
        for (name, pid) in named { memory[name] = ProcessMemory(pid: pid) }
        let postgres = ProcessMemory.postgresProcesses(dataDirectory: dataDirectory).compactMap { ProcessMemory(pid: $0) }
        var stats: [(String, Int, Int, Int)] = []
        if tables {
            stats = (try? database.rows("""
                SELECT relname::text, n_dead_tup, n_live_tup, autovacuum_count FROM pg_stat_user_tables
                WHERE relname IN ('domains', 'domain_stats', 'check_repeats', 'checks', 'domain_counts')
                """).map { (try $0.decode(0, as: String.self), try $0.decode(1, as: Int.self), try $0.decode(2, as: Int.self),
                            try $0.decode(3, as: Int.self)) }) ?? []
        }
        lock.withLock {
            for (name, m) in memory {
                peaks.rss[name] = max(peaks.rss[name] ?? 0, m.rss)
                peaks.hwm[name] = max(peaks.hwm[name] ?? 0, m.peak)
            }
            peaks.postgresAnonymous = max(peaks.postgresAnonymous, postgres.map(\.anonymous).reduce(0, +))
            peaks.postgresRSS = max(peaks.postgresRSS, postgres.map(\.rss).reduce(0, +))
            peaks.postgresLargestHWM = max(peaks.postgresLargestHWM, postgres.map(\.peak).max() ?? 0)
            peaks.postgresProcesses = max(peaks.postgresProcesses, postgres.count)
            for (table, dead, live, vacuums) in stats {
                peaks.deadTuples[table] = max(peaks.deadTuples[table] ?? 0, dead)
                peaks.liveTuples[table] = max(peaks.liveTuples[table] ?? 0, live)
                peaks.autovacuums[table] = vacuums
            }
        }
    }
}

/// Scheduler lag of a paced round, in seconds, and how many checks it was measured over.
typealias SchedulerLag = (p50: Double, p99: Double, max: Double, checks: Int)

struct RoundRow {
    var workers = 0
    var kind = ""
    var rate = 0.0
    var target: Double?
    var lag: SchedulerLag?
    var peaks = RoundSampler.Peaks()
    var load = ""
    /// Committed transactions in the database per check (pg_stat_database, all processes): what the
    /// claims and writes cost in round trips that commit.
    var transactionsPerCheck = 0.0
    /// CPU milliseconds per check by process kind over the round (workers together, every postgres
    /// process, the fleet's nginx, serve, this bench: the fake Google API and the sampler).
    var cpuPerCheck: [(String, Double)] = []
}

/// A full-handshake loop against the fleet: `openssl s_time -new` (a new TLS 1.3 session per
/// connection, nothing resumed) for `seconds`, one client process. Returns handshakes per second of
/// wall time; client and nginx share this machine, so it is both ends' cost.
func handshakeLoop(fleet: TestTLSFleet, seconds: Int) -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = ["s_time", "-connect", "127.0.0.1:\(fleet.port)", "-new", "-time", "\(seconds)", "-CAfile", fleet.caFile,
                         "-verify", "1"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return 0 }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // "1234 connections in 11 real seconds, 0 bytes read per connection"
    for line in output.split(separator: "\n") where line.contains("real seconds") {
        let words = line.split(separator: " ")
        if let count = Double(words.first ?? ""), let index = words.firstIndex(of: "in"), index + 1 < words.count,
           let wall = Double(words[index + 1]), wall > 0 {
            return count / wall
        }
    }
    return 0
}

func sustainedRounds(_ options: RoundOptions, fleet: TestTLSFleet) async throws {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let binary = directory.appendingPathComponent("aasa-monitor")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        print("build it first: swift build -c release --product aasa-monitor (looked for \(binary.path))")
        return
    }
    let migrations = try TestPostgres.migrationsDirectory()
    print("monitor-bench --round: serve + worker processes (release) on serve's embedded PostgreSQL, the TLS fleet (nginx, 2 workers); "
          + "\(ProcessInfo.processInfo.activeProcessorCount) cores; load \(loadAverage())")
    let handshakes = handshakeLoop(fleet: fleet, seconds: 10)
    print(String(format: "full TLS handshakes (openssl s_time -new, one client, nginx on the same cores): %.0f/s", handshakes))
    var summary: [(Int, [RoundRow], baseline: (curl: Double, fetcher: Double))] = []
    for n in options.domains {
        let (rows, baseline) = try await roundsFor(n, options: options, fleet: fleet, binary: binary, migrations: migrations)
        summary.append((n, rows, baseline))
    }

    print("\nSide by side (checks/s; lag = started − due, p50 / p99 / max s; RSS peaks in MB):")
    print("| domains | workers | round | checks/s | vs curl | vs bare fetcher | vs handshakes/s | lag p50 / p99 / max | serve RSS | worker RSS (each) | postgres (largest process / all private) | dead tuples max: domains, domain_stats, check_repeats | transactions per check | load |")
    print("|---:|---:|---|---:|---:|---:|---:|---|---:|---|---|---|---:|---|")
    for (n, rows, baseline) in summary {
        for row in rows {
            let lag = row.lag.map { String(format: "%.2f / %.2f / %.1f (%d)", $0.p50, $0.p99, $0.max, $0.checks) } ?? ""
            let workerRSS = (0..<row.workers).map { "\((row.peaks.hwm["worker\($0)"] ?? 0) / 1024)" }.joined(separator: ", ")
            let dead = ["domains", "domain_stats", "check_repeats"].map { "\(row.peaks.deadTuples[$0] ?? 0)" }.joined(separator: ", ")
            let target = row.target.map { String(format: " at %.0f/s", $0) } ?? ""
            print("| \(n) | \(row.workers) | \(row.kind)\(target) | " + String(format: "%.0f | %.2f× | %.2f× | %.2f× | ", row.rate,
                  row.rate / max(baseline.curl, 1e-9), row.rate / max(baseline.fetcher, 1e-9), row.rate / max(handshakes, 1e-9))
                  + "\(lag) | \((row.peaks.hwm["serve"] ?? 0) / 1024) | \(workerRSS) | "
                  + "\(row.peaks.postgresLargestHWM / 1024) / \(row.peaks.postgresAnonymous / 1024) | \(dead) | "
                  + String(format: "%.2f", row.transactionsPerCheck) + " | \(row.load) |")
        }
    }
    print("load after: \(loadAverage())")
}

private func roundsFor(_ n: Int, options: RoundOptions, fleet: TestTLSFleet, binary: URL, migrations: String) async throws
    -> ([RoundRow], (curl: Double, fetcher: Double)) {
    print("\n== \(n) domains ==")
    let hosts = try economyHosts(n, fleet: fleet)
    let baselineHosts = Array(hosts.prefix(options.baselineHosts))
    let curl = try economyCurl(baselineHosts, fleet: fleet, parallel: options.maxInFlight)
    let fetcher = try await economyFetcher(baselineHosts, fleet: fleet, parallel: options.maxInFlight, everything: false)
    print(String(format: "baselines on %d of the host names: curl --parallel (AASA + assetlinks.json) %.0f hosts/s; bare fetcher (the platforms' own fetches) %.0f checks/s",
                 baselineHosts.count, curl, fetcher.rate))

    // --keep-data DIR: the run's data directory (database and process logs) stays, one per N.
    let data = options.keepData.map { URL(fileURLWithPath: $0).appendingPathComponent("round-\(n)") }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("aasa-round-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    defer { if options.keepData == nil { try? FileManager.default.removeItem(at: data) } else { print("kept the data directory: \(data.path)") } }
    let logs = data.appendingPathComponent("logs")
    try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
    let dataDirectory = data.appendingPathComponent("db").path

    func launch(_ name: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: logs.appendingPathComponent("\(name).out").path, contents: nil)
        _ = FileManager.default.createFile(atPath: logs.appendingPathComponent("\(name).err").path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: logs.appendingPathComponent("\(name).out"))
        process.standardError = try FileHandle(forWritingTo: logs.appendingPathComponent("\(name).err"))
        try process.run()
        return process
    }
    /// Starts serve (and so its embedded PostgreSQL) and waits until it listens; nil when it did not start.
    func startServe() throws -> Process? {
        let serve = try launch("serve", ["serve", "--data-dir", dataDirectory, "--migrations-dir", migrations, "--port", "0", "--no-crawl"])
        let started = Date().addingTimeInterval(120)
        while Date() < started, serve.isRunning,
              !((try? String(contentsOf: logs.appendingPathComponent("serve.out"), encoding: .utf8)) ?? "").contains("listening") {
            usleep(200_000)   // Thread.sleep is refused in async code; this is a bench waiting on a process
        }
        guard serve.isRunning else {
            print("serve did not start: " + ((try? String(contentsOf: logs.appendingPathComponent("serve.err"), encoding: .utf8)) ?? ""))
            return nil
        }
        return serve
    }
    let url = "postgresql:///aasa_monitor?host=\(dataDirectory)/run&port=5432&user=aasa_monitor"
    guard var serve = try startServe() else { return ([], (curl, fetcher.rate)) }
    if options.statements {
        // pg_stat_statements needs its shared memory from the start: preload it, then start serve (and
        // its PostgreSQL) again. postgresql.auto.conf is read after aasa-monitor's own settings.
        let setup = Database(configuration: ConnectionConfiguration(url: url), poolSize: 1)
        try setup.execute("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
        setup.close()
        serve.terminate()
        serve.waitUntilExit()
        guard let again = try startServe() else { return ([], (curl, fetcher.rate)) }
        serve = again
    }
    defer {
        serve.terminate()
        serve.waitUntilExit()
    }
    let database = Database(configuration: ConnectionConfiguration(url: url), poolSize: 2)
    defer { database.close() }
    if options.statements { try database.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements") }
    // The columns `createDomain` writes (no expectations), in one statement instead of N.
    let registering = Date()
    try database.execute("""
        INSERT INTO domains (host, display_name, wildcard, interval_seconds, badge_enabled, next_check_at, platforms)
        SELECT 'e' || g || '.fleet.test', 'e' || g || '.fleet.test', false, 3600, false, now() + interval '1 day', 'both'
        FROM generate_series(0, $1 - 1) g
        """, n)
    try database.execute("CREATE TABLE bench_due (domain_id bigint PRIMARY KEY, due_at timestamptz NOT NULL)")
    try database.execute("VACUUM ANALYZE")
    print(String(format: "registered %d domains in %.1f s (one INSERT, then VACUUM ANALYZE); database %.1f MB", n,
                 Date().timeIntervalSince(registering), try databaseMegabytes(database)))

    let sampler = RoundSampler(database: database, dataDirectory: dataDirectory)
    sampler.track("serve", pid: serve.processIdentifier)
    sampler.start()
    defer { sampler.stop() }

    var round = 0
    var transactions = 0
    var workerPIDs: [Int32] = []
    let nginx = fleetNginx(fleet)
    func cpu() -> [(String, Double)] {
        let postmaster = ProcessMemory.postgresProcesses(dataDirectory: dataDirectory).first
        let postgres = postmaster.map { cpuSeconds($0) + childProcesses(of: $0).map(cpuSeconds).reduce(0, +) } ?? 0
        let web = nginx.map { cpuSeconds($0) + childProcesses(of: $0).map(cpuSeconds).reduce(0, +) } ?? 0
        return [("workers", workerPIDs.map(cpuSeconds).reduce(0, +)), ("postgres", postgres), ("nginx", web),
                ("serve", cpuSeconds(serve.processIdentifier)), ("bench", cpuSeconds(getpid()))]
    }
    var cpuBefore: [(String, Double)] = [], cpuSpent: [(String, Double)] = []
    func committed() throws -> Int {
        try database.value("SELECT xact_commit::bigint FROM pg_stat_database WHERE datname = current_database()")
    }
    /// Check rows and repeat rows written so far, from PostgreSQL's own counters: a read of two
    /// statistics entries instead of a count over a million domain rows every second. The counters lag
    /// by up to a second or so (a backend reports when it goes idle), so the end of a round is confirmed
    /// by an exact count and timed by the last check's own finish.
    func written() throws -> Int {
        try database.value("SELECT coalesce(sum(n_tup_ins), 0)::bigint FROM pg_stat_user_tables WHERE relname IN ('checks', 'check_repeats')")
    }
    /// Domains of the round still unchecked: every domain, or only those with a due time in bench_due.
    func unchecked(_ scoped: Bool) throws -> Int {
        scoped ? try database.value("SELECT count(*)::int FROM domains WHERE check_round < $1 AND id IN (SELECT domain_id FROM bench_due)", round)
            : try database.value("SELECT count(*)::int FROM domains WHERE check_round < $1", round)
    }
    /// Makes the round's domains due and waits until each of the `expected` has had the round's check
    /// (`scoped`: the domains listed in bench_due, else every domain); returns when the due times were
    /// written and when the last check finished. A round that makes no progress for ten minutes (a
    /// check that keeps failing waits out its lease) is reported as it stands.
    func runRound(expected: Int, scoped: Bool = false, due: () throws -> Void) throws -> (start: Date, end: Date) {
        round += 1
        transactions = try committed()
        cpuBefore = cpu()
        try due()
        if options.statements { try database.execute("SELECT pg_stat_statements_reset()") }
        let start = Date()
        let writtenBefore = try written()
        var progressed = Date(), lastDone = 0, nextPoint = 0, exactAt = Date()
        while true {
            let done = min(try written() - writtenBefore, expected)
            if options.rssCurve, done >= nextPoint {
                // Checked so far against each worker's resident memory now and at its peak, in MB.
                let memory = workerPIDs.map { ProcessMemory(pid: $0).map { String(format: "%.1f/%.1f", Double($0.rss) / 1024, Double($0.peak) / 1024) } ?? "-" }
                print("  rss-curve round \(round): \(done) checked, worker VmRSS/VmHWM MB \(memory.joined(separator: " "))")
                nextPoint = done + max(expected / 50, 1)
            }
            // The exact count scans every domain row: only when the counters say the round is done, or once a minute.
            if done >= expected || Date() >= exactAt {
                if try unchecked(scoped) == 0 { break }
                exactAt = Date().addingTimeInterval(done >= expected ? 2 : 60)
            }
            if done > lastDone { lastDone = done; progressed = Date() }
            if Date().timeIntervalSince(progressed) > 600 {
                print("  round \(round): \(try unchecked(scoped)) domains not checked after ten minutes without progress; counted as they stand")
                break
            }
            Thread.sleep(forTimeInterval: 1)
        }
        // The round ends at its last check's finish, not at the poll that saw it.
        let last: Date? = scoped
            ? try database.value("SELECT max(last_checked_at) FROM domains WHERE id IN (SELECT domain_id FROM bench_due)")
            : try database.value("SELECT max(last_checked_at) FROM domains")
        let end = max(start, min(last ?? Date(), Date()))
        transactions = try committed() - transactions
        cpuSpent = zip(cpu(), cpuBefore).map { ($0.0, ($0.1 - $1.1) * 1000 / Double(max(expected, 1))) }
        if options.statements { try printStatements(database, checks: expected, round: round) }
        return (start, end)
    }
    func allDue() throws { try database.execute("UPDATE domains SET next_check_at = now() - interval '1 second'") }
    func rate(_ span: (start: Date, end: Date), _ count: Int = n) -> Double { Double(count) / max(span.end.timeIntervalSince(span.start), 1e-9) }

    var workers: [Process] = []
    func startWorkers(_ count: Int) throws {
        for index in 0..<count {
            var arguments = ["worker", "--data-dir", dataDirectory, "--migrations-dir", migrations, "--no-notify",
                             "--worker-id", "round\(index)", "--max-in-flight", "\(options.maxInFlight)", "--pool-size", "\(options.poolSize)",
                             "--allow-private-addresses", "--ca-file", fleet.caFile, "--cdn-base", fleet.cdnBase,
                             "--google-dal-base", fleet.googleDALBase] + fleet.connectTo.flatMap { ["--connect-to", $0] }
            if let poll = options.pollSeconds { arguments += ["--poll-seconds", "\(poll)"] }
            if let perAddress = options.maxPerAddress { arguments += ["--max-per-address", "\(perAddress)"] }
            let worker = try launch("worker\(count)-\(index)-r\(round + 1)", arguments)
            workers.append(worker)
            workerPIDs.append(worker.processIdentifier)
            sampler.track("worker\(index)", pid: worker.processIdentifier)
        }
    }
    /// SIGTERM, and again after 15 s: a worker was seen to miss the first one (it kept waiting in
    /// Worker.run, then on a DispatchSource; now on serve's signal relay, WorkerSignalTests). Printed when
    /// it happens, so a recurrence shows. After
    /// 30 s it is killed, so the bench never hangs on a worker.
    func stopWorkers() {
        for index in 0..<workers.count { sampler.untrack("worker\(index)") }
        for worker in workers { worker.terminate() }
        for (index, worker) in workers.enumerated() {
            let began = Date()
            var resent = false
            while worker.isRunning {
                let waited = Date().timeIntervalSince(began)
                if waited > 15, !resent {
                    print("  worker \(index) (pid \(worker.processIdentifier)) still running 15 s after SIGTERM: sent SIGTERM again")
                    worker.terminate()
                    resent = true
                } else if waited > 30 {
                    print("  worker \(index) (pid \(worker.processIdentifier)) still running 30 s after SIGTERM: killed")
                    kill(worker.processIdentifier, SIGKILL)
                    break
                }
                usleep(100_000)
            }
            worker.waitUntilExit()
        }
        workers = []
        workerPIDs = []
    }
    defer { stopWorkers() }

    var rows: [RoundRow] = []
    func row(_ count: Int, _ kind: String, rate: Double, checks: Int = n, target: Double? = nil, lag: SchedulerLag? = nil, load: String) -> RoundRow {
        RoundRow(workers: count, kind: kind, rate: rate, target: target, lag: lag, peaks: sampler.reset(), load: load,
                 transactionsPerCheck: Double(transactions) / Double(max(checks, 1)), cpuPerCheck: cpuSpent)
    }
    /// Seeded: every domain is due already (the seed wrote it, no workers running): the first backlog
    /// round needs no UPDATE of every row, whose million dead tuples the round would otherwise vacuum.
    var dueAlready = false
    var seeded = false
    var seededLastCheckID: Int64 = 0
    if let templates = options.seedFirstRound, templates < n, !options.firstRoundOnly {
        let count = options.workers.first ?? 1
        try startWorkers(count)
        _ = sampler.reset()
        let load = loadAverage()
        let span = try runRound(expected: templates, scoped: true) {
            try database.execute("""
                WITH t AS (UPDATE domains SET next_check_at = now() - interval '1 second' WHERE host ~ '^e[0-9]+\\.fleet\\.test$'
                             AND substr(split_part(host, '.', 1), 2)::bigint < $1 RETURNING id, next_check_at)
                INSERT INTO bench_due SELECT id, next_check_at FROM t
                """, templates)
        }
        rows.append(row(count, "first round of the \(templates) templates (every check stores both files)", rate: rate(span, templates),
                        checks: templates, load: "\(load) → \(loadAverage())"))
        print(rows.last.map(describe) ?? "")
        usleep(1_200_000)
        rows[rows.count - 1].peaks = mergePeaks(rows[rows.count - 1].peaks, sampler.reset())
        stopWorkers()
        let seeding = Date()
        // The backlog round wants every domain due at once; a paced round only its window, so the seed
        // leaves the others a day away instead of an UPDATE of every row moving them there.
        let due = options.pacedOnly ? Date().addingTimeInterval(86_400) : Date().addingTimeInterval(-1)
        let copies = try seedFirstRound(database, templates: templates, due: due)
        let seedSeconds = Date().timeIntervalSince(seeding)
        try database.execute("TRUNCATE bench_due")
        try database.execute("VACUUM ANALYZE")
        print(String(format: "seeded the first round's state of %d domains from %d templates in %.0f s, then VACUUM ANALYZE %.0f s; database %.1f MB",
                     n - templates, templates, seedSeconds, Date().timeIntervalSince(seeding) - seedSeconds, try databaseMegabytes(database)))
        for copy in copies {
            print("  \(copy.table): \(copy.templateRows) template rows, \(copy.copiedRows) rows written for the others, "
                  + String(format: "%.1f s", copy.seconds))
        }
        seededLastCheckID = try database.value("SELECT coalesce(max(id), 0) FROM checks")
        dueAlready = !options.pacedOnly
        seeded = true
    }
    /// Prints the seed's self-check; a failure (or a cancelled statement) is printed too, and the run
    /// goes on to its closing table.
    func selfCheck(since start: Date) {
        do { print("  " + (try seedSelfCheck(database, since: start, lastCheckID: seededLastCheckID))) }
        catch { print("  seed self-check failed: \(error)") }
    }

    var selfChecked = !seeded   // once, after the first round that follows the seed
    for count in options.workers {
        try startWorkers(count)
        _ = sampler.reset()
        if round == 0 {
            let load = loadAverage()
            let span = try runRound(expected: n, due: allDue)
            rows.append(row(count, "first round (every check stores both files)", rate: rate(span), load: "\(load) → \(loadAverage())"))
            print(rows.last.map(describe) ?? "")
        }
        if !options.firstRoundOnly {
            var load = loadAverage()
            var backlog: Double?
            if !options.pacedOnly {
                let seededRound = dueAlready
                let span = try runRound(expected: n) { if !dueAlready { try allDue() } }
                dueAlready = false
                backlog = rate(span)
                rows.append(row(count, seededRound ? "backlog round (all due at once; seeded first round)" : "backlog round (all due at once)",
                                rate: rate(span), load: "\(load) → \(loadAverage())"))
                print(rows.last.map(describe) ?? "")
                if !selfChecked { selfCheck(since: span.start); selfChecked = true }
            }
            for pace in options.paces {
                guard pace > 1 || backlog != nil else {
                    print("  pace \(pace): a fraction of the backlog rate, but --paced-only ran no backlog round: skipped")
                    continue
                }
                let target = pace > 1 ? pace : pace * (backlog ?? 0)
                // A window of the first M domains (in the hash order): scheduler lag at N without pacing all N.
                let window = min(options.paceDomains ?? n, n)
                load = loadAverage()
                var dueFrom = Date()
                let checksBefore: Int64 = try database.value("SELECT coalesce(max(id), 0) FROM checks")
                let span = try runRound(expected: window, scoped: window < n) {
                    // Due times spread over the round in the order of a hash of the host, as SchedulePolicy's slots
                    // spread an interval; the first a moment from now, after these statements have committed (the
                    // window's UPDATE takes tens of seconds at 250,000 domains under load). The due times are kept
                    // in the same statement: a domain checked at once moves its next_check_at on.
                    let writing = Date()
                    dueFrom = writing.addingTimeInterval(max(2, Double(window) / 5_000))
                    try database.execute("TRUNCATE bench_due")
                    try database.execute("""
                        WITH r AS (SELECT id, row_number() OVER (ORDER BY md5(host)) - 1 AS k FROM domains),
                        u AS (UPDATE domains d SET next_check_at = $1::timestamptz + make_interval(secs => r.k / $2::float8) FROM r
                              WHERE d.id = r.id AND r.k < $3 RETURNING d.id, d.next_check_at)
                        INSERT INTO bench_due SELECT id, next_check_at FROM u
                        """, dueFrom, target, window)
                    if window < n {
                        // The rest of the domains wait until the window is over: only the window's checks are paced.
                        // NOT EXISTS, an anti-join on bench_due's key: a NOT IN over its ids would rescan them per row.
                        try database.execute("""
                            UPDATE domains d SET next_check_at = now() + interval '1 day'
                            WHERE d.next_check_at < $1::timestamptz + make_interval(secs => $2::float8 / $3::float8 + 600)
                              AND NOT EXISTS (SELECT 1 FROM bench_due b WHERE b.domain_id = d.id)
                            """, dueFrom, window, target)
                    }
                    let written = Date()
                    print(String(format: "  paced window: due times of %d domains written in %.1f s, the first due %.1f s after they began",
                                 window, written.timeIntervalSince(writing), dueFrom.timeIntervalSince(writing))
                          + (written > dueFrom ? " (written after the first were due: their lag includes the wait)" : ""))
                }
                var lag: SchedulerLag?
                do { lag = try schedulerLag(database, since: dueFrom.addingTimeInterval(-1), checksAfter: checksBefore) }
                catch { print("  scheduler lag not measured: \(error)") }
                let kind = window < n ? "paced window of \(window) domains" : "paced round"
                rows.append(row(count, kind, rate: Double(window) / max(span.end.timeIntervalSince(dueFrom), 1e-9), checks: window,
                                target: target, lag: lag, load: "\(load) → \(loadAverage())"))
                print(rows.last.map(describe) ?? "")
                if !selfChecked { selfCheck(since: dueFrom); selfChecked = true }
            }
        }
        // VmHWM is the kernel's own peak for each process: read it before the workers go.
        usleep(1_200_000)
        rows[rows.count - 1].peaks = mergePeaks(rows[rows.count - 1].peaks, sampler.reset())
        stopWorkers()
    }
    print(String(format: "database after the rounds: %.1f MB", try databaseMegabytes(database)))
    return (rows, (curl, fetcher.rate))
}

/// The statements of a round by execution time (pg_stat_statements), per check: what PostgreSQL's
/// share of a check is spent on. The bench's own queries (its progress count, the sampler) are listed too.
private func printStatements(_ database: Database, checks: Int, round: Int) throws {
    let rows = try database.rows("""
        SELECT calls::float8, total_exec_time::float8, rows::float8, regexp_replace(query, '\\s+', ' ', 'g') AS query
        FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 14
        """)
    let all: Double = try database.value("SELECT coalesce(sum(total_exec_time), 0)::float8 FROM pg_stat_statements")
    print(String(format: "  statements of round %d (pg_stat_statements; execution ms per check, all: %.3f):", round, all / Double(max(checks, 1))))
    for row in rows {
        let calls: Double = try row.decode(0), total: Double = try row.decode(1), returned: Double = try row.decode(2)
        let query: String = try row.decode(3)
        print(String(format: "    %.3f ms/check  %.3f calls/check  %.3f ms/call  %.1f rows/call  ", total / Double(max(checks, 1)),
                     calls / Double(max(checks, 1)), total / max(calls, 1), returned / max(calls, 1)) + String(query.prefix(150)))
    }
}

private func mergePeaks(_ a: RoundSampler.Peaks, _ b: RoundSampler.Peaks) -> RoundSampler.Peaks {
    var merged = a
    merged.rss.merge(b.rss, uniquingKeysWith: max)
    merged.hwm.merge(b.hwm, uniquingKeysWith: max)
    merged.postgresAnonymous = max(a.postgresAnonymous, b.postgresAnonymous)
    merged.postgresRSS = max(a.postgresRSS, b.postgresRSS)
    merged.postgresLargestHWM = max(a.postgresLargestHWM, b.postgresLargestHWM)
    merged.deadTuples.merge(b.deadTuples, uniquingKeysWith: max)
    return merged
}

private func describe(_ row: RoundRow) -> String {
    var text = "  \(row.workers) worker(s), \(row.kind)"
    if let target = row.target { text += String(format: " at %.0f/s", target) }
    text += String(format: ": %.0f checks/s, %.2f transactions per check", row.rate, row.transactionsPerCheck)
    if let lag = row.lag { text += String(format: "; lag p50 %.2f s, p99 %.2f s, max %.1f s over %d checks", lag.p50, lag.p99, lag.max, lag.checks) }
    text += "; CPU ms per check: " + row.cpuPerCheck.map { "\($0.0) " + String(format: "%.1f", $0.1) }.joined(separator: ", ")
    text += "; RSS peak MB: " + row.peaks.hwm.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value / 1024)" }.joined(separator: ", ")
    text += ", postgres largest \(row.peaks.postgresLargestHWM / 1024), all private \(row.peaks.postgresAnonymous / 1024) (\(row.peaks.postgresProcesses) processes)"
    text += "; dead tuples max " + row.peaks.deadTuples.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    text += "; autovacuums " + row.peaks.autovacuums.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    return text + "; load \(row.load)"
}

/// started − due of every check since `since`: a changed check's own `started_at`, an unchanged one's
/// finish less its fetch time (a repeat row keeps only those), against the due time the bench wrote.
/// `checksAfter`: the highest check id before the round; the round's check rows are found by id (the
/// primary key) rather than by `started_at`, which no index leads with (a scan of every check at 1M).
private func schedulerLag(_ database: Database, since: Date, checksAfter: Int64) throws -> SchedulerLag {
    guard let row = try database.rows("""
        WITH started AS (
          SELECT domain_id, checked_at - make_interval(secs => latency_ms / 1000.0) AS at FROM check_repeats WHERE checked_at >= $1
          UNION ALL
          -- A round that crosses UTC midnight: the workers' retention job packs the day before (0056).
          SELECT p.domain_id, e.t - make_interval(secs => e.ms / 1000.0)
          FROM check_repeat_days p CROSS JOIN LATERAL unnest(p.checked_at, p.latency_ms) AS e(t, ms)
          WHERE p.day >= ($1::timestamptz AT TIME ZONE 'UTC')::date AND e.t >= $1
          UNION ALL
          SELECT domain_id, started_at FROM checks WHERE id > $2 AND started_at >= $1
        ), lag AS (SELECT extract(epoch FROM s.at - b.due_at)::float8 AS s FROM started s JOIN bench_due b USING (domain_id))
        SELECT coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY s), 0) AS p50,
               coalesce(percentile_cont(0.99) WITHIN GROUP (ORDER BY s), 0) AS p99, coalesce(max(s), 0) AS worst, count(*)::int AS n
        FROM lag
        """, since, checksAfter).first else { return (0, 0, 0, 0) }
    return (try row.decode("p50"), try row.decode("p99"), try row.decode("worst"), try row.decode("n"))
}

private func databaseMegabytes(_ database: Database) throws -> Double {
    Double(try database.value("SELECT pg_database_size(current_database())", as: Int.self)) / 1e6
}
