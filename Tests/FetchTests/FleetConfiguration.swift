import Fetch
import Outbound
import TestSupport

extension FetchConfiguration {
    /// Points a fetcher at the fleet: its names go to loopback, its CA is trusted, its fake CDN is
    /// asked, and loopback is allowed (the opt-in production never sets). The timeouts are
    /// generous: a fetch that must succeed may not fail because a loaded machine was slow; tests
    /// that need a timeout to happen (hang, drip) set short ones themselves.
    static func fleet(_ fleet: TestTLSFleet, allowPrivate: Bool = true) throws -> FetchConfiguration {
        FetchConfiguration(
            policy: OutboundPolicy(allowPrivateAddresses: allowPrivate),
            cdnBase: fleet.cdnBase,
            extraCAFile: fleet.caFile,
            connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
            connectTimeout: .seconds(30),
            totalTimeout: .seconds(60),
            resolverThreads: 2)
    }
}
