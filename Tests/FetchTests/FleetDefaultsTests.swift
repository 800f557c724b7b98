import AssetLinks
import Fetch
import Testing
import TestSupport
import Vocabulary

/// The fleet's answers for a host of no scenario that was given nothing of its own: the benchmarks
/// register up to a million such names and set one default for all of them (SustainedRound.swift).
@Suite struct FleetDefaultsTests {
    @Test func aHostWithoutItsOwnCopyGetsTheDefaultCopyAndGooglesDefaultAnswer() async throws {
        try await TestTLSFleet.with { fleet in
            var configuration = try FetchConfiguration.fleet(fleet)
            configuration.googleDAL = GoogleDALSettings(base: fleet.googleDALBase)
            let fetcher = try Fetcher(configuration)
            defer { fetcher.shutdown() }
            let unnamed = try HostName("unnamed-1.fleet.test"), own = try HostName("unnamed-2.fleet.test")
            func statements(_ answer: GoogleAnswer?) -> [String] {
                guard case .answered(let list, _) = answer else { return ["unavailable"] }
                return list.statements.compactMap(\.packageName)
            }

            // Before any default: Apple's 404 for a host it has no file of; Google reads the host's own
            // (missing) file and lists nothing.
            let before = await fetcher.checkPlatforms(unnamed)
            #expect(before.apple.cdn?.status == 404)
            #expect(before.apple.cdn?.header("apple-failure-reason") == "SWCERR00101 Bad HTTP Response: 404 Not Found")
            #expect(statements(before.android.google).isEmpty)

            try fleet.serveDefaultCDNCopy(FleetFiles.good)
            fleet.googleAPI.setDefault(.frozen(FleetAssetLinks.good))
            try fleet.serveCDNCopy(FleetFiles.previous, for: own.ascii)
            fleet.googleAPI.set(.fetchFailed(["ERROR_CODE_FETCH_ERROR"]), for: own.ascii)

            let after = await fetcher.checkPlatforms(unnamed)
            #expect(after.apple.cdn?.status == 200)
            #expect(after.apple.cdn?.body == FleetFiles.good)
            #expect(statements(after.android.google).contains("com.example.fleet"), "\(String(describing: after.android.google))")
            // A host's own copy and answer still win over the defaults.
            let ownCheck = await fetcher.checkPlatforms(own)
            #expect(ownCheck.apple.cdn?.body == FleetFiles.previous)
            #expect(statements(ownCheck.android.google).isEmpty)
            // A scenario keeps its own answers.
            let scenario = await fetcher.checkPlatforms(try HostName(fleet.host("apple403")))
            #expect(scenario.apple.cdn?.header("apple-failure-reason") == "SWCERR00101 Bad HTTP Response: 403 Forbidden")
        }
    }
}
