import Foundation
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Monitor

/// The per-domain platform setting through the real pipeline (real PostgreSQL, the HTTPS fleet
/// serving both files): a domain watched for Apple only never asks for assetlinks.json.
@Suite(.serialized) struct PlatformSettingPipelineTests {
    static let assetLinks = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["AA:\#(Array(repeating: "11", count: 31).joined(separator: ":"))"]}}]"#

    @Test func anAppleOnlyDomainIsNotCheckedForAndroidWhileBothIs() async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            let url = fleet.directory.appendingPathComponent("www/_default/.well-known/assetlinks.json")
            try Data(Self.assetLinks.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
            for (host, platforms) in [("apple-side.fleet.test", WatchedPlatforms.apple), ("both-sides.fleet.test", .both)] {
                _ = try database.createDomain(DomainDraft(host: host, displayName: host, wildcard: false, intervalSeconds: 3600,
                                                          badgeEnabled: false, appIDs: [], watchedURLs: [], platforms: platforms),
                                              requestFirstCheck: false)
            }
            for _ in 0..<2 {
                try makeAllDue(database)
                let results = try await checkDueDomains(pipeline)
                let byHost = Dictionary(uniqueKeysWithValues: results.map { ($0.0.host, $0.1.step.check) })
                #expect(results.first { $0.0.host == "apple-side.fleet.test" }?.0.platforms == .apple, "the lease carries the setting")
                #expect(byHost["apple-side.fleet.test"]?.android == nil, "Apple only: no Android result, no Android request")
                #expect(byHost["both-sides.fleet.test"]?.android?.serves == true)
            }
            let appleID = try #require(try database.domain(host: "apple-side.fleet.test")?.id)
            #expect(try database.checks(domainID: appleID, onlyChanges: false, limit: 5).allSatisfy { $0.android == nil })
            #expect(try database.versions(domainID: appleID, platform: .android).isEmpty)
        }
    }
}
