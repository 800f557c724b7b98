import AASA
@testable import Fetch
import Foundation
import Outbound
import Synchronization
import TestSupport
import Testing
import Vocabulary

/// The outbound policy against real resolution and real connections.
@Suite struct OutboundPolicyLiveTests {
    @Test func nameResolvingToLoopbackIsRefusedWithoutOptIn() async throws {
        let fetcher = try Fetcher(FetchConfiguration(checkCDN: false, compareUserAgents: false))
        defer { fetcher.shutdown() }
        let check = await fetcher.check(try HostName("localhost"))
        #expect(check.wellKnown.failure?.kind == .addressRefused)
        #expect(check.wellKnown.status == nil && check.root == nil)
        #expect(check.report.codes == ["address-refused"])
        #expect(check.report.couldNotCheck)
        let message = try #require(check.report.findings.first?.message)
        #expect(message.contains("localhost resolves to") && message.contains("loopback"), "\(message)")
    }

    @Test func connectToLoopbackIsRefusedWithoutOptIn() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(.fleet(fleet, allowPrivate: false))
            defer { fetcher.shutdown() }
            let facts = await fetcher.fetch(.wellKnown, of: try HostName(fleet.host("good")))
            #expect(facts.failure?.kind == .addressRefused)
            #expect(facts.failure?.message.contains("127.0.0.1, which is loopback 127.0.0.0/8") == true)
            #expect(facts.status == nil)
        }
    }

    /// A resolver whose first answer is the fleet (127.0.0.1) and every later answer another
    /// loopback address where nothing listens: a DNS-rebinding attacker in miniature.
    final class RebindingResolver: HostResolver {
        let calls = Mutex<[String]>([])
        func resolve(_ name: String) -> Result<[IPAddress], ResolveError> {
            let count = calls.withLock { $0.append(name); return $0.count }
            return .success([count == 1 ? .v4(0x7F00_0001) : .v4(0x7F00_0002)])
        }
    }

    @Test func connectionGoesToTheCheckedAddress() async throws {
        try await TestTLSFleet.with { fleet in
            let resolver = RebindingResolver()
            var configuration = try FetchConfiguration.fleet(fleet)
            // Every name goes through a name only our resolver knows, so curl cannot resolve it itself.
            configuration.connectTo = [try ConnectToRule(parsing: "::rebind.fleet.test:\(fleet.port)")]
            configuration.resolver = resolver
            configuration.checkCDN = false
            let fetcher = try Fetcher(configuration)
            defer { fetcher.shutdown() }

            let first = await fetcher.check(try HostName(fleet.host("good")))
            #expect(first.wellKnown.status == 200 && first.root?.status == 404 && first.plainUserAgent?.status == 200)
            #expect(first.wellKnown.ipAddress == "127.0.0.1")
            // One resolution per check, shared by every request of the check: no second lookup to rebind.
            #expect(resolver.calls.withLock { $0 } == ["rebind.fleet.test"])

            // The next check (another name, so no pooled connection can be reused) gets the rebound
            // answer, and the connection follows the *checked* address, where nothing listens.
            let second = await fetcher.check(try HostName(fleet.host("both")))
            #expect(second.wellKnown.failure?.kind == .refused, "\(String(describing: second.wellKnown.failure))")
            #expect(resolver.calls.withLock { $0.count } == 2)
        }
    }

    @Test func socketCallbackRefusesAnUnpinnedAddress() async throws {
        try await TestTLSFleet.with { fleet in
            let loop = TransferLoop(settings: TransferSettings(caFile: nil, bodyLimit: 1 << 20, measureLimit: 1 << 20,
                                                               connectTimeoutMilliseconds: 30_000, totalTimeoutMilliseconds: 60_000),
                                    maxTotal: 4, maxPerAddress: 4)
            defer { loop.shutdown() }
            // Pinned to 127.0.0.9, but curl is told to connect to 127.0.0.1: the socket callback must refuse.
            let request = TransferRequest(location: .wellKnown, url: "https://good.fleet.test/.well-known/apple-app-site-association",
                                          host: "good.fleet.test", port: 443, userAgent: "test",
                                          connectTarget: ("127.0.0.1", fleet.port),
                                          pinnedAddresses: [try #require(IPAddress("127.0.0.9"))], dnsSeconds: 0,
                                          wantCertificate: false)
            let facts = await withCheckedContinuation { continuation in
                loop.submit(request) { continuation.resume(returning: $0) }
            }
            #expect(facts.failure?.kind == .addressRefused, "\(String(describing: facts.failure))")
        }
    }
}
