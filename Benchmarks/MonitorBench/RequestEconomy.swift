// Request economy (issue 17): what a check costs with both platforms' files per domain, when every
// secondary request is made on every check (the behaviour before cadences, `SecondaryCadence.everyCheck`)
// and with the default cadences; against the fetcher alone and `curl --parallel` in the same run.
// Requests are counted from the fleet's access log (nginx's own count), checks from the pipeline.
import Fetch
import Foundation
import Monitor
import Outbound
import Store
import TestSupport
import Vocabulary

/// Production's fetch settings on the fleet: CDN, Google's API, the comparisons and the root location on.
func fullConfiguration(_ fleet: TestTLSFleet, parallel: Int) throws -> FetchConfiguration {
    var configuration = FetchConfiguration(
        policy: OutboundPolicy(allowPrivateAddresses: true), cdnBase: fleet.cdnBase, checkCDN: true, rootLocation: .always,
        compareUserAgents: true, googleDAL: GoogleDALSettings(base: fleet.googleDALBase), extraCAFile: fleet.caFile,
        connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
        maxConnections: parallel, maxConnectionsPerAddress: parallel)
    configuration.totalTimeout = .seconds(60)
    configuration.connectTimeout = .seconds(30)
    return configuration
}

/// One scheduler run over every domain once; returns checks/s and requests per check (nginx's count).
/// `fetcher`: one that lives across rounds, as a worker's does (kept connections, TLS sessions);
/// nil makes a fresh one for the round.
func economyRound(_ database: Database, fleet: TestTLSFleet, parallel: Int, cadence: SecondaryCadence,
                  expected: Int, fetcher kept: Fetcher? = nil) async throws -> (rate: Double, requestsPerCheck: Double) {
    try database.execute("UPDATE domains SET next_check_at = now() - interval '1 second'")
    let fetcher = try kept ?? Fetcher(try fullConfiguration(fleet, parallel: parallel))
    defer { if kept == nil { fetcher.shutdown() } }
    let scheduler = DomainScheduler(
        pipeline: CheckPipeline(database: database, fetcher: fetcher, schedule: SchedulePolicy(), cadence: cadence),
        configuration: DomainScheduler.Configuration(workerID: "bench", maxInFlight: parallel * 2, batchSize: 128,
                                                     lease: .seconds(600), pollInterval: .milliseconds(50)))
    let done = Tally()
    let stop = StopSignal()
    let before = fleet.requests().count
    let start = ContinuousClock.now
    await scheduler.run(until: stop) { _, _ in
        done.add()
        if done.value >= expected { stop.stop() }
    }
    let rate = Double(expected) / seconds(since: start)
    return (rate, Double(fleet.requests().count - before) / Double(expected))
}

/// The fetcher alone, both platforms: every request (`.everything`) or only the platforms' own fetches.
func economyFetcher(_ hosts: [HostName], fleet: TestTLSFleet, parallel: Int, everything: Bool) async throws -> (rate: Double, requestsPerCheck: Double) {
    let fetcher = try Fetcher(try fullConfiguration(fleet, parallel: parallel))
    defer { fetcher.shutdown() }
    // Plans that ask nothing beyond the platform's own fetch: what an unchanged, settled check needs.
    let settled = PlatformPlan(copyDue: false, comparisonsDue: false, sameAsLast: { _ in true }, carried: [])
    let plan = everything ? PlatformPlan.everything : settled
    let before = fleet.requests().count
    let start = ContinuousClock.now
    await withTaskGroup(of: Void.self) { group in
        var inFlight = 0
        for host in hosts {
            if inFlight >= parallel * 2 { await group.next(); inFlight -= 1 }
            group.addTask { _ = await fetcher.checkPlatforms(host, apple: plan, androidPlan: plan) }
            inFlight += 1
        }
    }
    let rate = Double(hosts.count) / seconds(since: start)
    return (rate, Double(fleet.requests().count - before) / Double(hosts.count))
}

