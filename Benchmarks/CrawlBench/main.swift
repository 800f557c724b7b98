// Crawl benchmark (issue 4): N host names under one test domain, served by nginx with one wildcard
// certificate on loopback. Compares the fetcher's full check rate (fetch + validation + report)
// with `curl --parallel --parallel-max K` fetching the same URL list in the same run, and reports
// peak RSS. Build in release: swift build -c release --product CrawlBench
//
//   CrawlBench [--hosts 1000,10000] [--parallel 64] [--rounds 2]
import Fetch
import Foundation
import Glibc
import Outbound
import TestSupport
import Vocabulary

struct Options {
    var hostCounts = [1000, 10000]
    var parallel = 64
    var rounds = 2

    init(_ arguments: [String]) {
        var i = 1
        while i < arguments.count {
            let value = i + 1 < arguments.count ? arguments[i + 1] : ""
            switch arguments[i] {
            case "--hosts": hostCounts = value.split(separator: ",").compactMap { Int($0) }; i += 1
            case "--parallel": parallel = Int(value) ?? parallel; i += 1
            case "--rounds": rounds = Int(value) ?? rounds; i += 1
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

func peakRSSMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024   // ru_maxrss is in KiB on Linux
}

/// One fetcher run: every host checked once (well-known only, as curl fetches), validation included.
func runFetcher(_ hosts: [HostName], fleet: TestTLSFleet, parallel: Int, full: Bool) async throws -> (rate: Double, ok: Int) {
    var configuration = FetchConfiguration(
        policy: OutboundPolicy(allowPrivateAddresses: true),
        cdnBase: fleet.cdnBase,
        checkCDN: full,
        rootLocation: full ? .always : .whenWellKnownFails,
        compareUserAgents: full,
        extraCAFile: fleet.caFile,
        connectTo: [try ConnectToRule(parsing: "::127.0.0.1:\(fleet.port)")],
        maxConnections: parallel,
        maxConnectionsPerAddress: parallel)
    configuration.totalTimeout = .seconds(60)
    configuration.connectTimeout = .seconds(30)
    let fetcher = try Fetcher(configuration)
    defer { fetcher.shutdown() }
    let passed = Counter()
    let start = ContinuousClock.now
    await fetcher.check(hosts, maxInFlight: parallel * 4) { check in
        // The full check also asks the fake CDN, which has no copy of these names (cdn-failure).
        if check.wellKnown.status == 200, full || check.report.verdict != .fail { await passed.increment() }
    }
    let elapsed = seconds(since: start)
    return (Double(hosts.count) / elapsed, await passed.value)
}

actor Counter {
    var value = 0
    func increment() { value += 1 }
}

/// curl fetching the same `.well-known` URLs with the same trust setup as the fetcher (the test CA
/// as a file plus the system roots as a hashed directory) and the same parallelism.
func runCurl(_ hosts: [HostName], fleet: TestTLSFleet, parallel: Int, scratch: URL) throws -> (rate: Double, ok: Int, rssMB: Double) {
    let config = scratch.appendingPathComponent("urls-\(hosts.count).cfg")
    var text = ""
    for host in hosts {
        text += "url = \"https://\(host.ascii)/.well-known/apple-app-site-association\"\noutput = \"/dev/null\"\n"
    }
    try Data(text.utf8).write(to: config)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    let rssFile = scratch.appendingPathComponent("curl-rss")
    let outFile = scratch.appendingPathComponent("curl-out")
    FileManager.default.createFile(atPath: outFile.path, contents: nil)
    process.arguments = ["-f", "%M", "-o", rssFile.path, "curl", "--silent", "--parallel", "--parallel-max", "\(parallel)",
                         "--parallel-immediate",
                         "--connect-to", "::127.0.0.1:\(fleet.port)", "--cacert", fleet.caFile, "--capath", "/etc/ssl/certs",
                         "--user-agent", "AASA-Bot/1.0.0", "--compressed",
                         "--write-out", "%{http_code}\\n", "--config", config.path]
    let out = try FileHandle(forWritingTo: outFile)
    defer { try? out.close() }
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    let elapsed = seconds(since: start)
    let codes = String(decoding: try Data(contentsOf: outFile), as: UTF8.self).split(separator: "\n")
    let rss = Double(String(decoding: try Data(contentsOf: rssFile), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last.map(String.init) ?? "") ?? 0
    return (Double(hosts.count) / elapsed, codes.filter { $0 == "200" }.count, rss / 1024)
}

let options = Options(CommandLine.arguments)
let fleet = try TestTLSFleet(workerProcesses: 1)
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("crawl-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
print("crawl-bench: nginx (1 worker, wildcard certificate) on 127.0.0.1:\(fleet.port); parallelism \(options.parallel); \(options.rounds) round(s), best of each")
print("| hosts | curl checks/s | fetcher checks/s (well-known + validation) | ratio | fetcher full checks/s (4 requests + validation) | curl peak RSS MB | fetcher peak RSS MB |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for count in options.hostCounts {
    let width = String(count).count
    let hosts = try (1...count).map { i -> HostName in
        let digits = String(i)
        return try HostName("h\(String(repeating: "0", count: width - digits.count))\(digits)-\(count).fleet.test")
    }
    var bestCurl = 0.0, bestFetcher = 0.0, bestFull = 0.0, curlRSS = 0.0
    var notes: [String] = []
    for _ in 0..<options.rounds {
        let curl = try runCurl(hosts, fleet: fleet, parallel: options.parallel, scratch: scratch)
        bestCurl = max(bestCurl, curl.rate)
        curlRSS = max(curlRSS, curl.rssMB)
        if curl.ok != count { notes.append("curl: \(count - curl.ok) not 200") }
        let fetcher = try await runFetcher(hosts, fleet: fleet, parallel: options.parallel, full: false)
        bestFetcher = max(bestFetcher, fetcher.rate)
        if fetcher.ok != count { notes.append("fetcher: \(count - fetcher.ok) not passing") }
    }
    let full = try await runFetcher(hosts, fleet: fleet, parallel: options.parallel, full: true)
    bestFull = full.rate
    if full.ok != count { notes.append("fetcher full: \(count - full.ok) not passing") }
    print(String(format: "| %d | %.0f | %.0f | %.2f× | %.0f | %.1f | %.1f |", count, bestCurl, bestFetcher, bestFetcher / bestCurl,
                 bestFull, curlRSS, peakRSSMegabytes()) + (notes.isEmpty ? "" : "  (\(notes.joined(separator: "; "))))"))
}
// Top-level `defer` does not run before an async main returns: clean up explicitly.
fleet.stop()
try? FileManager.default.removeItem(at: scratch)
