import AASA
import Fetch
import Foundation
import Outbound
import TestSupport
import Testing
import Vocabulary

/// Failure classes and inputs the scenario table does not cover.
@Suite struct FetchEdgeTests {
    struct FailingResolver: HostResolver {
        func resolve(_ name: String) -> Result<[IPAddress], ResolveError> {
            .failure(ResolveError(message: "could not resolve \(name): Name or service not known"))
        }
    }

    @Test func unresolvableNameIsADNSFailure() async throws {
        let fetcher = try Fetcher(FetchConfiguration(checkCDN: false, resolver: FailingResolver()))
        defer { fetcher.shutdown() }
        let check = await fetcher.check(try HostName("no-such-host.example"))
        #expect(check.wellKnown.failure?.kind == .dns)
        #expect(check.report.codes == ["fetch-failed"])
        #expect(check.report.couldNotCheck)
    }

    @Test func bodyPastTheMeasuringLimitIsTooLarge() async throws {
        try await TestTLSFleet.with { fleet in
            var configuration = try FetchConfiguration.fleet(fleet)
            configuration.bodyLimit = 64 * 1024
            configuration.measureLimit = 150 * 1024
            let fetcher = try Fetcher(configuration)
            defer { fetcher.shutdown() }
            let facts = await fetcher.fetch(.wellKnown, of: try HostName(fleet.host("big")))
            #expect(facts.failure?.kind == .tooLarge)
            #expect(facts.status == 200 && facts.bodyTruncated && facts.body.count == 64 * 1024)
            #expect(facts.decodedSize > 150 * 1024)
        }
    }

    @Test func bodyOverTheKeepLimitIsMeasuredNotSwallowed() async throws {
        try await TestTLSFleet.with { fleet in
            var configuration = try FetchConfiguration.fleet(fleet)
            configuration.bodyLimit = 64 * 1024
            let fetcher = try Fetcher(configuration)
            defer { fetcher.shutdown() }
            let facts = await fetcher.fetch(.wellKnown, of: try HostName(fleet.host("big")))
            #expect(facts.failure == nil && facts.bodyTruncated && facts.body.count == 64 * 1024)
            #expect(facts.decodedSize == FleetFiles.large.count)
            #expect(TransportValidator.findings(for: facts).map(\.code) == ["size-over-128k"])
        }
    }

    @Test func unicodeHostIsFetchedAsPunycode() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(try .fleet(fleet))
            defer { fetcher.shutdown() }
            let host = try HostName("Bücher.\(TestTLSFleet.domain)")
            let facts = await fetcher.fetch(.wellKnown, of: host)
            #expect(facts.url == "https://xn--bcher-kva.fleet.test/.well-known/apple-app-site-association")
            #expect(facts.status == 200 && facts.tls?.trusted == true)
        }
    }

    @Test func wildcardIsCheckedAtItsParent() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try Fetcher(try .fleet(fleet))
            defer { fetcher.shutdown() }
            let check = await fetcher.check(try HostName("*.good.\(TestTLSFleet.domain)"))
            #expect(check.wellKnown.url == "https://good.fleet.test/.well-known/apple-app-site-association")
            #expect(check.cdn?.url == "https://cdn.fleet.test/a/v1/good.fleet.test")
            #expect(check.report.verdict == .pass)
        }
    }

    @Test func cdnBaseMustBeHTTPSOn443() {
        #expect(throws: FetchSetupError.self) { try Fetcher(FetchConfiguration(cdnBase: "http://cdn.example/a/v1")) }
        #expect(throws: FetchSetupError.self) { try Fetcher(FetchConfiguration(cdnBase: "https://cdn.example:8443/a/v1")) }
    }
}
