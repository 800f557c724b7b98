// Handshake economy (issue 17): what the certificate cadence, kept connections, TLS session resumption
// and conditional fetches save on an unchanged check, with one fetcher living across rounds as a
// worker's does. "Before" reads the certificate on a full handshake and fetches in full on every check
// (`certificate: 0, fullFetch: 0`, the behaviour before); "after" is the default cadences. Handshakes
// are nginx's own count: a request that is its connection's first (`$connection_requests` 1) opened
// the connection, and `$ssl_session_reused` says whether that handshake was resumed.
import Fetch
import Foundation
import Monitor
import Store
import TestSupport
import Vocabulary

struct HandshakeFigures {
    var rate = 0.0
    var requestsPerCheck = 0.0
    /// New connections to the sites per check, full handshakes and resumed ones among them.
    var fullHandshakes = 0.0, resumed = 0.0
    var notModified = 0.0
}

func handshakeRound(_ database: Database, fleet: TestTLSFleet, parallel: Int, cadence: SecondaryCadence, expected: Int,
                    fetcher: Fetcher) async throws -> HandshakeFigures {
    let before = fleet.requests().count
    let (rate, requests) = try await economyRound(database, fleet: fleet, parallel: parallel, cadence: cadence,
                                                  expected: expected, fetcher: fetcher)
    let sites = fleet.requests().dropFirst(before).filter { $0.host != "cdn.fleet.test" && $0.host != "dal.fleet.test" }
    let opened = sites.filter { $0.connectionRequest == 1 }
    let n = Double(expected)
    return HandshakeFigures(rate: rate, requestsPerCheck: requests,
                            fullHandshakes: Double(opened.filter { !$0.sessionReused }.count) / n,
                            resumed: Double(opened.filter(\.sessionReused).count) / n,
                            notModified: Double(sites.filter { $0.status == 304 }.count) / n)
}

/// The process's resident memory in MB (VmRSS).
func residentMegabytes() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
}

func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
}

func handshakeEconomy(domains: Int, parallel: Int, rounds: Int, fleet: TestTLSFleet) async throws {
    print("monitor-bench --handshakes: \(domains) domains (both files, CDN copy and Google agreeing), parallelism \(parallel), one fetcher per run across \(rounds) unchanged rounds; load \(loadAverage())")
    let hosts = try economyHosts(domains, fleet: fleet)
    try await TestPostgres.withDatabase(poolSize: 16) { database in
        for host in hosts {
            _ = try database.importDomain(host: host.ascii, displayName: host.unicode, wildcard: false, appIDs: [])
        }
        let everyHandshake = SecondaryCadence(certificate: 0, fullFetch: 0)
        var rows: [(String, HandshakeFigures)] = []
        for (name, cadence) in [("before: full handshake and full fetch every check", everyHandshake),
                                ("after: default cadences (certificate 6 h, full fetch daily)", SecondaryCadence())] {
            let rssBefore = residentMegabytes()
            let fetcher = try Fetcher(try fullConfiguration(fleet, parallel: parallel))
            // The first round stores (or re-stamps); the measured rounds are unchanged checks.
            _ = try await handshakeRound(database, fleet: fleet, parallel: parallel, cadence: cadence, expected: domains, fetcher: fetcher)
            var measured: [HandshakeFigures] = []
            for _ in 0..<rounds {
                measured.append(try await handshakeRound(database, fleet: fleet, parallel: parallel, cadence: cadence,
                                                         expected: domains, fetcher: fetcher))
            }
            let rss = residentMegabytes() - rssBefore
            fetcher.shutdown()
            var mean = HandshakeFigures()
            let k = Double(max(measured.count, 1))
            mean.rate = measured.map(\.rate).max() ?? 0
            mean.requestsPerCheck = measured.map(\.requestsPerCheck).reduce(0, +) / k
            mean.fullHandshakes = measured.map(\.fullHandshakes).reduce(0, +) / k
            mean.resumed = measured.map(\.resumed).reduce(0, +) / k
            mean.notModified = measured.map(\.notModified).reduce(0, +) / k
            rows.append(("\(name) (rounds: " + measured.map { String(format: "%.0f", $0.rate) }.joined(separator: " / ")
                         + String(format: " checks/s; RSS +%.0f MB)", rss), mean))
        }
        print("| run | checks/s (best) | requests per check | full handshakes per check | resumed per check | 304s per check |")
        print("|---|---:|---:|---:|---:|---:|")
        for (name, f) in rows {
            print("| \(name) " + String(format: "| %.0f | %.2f | %.2f | %.2f | %.2f |", f.rate, f.requestsPerCheck, f.fullHandshakes, f.resumed, f.notModified))
        }
        if rows.count == 2, rows[0].1.rate > 0, rows[1].1.fullHandshakes > 0 {
            print(String(format: "\nafter / before: %.2f× the checks per second; %.2f× the full handshakes", rows[1].1.rate / rows[0].1.rate,
                         rows[1].1.fullHandshakes / rows[0].1.fullHandshakes))
        }
        print("load after: \(loadAverage())")
    }
}