/// `curl --parallel` over the platforms' own URLs (the AASA and assetlinks.json of each host): the
/// physical-limit proxy for a settled check's two requests, on curl's own connection reuse.
func economyCurl(_ hosts: [HostName], fleet: TestTLSFleet, parallel: Int) throws -> Double {
    let config = FileManager.default.temporaryDirectory.appendingPathComponent("economy-\(UUID().uuidString).cfg")
    defer { try? FileManager.default.removeItem(at: config) }
    var text = ""
    for host in hosts {
        // One URL list per host, so curl can reuse the host's connection for its second file.
        text += "url = \"https://\(host.ascii)/.well-known/apple-app-site-association\"\noutput = \"/dev/null\"\n"
        text += "url = \"https://\(host.ascii)/.well-known/assetlinks.json\"\noutput = \"/dev/null\"\n"
    }
    try Data(text.utf8).write(to: config)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["--silent", "--parallel", "--parallel-max", "\(parallel)", "--parallel-immediate",
                         "--connect-to", "::127.0.0.1:\(fleet.port)", "--cacert", fleet.caFile, "--capath", "/etc/ssl/certs",
                         "--compressed", "--config", config.path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    return Double(hosts.count) / seconds(since: start)
}

/// `domains` hosts of nginx's default server serving both files, each with a CDN copy and Google's answer agreeing.
func economyHosts(_ domains: Int, fleet: TestTLSFleet) throws -> [HostName] {
    // Every name under fleet.test that no scenario claims gets nginx's default server: both files there.
    let android = fleet.directory.appendingPathComponent("www/_default/.well-known/assetlinks.json")
    try Data(FleetAssetLinks.good).write(to: android)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: android.path)
    // One default CDN copy and one Google answer for every name, not a file and an entry per host (a
    // million of each at 1M).
    try fleet.serveDefaultCDNCopy(FleetFiles.good)
    fleet.googleAPI.setDefault(.frozen(FleetAssetLinks.good))
    return try (0..<domains).map { try HostName("e\($0).fleet.test") }
}

func requestEconomy(domains: Int, parallel: Int, fleet: TestTLSFleet) async throws {
    print("monitor-bench --economy: \(domains) domains, each serving an AASA and an assetlinks.json, with a CDN copy and Google's answer agreeing; parallelism \(parallel)")
    let hosts = try economyHosts(domains, fleet: fleet)
    try await TestPostgres.withDatabase(poolSize: 16) { database in
        for host in hosts {
            _ = try database.importDomain(host: host.ascii, displayName: host.unicode, wildcard: false, appIDs: [])
        }
        var rows: [(String, Double, Double)] = []
        let curl = try economyCurl(hosts, fleet: fleet, parallel: parallel)
        let allFetch = try await economyFetcher(hosts, fleet: fleet, parallel: parallel, everything: true)
        let ownFetch = try await economyFetcher(hosts, fleet: fleet, parallel: parallel, everything: false)
        // Before: every secondary request on every check. The first round stores the files; the second is unchanged.
        _ = try await economyRound(database, fleet: fleet, parallel: parallel, cadence: .everyCheck, expected: domains)
        let before = try await economyRound(database, fleet: fleet, parallel: parallel, cadence: .everyCheck, expected: domains)
        // After: the default cadences (the rounds before stamped when each request was last made, as a running
        // installation has): three unchanged rounds.
        var afterRounds: [(rate: Double, requestsPerCheck: Double)] = []
        for _ in 0..<3 {
            afterRounds.append(try await economyRound(database, fleet: fleet, parallel: parallel, cadence: SecondaryCadence(), expected: domains))
        }
        let afterRate = afterRounds.map(\.rate).max() ?? 0
        let afterRequests = afterRounds.map(\.requestsPerCheck).reduce(0, +) / Double(max(afterRounds.count, 1))
        let curlAgain = try economyCurl(hosts, fleet: fleet, parallel: parallel)
        let curlRate = (curl + curlAgain) / 2
        rows.append(("fetcher alone, every request (`PlatformPlan.everything`)", allFetch.rate, allFetch.requestsPerCheck))
        rows.append(("fetcher alone, the platforms' own fetches only", ownFetch.rate, ownFetch.requestsPerCheck))
        rows.append(("pipeline, unchanged check, every secondary request every check (before)", before.rate, before.requestsPerCheck))
        rows.append(("pipeline, unchanged check with the default cadences (after; best of 3: "
                     + afterRounds.map { String(format: "%.0f", $0.rate) }.joined(separator: " / ") + ")", afterRate, afterRequests))
        print("| run | checks/s | requests per check | vs curl (2 URLs per domain) | vs fetcher alone, every request |")
        print("|---|---:|---:|---:|---:|")
        print(String(format: "| curl --parallel, AASA + assetlinks.json per domain (before / after the runs) | %.0f (%.0f / %.0f) | 2 | 1.00× | |", curlRate, curl, curlAgain))
        for (name, rate, requests) in rows {
            print("| \(name) " + String(format: "| %.0f | %.2f | %.2f× | %.2f× |", rate, requests, rate / curlRate, rate / allFetch.rate))
        }
        print(String(format: "\nafter / before, unchanged checks: %.2f× the checks per second with %.2f× the requests",
                     afterRate / before.rate, afterRequests / before.requestsPerCheck))
    }
}
