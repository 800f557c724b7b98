import Fetch
import TestSupport

extension FetchConfiguration {
    /// Points a fetcher at the fleet: its names go to loopback, its CA is trusted, its fake CDN is
    /// asked, and loopback is allowed (the opt-in production never sets).
    static func fleet(_ fleet: TestTLSFleet, allowPrivate: Bool = true) throws -> FetchConfiguration {
        FetchConfiguration(
            policy: OutboundPolicy(allowPrivateAddresses: allowPrivate),
            cdnBase: fleet.cdnBase,
            extraCAFile: fleet.caFile,
            connectTo: try fleet.connectTo.map { try ConnectToRule(parsing: $0) },
            connectTimeout: .seconds(2),
            totalTimeout: .seconds(3),
            resolverThreads: 2)
    }
}
