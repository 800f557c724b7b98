import AASA
import Fetch
import Foundation
import Synchronization
import TestSupport
import Testing
import Vocabulary

/// A fetcher that lives for many checks (the crawler's) keeps connections between them; every check
/// must still report the certificate of every location, or the dashboard loses it and expiry is judged
/// on nothing. Apple's CDN connection is shared by every check on purpose (and HTTP/2 carries a check's
/// requests on one connection): the transfers that reuse a connection report what its handshake showed.
@Suite(.serialized) struct RepeatCheckTests {
    @Test func everyCheckOfTheSameHostReportsTheCertificate() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(.fleet(fleet))
            defer { fetcher.shutdown() }
            let host = try HostName(fleet.host("both"))
            for round in 1...3 {
                let check = await fetcher.check(host)
                #expect(check.wellKnown.status == 200, "round \(round)")
                #expect(check.wellKnown.tls?.notAfter != nil, "round \(round): the well-known request has no certificate facts")
                #expect(check.root?.tls?.notAfter != nil, "round \(round): the root request has no certificate facts")
                #expect(check.cdn?.status == 200, "round \(round)")
                #expect(check.cdn?.tls?.notAfter != nil, "round \(round): the CDN request has no certificate facts")
                #expect(check.cdn?.tls?.trusted == true, "round \(round)")
                #expect(check.cdn?.tls?.subjectAltNames.contains("*.fleet.test") == true, "round \(round)")
            }
        }
    }

    /// Many checks at once share the CDN connection (HTTP/2 streams started while it is being opened
    /// and later); each reports the CDN certificate, and a host with another certificate its own.
    @Test func concurrentChecksEachReportTheirCertificates() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(.fleet(fleet))
            defer { fetcher.shutdown() }
            let hosts = try (1...24).map { _ in try HostName(fleet.host("both")) } + [try HostName(fleet.host("expired"))]
            for round in 1...2 {
                let checks = Mutex<[AppleCheck]>([])
                await fetcher.check(hosts, maxInFlight: 32) { check in checks.withLock { $0.append(check) } }
                let all = checks.withLock { $0 }
                #expect(all.count == hosts.count)
                for check in all {
                    let label = "round \(round), \(check.host.ascii)"
                    #expect(check.cdn?.tls?.notAfter != nil && check.cdn?.tls?.trusted == true, "\(label): CDN")
                    if check.host.ascii.hasPrefix("expired.") {
                        #expect(check.wellKnown.tls?.trusted == false, "\(label)")
                        #expect(check.wellKnown.tls?.subjectAltNames == ["expired.fleet.test"], "\(label)")
                    } else {
                        #expect(check.wellKnown.tls?.subjectAltNames.contains("*.fleet.test") == true, "\(label)")
                        #expect(check.root?.tls?.notAfter != nil, "\(label): root")
                    }
                }
            }
        }
    }

    /// The remembered certificates are those of open connections: closing one forgets it, so a crawl
    /// over many hosts holds no more than curl's connection cache.
    @Test func closedConnectionsAreForgotten() async throws {
        try await TestTLSFleet.with { fleet in
            var configuration = try FetchConfiguration.fleet(fleet)
            configuration.maxConnections = 4
            configuration.maxConnectionsPerAddress = 4
            configuration.checkCDN = false
            let fetcher = try Fetcher(configuration)
            defer { fetcher.shutdown() }
            let hosts = try (1...40).map { try HostName("crawl\($0).fleet.test") }
            let seen = Mutex(0)
            await fetcher.check(hosts, maxInFlight: 8) { check in
                if check.wellKnown.tls?.notAfter != nil { seen.withLock { $0 += 1 } }
            }
            #expect(seen.withLock { $0 } == hosts.count)
            // The loop publishes its counts after each turn; the last turn ends right after the last completion.
            let deadline = ContinuousClock.now + .seconds(60)
            while fetcher.statistics.completed < hosts.count * 3, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let remembered = fetcher.statistics.connectionsWithCertificates
            #expect(remembered > 0 && remembered <= 4, "\(remembered) remembered with at most 4 connections open")
        }
    }
}
