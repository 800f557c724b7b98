import AASA
import Fetch
import Foundation
import TestSupport
import Testing
import Vocabulary

@Suite struct ConnectionCapTests {
    /// Five fetches towards one address with a cap of two: two connect, three wait in our queue
    /// (not in curl's), and the server never has more than two open at once. Five host names, so that
    /// it is the address cap that holds them back, not the wait for one origin's connection.
    @Test func perAddressCapHoldsBackTheRest() async throws {
        try await TestTLSFleet.with { fleet in
            var configuration = try FetchConfiguration.fleet(fleet)
            let names = (1...5).map { "hang\($0).\(TestTLSFleet.domain)" }
            configuration.connectTo = try names.map { try ConnectToRule(parsing: "\($0):443:127.0.0.1:\(fleet.hangServer.port)") }
                + configuration.connectTo
            configuration.maxConnectionsPerAddress = 2
            // Long enough that the held-back state lasts well past a 20 ms poll, even under load.
            configuration.connectTimeout = .seconds(3)
            configuration.totalTimeout = .seconds(3)
            let fetcher = try Fetcher(configuration)
            let hosts = try names.map { try HostName($0) }
            let results = ResultCollector()
            for host in hosts {
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
            // Fewer than five is fine: behind one connect-to address, curl's PIPEWAIT keeps a transfer
            // waiting for a connection still opening, which here never opens.
            #expect((1...5).contains(fleet.hangServer.acceptedConnections))
            fetcher.shutdown()
        }
    }

    /// Two fetches of one host that accepts and never answers: the second waits for the first's
    /// connection only so long (OriginGate's patience), then opens its own, so both time out about
    /// together instead of one after the other.
    @Test func aHangingHostsSecondRequestStopsWaitingForTheFirst() async throws {
        try await TestTLSFleet.with { fleet in
            var configuration = try FetchConfiguration.fleet(fleet)
            configuration.connectTimeout = .seconds(20)
            configuration.totalTimeout = .seconds(20)
            let fetcher = try Fetcher(configuration)
            let host = try HostName(fleet.host("hang"))
            let results = ResultCollector()
            for _ in 0..<2 {
                Task { await results.add(await fetcher.fetch(.wellKnown, of: host)) }
            }
            let deadline = Date().addingTimeInterval(60)
            var mostInFlight = 0
            while Date() < deadline, await results.count < 2 {
                mostInFlight = max(mostInFlight, fetcher.statistics.inFlight)
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(mostInFlight == 2, "the second never started before the first ended")
            #expect(await results.kinds == [.timeout])
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
