import AASA
@testable import Fetch
import TestSupport
import Testing
import Vocabulary

@Suite struct TrustStoreTests {
    @Test func debianRootsAreAHashedDirectory() {
        #expect(TrustStore.isHashedDirectory("/etc/ssl/certs"))
        #expect(!TrustStore.isHashedDirectory("/usr/share/doc"))
    }

    /// The extra CA is trusted in addition to the system roots, through the hashed directory and
    /// through the combined-bundle fallback alike; without it the fleet's certificate is not.
    @Test func extraCAIsTrustedEitherWay() async throws {
        try await TestTLSFleet.with { fleet in
            let host = try HostName(fleet.host("good"))
            for systemCAPath in ["/etc/ssl/certs", nil] as [String?] {
                var configuration = try FetchConfiguration.fleet(fleet)
                configuration.systemCAPath = systemCAPath
                let fetcher = try Fetcher(configuration)
                let facts = await fetcher.fetch(.wellKnown, of: host)
                fetcher.shutdown()
                #expect(facts.status == 200 && facts.tls?.trusted == true, "\(String(describing: systemCAPath)): \(String(describing: facts.failure))")
            }
            var untrusting = try FetchConfiguration.fleet(fleet)
            untrusting.extraCAFile = nil
            let fetcher = try Fetcher(untrusting)
            let facts = await fetcher.fetch(.wellKnown, of: host)
            fetcher.shutdown()
            #expect(facts.failure?.kind == .tlsUntrusted)
            #expect(facts.tls?.issuer?.contains("aasa-monitor test CA") == true)
        }
    }
}
