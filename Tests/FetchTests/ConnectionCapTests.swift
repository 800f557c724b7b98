import AASA
import Fetch
import Foundation
import TestSupport
import Testing
import Vocabulary

@Suite struct ConnectionCapTests {
    /// Five fetches towards one address with a cap of two: two connect, three wait in our queue
    /// (not in curl's), and the server never has more than two open at once.
    @Test func perAddressCapHoldsBackTheRest() async throws {
        try await TestTLSFleet.with { fleet in
            var configuration = try FetchConfiguration.fleet(fleet)
            configuration.maxConnectionsPerAddress = 2
            // Long enough that the held-back state lasts well past a 20 ms poll, even under load.
            configuration.connectTimeout = .seconds(3)
            configuration.totalTimeout = .seconds(3)
            let fetcher = try Fetcher(configuration)
            let host = try HostName(fleet.host("hang"))
            let results = ResultCollector()
            for _ in 0..<5 {
                Task { await results.add(await fetcher.fetch(.wellKnown, of: host)) }
            }
            let deadline = Date().addingTimeInterval(60)
            var seenHeldBack = false
            var overCapBefore = 0
            while Date() < deadline, await results.count < 5 {
                let stats = fetcher.statistics
                #expect(stats.busiestAddressInFlight <= 2)
                // Every well-known request opens its own connection, so closed ones are not counted.
                // A timed-out connection is closed before the next one opens, but on a loaded machine
                // its FIN can still wait in the kernel while the next connection is accepted, so one
                // poll may count it. A real third connection stays open until its 3 s timeout: it
                // shows in two polls in a row.
                let open = fleet.hangServer.openConnections
                #expect(open <= 2 || overCapBefore <= 2, "\(overCapBefore), then \(open) connections open at the server")
                overCapBefore = open
                if stats.inFlight == 2, stats.queued >= 1 { seenHeldBack = true }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(seenHeldBack, "never saw two in flight and the rest queued")
            #expect(await results.count == 5, "statistics at the deadline: \(fetcher.statistics)")
            #expect(await results.kinds == [.timeout])
            // Fewer than five is fine: transfers to one host wait to share one HTTP/2 connection (PIPEWAIT).
            #expect((1...5).contains(fleet.hangServer.acceptedConnections))
            fetcher.shutdown()
        }
    }

    actor ResultCollector {
        var facts: [TransportFacts] = []
        func add(_ f: TransportFacts) { facts.append(f) }
        var count: Int { facts.count }
        var kinds: Set<FetchFailure.Kind> { Set(facts.compactMap { $0.failure?.kind }) }
    }
}
