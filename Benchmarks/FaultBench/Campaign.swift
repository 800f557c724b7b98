// The campaign's shell: starts PostgreSQL, the fleet, the receivers, `serve` and two `worker`s, runs the
// plan (FaultPlan) second by second while sampling, then settles and prints the accounts (Ledger.swift).
import Foundation
import Glibc
import Store
import TestSupport
import Vocabulary

struct CampaignOptions {
    var minutes = 30.0
    var domains = 10_000
    /// The domains' interval; by default a sixth of the run (5 minutes in 30), at least the product's minimum.
    var intervalSeconds: Int?
    /// After the plan: until every alert of the plan resolved and the outbox is empty, at most this long.
    var settleMinutes: Double?
    /// The workers' lease; by default the product's 300 s, at most one interval.
    var leaseSeconds: Int?
    var maxInFlight = 64
    var keepData: String?

    init(_ arguments: [String]) {
        var i = 1
        while i < arguments.count {
            let value = i + 1 < arguments.count ? arguments[i + 1] : ""
            switch arguments[i] {
            case "--minutes": minutes = Double(value) ?? minutes; i += 1
            case "--domains": domains = Int(value) ?? domains; i += 1
            case "--interval-seconds": intervalSeconds = Int(value); i += 1
            case "--settle-minutes": settleMinutes = Double(value); i += 1
            case "--lease-seconds": leaseSeconds = Int(value); i += 1
            case "--max-in-flight": maxInFlight = Int(value) ?? maxInFlight; i += 1
            case "--keep-data": keepData = value; i += 1
            default: break
            }
            i += 1
        }
    }

    var interval: Int { intervalSeconds ?? max(60, Int(minutes * 60 / 6)) }
    var lease: Int { leaseSeconds ?? min(300, interval) }
    var settle: Double { settleMinutes ?? max(3 * Double(interval) / 60, 5) }
}

/// The hostile files of the burst, built once.
enum HostileFiles {
    /// 20 MB: far past the fetcher's 1 MB body limit.
    static let huge: [UInt8] = Array(#"{"applinks":{"details":[]},"pad":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 20 << 20)
        + Array(#""}"#.utf8)
    /// 60,000 nested arrays in 120 KB: under Apple's size limit, far past any depth budget.
    static let deep: [UInt8] = Array(#"{"applinks":"#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: 60_000)
        + [UInt8](repeating: UInt8(ascii: "]"), count: 60_000) + Array("}".utf8)
    /// 64 KB of reproducible noise (an LCG), with NULs and invalid UTF-8.
    static let binary: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<65_536).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }()
}

final class Campaign {
    let options: CampaignOptions
    let plan: FaultPlan
    let binary: URL
    let data: URL
    let logs: URL
    var launcher: Launcher!
    var fleet: TestTLSFleet!
    var drip: DripServer!
    var postgres: EmbeddedPostgres!
    var database: Database!
    var down: TestWebhookReceiver!
    var slow: TestWebhookReceiver!
    var serve: Process!
    var workers: [Process?] = [nil, nil]
    var generations = [0, 0]
    var start = Date()
    var lateness = LatenessLedger()
    var loads: [Double] = []
    /// Things that happened, as they happened: printed as they come and listed at the end.
    var timeline: [String] = []
    var unexpectedExits: [String] = []
    var rssAtStart: [String: ProcessMemory] = [:]
    var killedWorkerRSS: [Int] = []
    var receiverReturned: Date?
    var pendingAtReturn = 0
    var drainSeconds: Double?
    var postgresDowntime: [String: Double] = [:]
    /// When each fault that can cut a send short happened: a kill -9 of worker 1, PostgreSQL's outages.
    var kills: [Date] = []
    var postgresOutages: [(start: Date, end: Date)] = []
    var postgresDown = false
    /// A worker refuses to start while PostgreSQL is down (exit 70): what a supervisor restarts. Counted
    /// apart from crashes, and restarted no sooner than this.
    var refusedStarts = 0
    var restartNotBefore: [Date?] = [nil, nil]
    /// The 20 MB file, written once into the fleet's directory and hard-linked per host when the burst starts.
    var hugeFile: URL!

    init(_ options: CampaignOptions) throws {
        self.options = options
        plan = FaultPlan(minutes: options.minutes, interval: Double(options.interval))
        binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("aasa-monitor")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw CampaignError("build it first: swift build -c release --product aasa-monitor (looked for \(binary.path))")
        }
        data = options.keepData.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("aasa-faults-\(UUID().uuidString)")
        logs = data.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
    }

    var elapsed: Double { Date().timeIntervalSince(start) }

    func note(_ text: String) {
        let line = String(format: "[%6.0f s] ", elapsed) + text
        timeline.append(line)
        print(line)
    }

    // MARK: - Setup

    func setUp() throws {
        drip = try DripServer(directory: data, goodFile: FleetFiles.good)
        fleet = try TestTLSFleet(workerProcesses: 2, defaultServer: .init(
            perHostFiles: true, proxiedAASA: (hosts: #"^drip[0-9]+\.fleet\.test$"#, port: drip.port)))
        // Both platforms' files on every host, one CDN copy and one Google answer for all (as MonitorBench's rounds).
        try fleet.deploy(String(decoding: FleetAssetLinks.good, as: UTF8.self), at: FleetAssetLinks.path)
        try fleet.serveDefaultCDNCopy(FleetFiles.good)
        fleet.googleAPI.setDefault(.frozen(FleetAssetLinks.good))
        hugeFile = fleet.directory.appendingPathComponent("huge-staged.json")
        try DeployedFile.write(HostileFiles.huge, to: hugeFile)

        postgres = try EmbeddedPostgres.start(.init(dataDirectory: data.appendingPathComponent("db").path, durability: .full,
                                                    maxConnections: 100))
        down = try TestWebhookReceiver()
        slow = try TestWebhookReceiver()
        launcher = Launcher(binary: binary, logs: logs, environment: [
            "DATABASE_URL": postgres.url(),
            "AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS": "1",
            "AASA_MONITOR_BASE_URL": "https://monitor.example.test",
        ])
        let migrations = try TestPostgres.migrationsDirectory()
        serve = try launcher.launch("serve", ["serve", "--port", "0", "--no-crawl", "--migrations-dir", migrations])
        let deadline = Date().addingTimeInterval(180)
        while Date() < deadline, serve.isRunning,
              !((try? String(contentsOf: logs.appendingPathComponent("serve.out"), encoding: .utf8)) ?? "").contains("listening") {
            usleep(200_000)
        }
        guard serve.isRunning else { throw CampaignError("serve did not start: \(log("serve.err"))") }

        database = Database(configuration: postgres.configuration, poolSize: 2)
        try database.execute("""
            INSERT INTO domains (host, display_name, wildcard, interval_seconds, badge_enabled, next_check_at, platforms)
            SELECT h, h, false, $2::int, false,
                   now() + interval '20 seconds' + make_interval(secs => (row_number() OVER (ORDER BY md5(h)) - 1) * $2::int / $1::float8), 'both'
            FROM (SELECT CASE WHEN g < 20 THEN 'brk' WHEN g < 40 THEN 'blip' WHEN g < 50 THEN 'huge' WHEN g < 60 THEN 'deep'
                              WHEN g < 70 THEN 'bin' WHEN g < 80 THEN 'drip' ELSE 'e' END || g || '.fleet.test' AS h
                  FROM generate_series(0, $1 - 1) g) hosts
            """, options.domains, options.interval)
        _ = try database.createChannel(NewChannel(kind: .webhook, name: "down for ten minutes", target: down.url, minSeverity: .info))
        _ = try database.createChannel(NewChannel(kind: .webhook, name: "slow", target: slow.url, minSeverity: .info))
        try database.execute("VACUUM ANALYZE")
    }

    func workerArguments(_ slot: Int) throws -> [String] {
        ["worker", "--migrations-dir", try TestPostgres.migrationsDirectory(), "--worker-id", "w\(slot)-\(generations[slot])",
         "--max-in-flight", "\(options.maxInFlight)", "--pool-size", "4", "--lease-seconds", "\(options.lease)",
         "--max-per-address", "\(options.maxInFlight)",
         "--allow-private-addresses", "--ca-file", fleet.caFile, "--cdn-base", fleet.cdnBase,
         "--google-dal-base", fleet.googleDALBase] + fleet.connectTo.flatMap { ["--connect-to", $0] }
    }

    func startWorker(_ slot: Int) throws {
        generations[slot] += 1
        workers[slot] = try launcher.launch("worker\(slot)-\(generations[slot])", try workerArguments(slot))
    }

    func log(_ name: String) -> String {
        (try? String(contentsOf: logs.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    // MARK: - Faults

    struct Step {
        var at: Double
        var name: String
        var action: () throws -> Void
    }

    func steps() -> [Step] {
        var steps: [Step] = []
        func files(_ group: HostGroup, _ body: [UInt8]) {
            let window = plan.window(group)
            steps.append(Step(at: window.start, name: "\(group.rawValue): \(group.hosts.count) hosts break") { [self] in
                for host in group.hosts {
                    guard group == .huge else {
                        try fleet.hostFile(body, host: host, at: "/.well-known/apple-app-site-association")
                        continue
                    }
                    // A link, not a copy: writing 10 × 20 MB would hold up the schedule's next steps.
                    let url = fleet.hostFileURL(host: host, at: "/.well-known/apple-app-site-association")
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                            attributes: [.posixPermissions: 0o755])
                    try FileManager.default.linkItem(at: hugeFile, to: url)
                }
            })
            steps.append(Step(at: window.end, name: "\(group.rawValue): \(group.hosts.count) hosts recover") { [self] in
                for host in group.hosts { try fleet.hostFile(nil, host: host, at: "/.well-known/apple-app-site-association") }
            })
        }
        files(.breaks, FleetFiles.invalid)
        files(.blips, FleetFiles.invalid)
        files(.huge, [])
        files(.deep, HostileFiles.deep)
        files(.binary, HostileFiles.binary)
        let dripWindow = plan.window(.drip)
        steps.append(Step(at: dripWindow.start, name: "drip: 10 hosts dribble their AASA") { [self] in try drip.drip(true) })
        steps.append(Step(at: dripWindow.end, name: "drip: 10 hosts answer at once again") { [self] in try drip.drip(false) })

        steps.append(Step(at: plan.receiverDown.start, name: "receiver 'down' stops (connections refused)") { [self] in down.stop() })
        steps.append(Step(at: plan.receiverDown.end, name: "receiver 'down' back") { [self] in
            try down.start()
            receiverReturned = Date()
            pendingAtReturn = (try? pendingBeforeReturn()) ?? -1
            note("  \(pendingAtReturn) deliveries to it pending")
        })
        steps.append(Step(at: plan.receiverSlow.start, name: "receiver 'slow' answers after \(Int(FaultPlan.slowReceiverSeconds)) s") { [self] in
            try slow.delay(seconds: FaultPlan.slowReceiverSeconds)
        })
        steps.append(Step(at: plan.receiverSlow.end, name: "receiver 'slow' answers at once again") { [self] in try slow.delay(seconds: 0) })

        for (window, mode) in [(plan.postgresFast, "fast"), (plan.postgresImmediate, "immediate")] {
            steps.append(Step(at: window.start, name: "PostgreSQL: \(mode) shutdown") { [self] in
                postgresDown = true
                postgresOutages.append((Date(), .distantFuture))
                try stopPostgres(immediate: mode == "immediate")
            })
            steps.append(Step(at: window.end, name: "PostgreSQL: start after the \(mode) shutdown") { [self] in
                let began = Date()
                try postgres.ensureRunning()
                postgresDowntime[mode] = Date().timeIntervalSince(began)
                postgresDown = false
                postgresOutages[postgresOutages.count - 1].end = Date()
            })
        }
        for window in plan.workerKills {
            steps.append(Step(at: window.start, name: "kill -9 worker 1") { [self] in
                guard let worker = workers[1], worker.isRunning else { return }
                killedWorkerRSS.append(ProcessMemory(pid: worker.processIdentifier)?.rss ?? 0)
                kill(worker.processIdentifier, SIGKILL)
                kills.append(Date())
                worker.waitUntilExit()
                workers[1] = nil
            })
            steps.append(Step(at: window.end, name: "worker 1 started again") { [self] in
                guard workers[1] == nil else { return }
                restartNotBefore[1] = nil
                try startWorker(1)
            })
        }
        return steps.sorted { $0.at < $1.at }
    }

    /// Why a webhook was accepted twice, from when the receiver first had it: a kill -9 of the worker
    /// while it waited for the answer (the slow receiver answers 4 s after the request arrived), or
    /// PostgreSQL down when the sender went to record the attempt; the row's lease then ran out and
    /// another process sent it again.
    func cause(ofDuplicateAcceptedAt arrival: Date?) -> String {
        guard let arrival else { return "unexplained" }
        let slowest = FaultPlan.slowReceiverSeconds + 1
        if kills.contains(where: { $0.timeIntervalSince(arrival) >= -1 && $0.timeIntervalSince(arrival) <= slowest }) {
            return "kill -9 during the send"
        }
        if postgresOutages.contains(where: { arrival.timeIntervalSince($0.start) >= -slowest && arrival <= $0.end }) {
            return "PostgreSQL down as the attempt was recorded"
        }
        return "unexplained"
    }

    func stopPostgres(immediate: Bool) throws {
        if immediate {
            guard let pid = postgres.postmasterPID else { return }
            kill(pid, SIGQUIT)   // PostgreSQL's immediate shutdown: no checkpoint, crash recovery at the next start
            let deadline = Date().addingTimeInterval(60)
            while kill(pid, 0) == 0, Date() < deadline { usleep(100_000) }
        } else {
            try postgres.stopServerNow()   // pg_ctl stop -m fast
        }
    }

    func pendingBeforeReturn() throws -> Int {
        guard let returned = receiverReturned else { return 0 }
        return try database.value("""
            SELECT count(*)::int FROM deliveries d JOIN channels c ON c.id = d.channel_id
            WHERE c.target = $1 AND d.state = 'pending' AND d.created_at < $2
            """, down.url, returned)
    }

    // MARK: - Sampling

    func sampleDomains() {
        guard let rows = try? database.rows("SELECT id, host, next_check_at, last_checked_at FROM domains") else { return }
        for row in rows {
            guard let id = try? row.decode(0, as: Int64.self), let host = try? row.decode(1, as: String.self),
                  let due = try? row.decode(2, as: Date.self) else { continue }
            lateness.observe(id: id, host: host, due: due, last: try? row.decode(3, as: Date?.self))
        }
    }

    /// Restarts a process that exited without being told to, and says so.
    func watchProcesses() throws {
        if !serve.isRunning {
            unexpectedExits.append(String(format: "%.0f s: serve exited with %d", elapsed, serve.terminationStatus))
            note("serve exited unexpectedly (\(serve.terminationStatus)): started again")
            serve = try launcher.launch("serve-again\(unexpectedExits.count)", ["serve", "--port", "0", "--no-crawl",
                                                                               "--migrations-dir", try TestPostgres.migrationsDirectory()])
        }
        for slot in 0..<2 {
            if workers[slot] == nil, let notBefore = restartNotBefore[slot], Date() >= notBefore {
                restartNotBefore[slot] = nil
                try startWorker(slot)
            }
            guard let worker = workers[slot], !worker.isRunning else { continue }
            let outage = postgresDown || postgresOutages.last.map { Date().timeIntervalSince($0.end) < 30 } == true
            if worker.terminationStatus == 70, outage {
                // "could not connect to PostgreSQL" at start: the documented exit, for a supervisor to
                // restart (as one would, two seconds later).
                refusedStarts += 1
                workers[slot] = nil
                restartNotBefore[slot] = Date().addingTimeInterval(2)
                continue
            }
            unexpectedExits.append(String(format: "%.0f s: worker %d (generation %d) exited with %d", elapsed, slot, generations[slot],
                                          worker.terminationStatus))
            note("worker \(slot) exited unexpectedly (\(worker.terminationStatus)): started again")
            try startWorker(slot)
        }
    }

    func memory() -> [String: ProcessMemory] {
        var result: [String: ProcessMemory] = [:]
        result["serve"] = ProcessMemory(pid: serve.processIdentifier)
        for slot in 0..<2 { if let worker = workers[slot] { result["worker \(slot)"] = ProcessMemory(pid: worker.processIdentifier) } }
        return result
    }

    // MARK: - Run

    func run() throws {
        print("fault-bench: \(options.domains) domains (interval \(options.interval) s, lease \(options.lease) s), "
              + "\(Int(options.minutes)) minutes of faults then up to \(Int(options.settle)) minutes to settle; "
              + "serve + 2 workers (release) on one PostgreSQL, the loopback TLS fleet; \(ProcessInfo.processInfo.activeProcessorCount) cores; "
              + "data and logs in \(data.path)")
        try setUp()
        try startWorker(0)
        try startWorker(1)
        start = Date()
        note("workers started; first checks due over the first interval")
        var pending = steps()
        var lastSample = -100.0
        var lastLoad = -100.0
        while elapsed < plan.length {
            while let step = pending.first, step.at <= elapsed {
                pending.removeFirst()
                note(step.name)
                do { try step.action() } catch { note("  failed: \(error)") }
            }
            try tick(&lastSample, &lastLoad)
            usleep(500_000)
        }
        note("the plan is over; settling (every planned alert resolved, the outbox empty) for at most \(Int(options.settle)) minutes")
        let settleEnd = Date().addingTimeInterval(options.settle * 60)
        while Date() < settleEnd {
            try tick(&lastSample, &lastLoad)
            if let settled = try? settled(), settled { note("settled"); break }
            usleep(1_000_000)
        }
        sampleDomains()
        let end = memory()
        try report(endMemory: end)
        stopAll()
    }

    func tick(_ lastSample: inout Double, _ lastLoad: inout Double) throws {
        try watchProcesses()
        if elapsed - lastSample >= 10 {
            sampleDomains()
            lastSample = elapsed
        }
        if elapsed - lastLoad >= 30 {
            loads.append(loadAverage())
            lastLoad = elapsed
        }
        if rssAtStart.isEmpty, elapsed >= 60 { rssAtStart = memory() }
        if receiverReturned != nil, drainSeconds == nil, let left = try? pendingBeforeReturn(), left == 0, let returned = receiverReturned {
            drainSeconds = Date().timeIntervalSince(returned)
            note(String(format: "the outbox to receiver 'down' drained %.0f s after it came back", drainSeconds ?? 0))
        }
    }

    func settled() throws -> Bool {
        let open: Int = try database.value("SELECT count(*)::int FROM alerts WHERE state = 'open'")
        let pending: Int = try database.value("SELECT count(*)::int FROM deliveries WHERE state = 'pending'")
        return open == 0 && pending == 0
    }

    func stopAll() {
        for process in [workers[0], workers[1], serve].compactMap({ $0 }) where process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning, Date() < deadline { usleep(100_000) }
            if process.isRunning {
                print("pid \(process.processIdentifier) still running 30 s after SIGTERM: killed")
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
        }
        database?.close()
        try? postgres?.stop()
        down?.shutDown()
        slow?.shutDown()
        drip?.stop()
        fleet?.stop()
        if options.keepData == nil { try? FileManager.default.removeItem(at: data) } else { print("kept \(data.path)") }
    }

    // MARK: - Report

    func report(endMemory: [String: ProcessMemory]) throws {
        let interval = Double(options.interval)
        print("\n== fault campaign: \(options.domains) domains, interval \(options.interval) s, \(Int(options.minutes)) min of faults ==")
        print("load average (1 min) over the run: " + String(format: "%.2f – %.2f", loads.min() ?? 0, loads.max() ?? 0))
        print("\n| measure | want | result |")
        print("|---|---|---|")
        let late = lateness.late(beyond: 2 * interval)
        let overdue: Int = try database.value("""
            SELECT count(*)::int FROM domains WHERE next_check_at < now() - make_interval(secs => 2 * interval_seconds)
            """)
        let never: Int = try database.value("SELECT count(*)::int FROM domains WHERE last_checked_at IS NULL")
        print("| checks seen (finish − due per check, sampled every 10 s) | | \(lateness.checks.count) |")
        print(String(format: "| lateness p50 / p99 / max, s | | %.1f / %.1f / %.1f |", lateness.quantile(0.5), lateness.quantile(0.99),
                     lateness.quantile(1)))
        print("| checks later than two intervals after their due time | 0 | \(late.count) |")
        print("| domains overdue by more than two intervals at the end; never checked | 0; 0 | \(overdue); \(never) |")

        let alerts = try database.rows("""
            SELECT d.host, a.rule, a.state, a.opened_at, a.resolved_at FROM alerts a JOIN domains d ON d.id = a.domain_id ORDER BY a.id
            """).map { row in
            AlertRecord(host: try row.decode(0), rule: try row.decode(1), resolved: try row.decode(2, as: String.self) == "resolved",
                        openedAt: try row.decode(3), resolvedAt: try row.decode(4))
        }
        var accounts = HostGroup.allCases.map { group in
            let window = plan.window(group)
            let broken = (start.addingTimeInterval(window.start), start.addingTimeInterval(window.end))
            // From two seconds in: a check under way as the file changed may have read the old one.
            return AlertAccount.account(group: group.rawValue, hosts: group.hosts, expectedPerHost: group.opensAlert ? 1 : 0, window: broken,
                                        checksWhileBroken: lateness.finished(between: broken.0.addingTimeInterval(2), and: broken.1),
                                        alerts: alerts)
        }
        let planned = Set(HostGroup.allCases.flatMap(\.hosts))
        let others = Set(alerts.map(\.host)).subtracting(planned)
        accounts.append(AlertAccount.account(group: "never broken", hosts: Array(others), expectedPerHost: 0, window: nil, alerts: alerts))
        for account in accounts {
            let expected = (account.hosts - account.checkedOnce.count) * account.expectedPerHost
            var want = "\(expected) opened, as many resolved"
            if !account.checkedOnce.isEmpty { want += " (\(account.checkedOnce.count) hosts checked once while broken)" }
            var result = "\(account.opened) opened, \(account.resolved) resolved"
            if !account.wrongHosts.isEmpty { result += "; \(account.wrongHosts.count) hosts off (\(account.wrongHosts.prefix(3).joined(separator: ", ")))" }
            if account.outOfWindow > 0 { result += "; \(account.outOfWindow) outside their window" }
            if !account.rules.isEmpty { result += "; rules: \(account.rules.sorted().joined(separator: ", "))" }
            let hosts = account.group == "never broken" ? "\(others.count) alerted of \(options.domains - planned.count)" : "\(account.hosts)"
            print("| alerts, \(account.group) (\(hosts) hosts) | \(account.group == "never broken" ? "0" : want) | \(result)\(account.exact ? "" : " ✗") |")
        }

        // Every outbox row: alert events (opened, resolved) and the news of a changed file (published, no alert).
        let deliveries = try database.rows("""
            SELECT d.idempotency_id, c.target, d.state, d.attempts, d.event FROM deliveries d JOIN channels c ON c.id = d.channel_id
            """).map { row in
            (record: DeliveryRecord(key: try row.decode(0), receiver: try row.decode(1), state: try row.decode(2), attempts: try row.decode(3)),
             event: try row.decode(4, as: String.self))
        }
        let events = alerts.count + alerts.filter(\.resolved).count
        let alertRows = deliveries.filter { $0.event == "opened" || $0.event == "resolved" }.count
        let published = deliveries.filter { $0.event == "published" }.count
        print("| outbox rows for \(events) alert events × 2 webhooks; besides, 'published' (a file changed) | \(events * 2) | \(alertRows); \(published) |")
        var duplicateCauses: [String: Int] = [:]
        for (name, receiver) in [("down 10 min", down!), ("slow", slow!)] {
            var accepted: [String: Int] = [:]
            var firstAccepted: [String: Date] = [:]
            for request in receiver.requests() where (200..<300).contains(request.answeredStatus) {
                let key = request.headers["webhook-id"] ?? ""
                accepted[key, default: 0] += 1
                firstAccepted[key] = min(firstAccepted[key] ?? request.receivedAt, request.receivedAt)
            }
            let account = DeliveryAccount.account(receiver: name, rows: deliveries.filter { $0.record.receiver == receiver.url }.map(\.record),
                                                  accepted: accepted)
            print("| webhook '\(name)': keys accepted exactly once / outbox rows | all | \(account.acceptedOnce) / \(account.rows) "
                  + "(sent \(account.sent), pending \(account.pending), failed \(account.failed); most attempts \(account.maxAttempts)) |")
            print("| webhook '\(name)': lost (never accepted); accepted twice or more; keys no row has | 0; 0; 0 | \(account.lost.count); "
                  + "\(account.duplicated.count); \(account.strays) |")
            for duplicate in account.duplicated {
                duplicateCauses[cause(ofDuplicateAcceptedAt: firstAccepted[duplicate.key]), default: 0] += 1
            }
        }
        if !duplicateCauses.isEmpty {
            print("| duplicates by cause (the receiver had the whole request when the sender's attempt was cut) | | "
                  + duplicateCauses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ") + " |")
        }
        print("| outbox to 'down' drained after it came back (\(pendingAtReturn) pending then) | | "
              + (drainSeconds.map { String(format: "%.0f s", $0) } ?? "not drained") + " |")
        print("| PostgreSQL start after the fast / immediate shutdown, s | | "
              + String(format: "%.1f / %.1f", postgresDowntime["fast"] ?? -1, postgresDowntime["immediate"] ?? -1) + " |")
        for name in ["serve", "worker 0", "worker 1"] {
            let first = rssAtStart[name], last = endMemory[name]
            let note = name == "worker 1" ? " (its last generation of \(generations[1]); killed ones had " + killedWorkerRSS.map { "\($0 / 1024)" }.joined(separator: ", ") + " MB)" : ""
            print("| RSS \(name) at 1 min / at the end (peak), MB\(note) | flat | \((first?.rss ?? 0) / 1024) / \((last?.rss ?? 0) / 1024) (\((last?.peak ?? 0) / 1024)) |")
        }
        print("| worker starts refused while PostgreSQL was down (exit 70, restarted 2 s later) | | \(refusedStarts) |")
        print("| processes that exited unexpectedly | 0 | \(unexpectedExits.count)\(unexpectedExits.isEmpty ? "" : ": " + unexpectedExits.joined(separator: "; ")) |")

        let files = ((try? FileManager.default.contentsOfDirectory(atPath: logs.path)) ?? []).filter { $0.hasSuffix(".err") }.sorted()
        var lines: [String] = []
        for file in files { lines += log(file).split(separator: "\n").map(String.init) }
        print("\nStandard error of serve and the workers (\(files.count) logs, \(lines.count) lines), by kind:")
        for (kind, count) in LogKinds.count(lines).prefix(30) { print(String(format: "%7d  ", count) + kind) }
        if !late.isEmpty {
            print("\nLate checks (first 20): " + late.prefix(20).map { "\($0.host) " + String(format: "%.0f s", $0.seconds) }.joined(separator: ", "))
        }
        print("\nTimeline:")
        timeline.forEach { print("  " + $0) }
    }
}
