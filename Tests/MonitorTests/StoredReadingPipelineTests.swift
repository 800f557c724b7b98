import AASA
import AssetLinks
import Foundation
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Monitor

/// The reading the pipeline stores with a file new to the domain is made from the check's own parse
/// of it (each file is parsed once per check, issue #29): it must be what the platform's core reads
/// from the stored bytes — the origin's AASA, Apple's CDN copy (re-encoded, and one that behaves
/// differently), and assetlinks.json.
@Suite(.serialized) struct StoredReadingPipelineTests {
    @Test func aNewFilesStoredReadingIsWhatItsCoreReadsOfItsBytes() async throws {
        try await withFleetPipeline(serving: shopFile(), checkCDN: true) { fleet, database, pipeline in
            try fleet.deploy(PlatformSettingPipelineTests.assetLinks, at: "/.well-known/assetlinks.json")
            // good.fleet.test: the CDN serves its file re-encoded (same behaviour, other bytes); the other
            // host's copy behaves differently (an older file).
            try fleet.serveCDNCopy(Array(shopFile(excludeBuy: true).utf8), for: "both-files.fleet.test")
            for host in ["good.fleet.test", "both-files.fleet.test"] {
                _ = try database.importDomain(host: host, displayName: host, wildcard: false, appIDs: [])
            }
            #expect(try await checkDueDomains(pipeline).count == 2)
            let stored = try database.rows("SELECT platform, sha256, body FROM association_versions ORDER BY id")
            var platforms: [Platform] = []
            for row in stored {
                let key = VersionKey(try row.decode("platform"), sha256: try row.decode("sha256"))
                let body: [UInt8] = try row.decode("body")
                platforms.append(key.platform)
                switch key.platform {
                case .apple:
                    guard case .read(let reading)? = try database.versionReading(key, of: AASADocument.self) else {
                        Issue.record("\(key.sha256): stored without its reading")
                        continue
                    }
                    #expect(reading == VersionReading(aasa: body), "\(key.sha256)")
                    #expect(reading.document != nil)
                case .android:
                    guard case .read(let reading)? = try database.versionReading(key, of: AssetLinksFile.self) else {
                        Issue.record("\(key.sha256): stored without its reading")
                        continue
                    }
                    #expect(reading == VersionReading(assetLinks: body), "\(key.sha256)")
                    #expect(reading.document?.statements.isEmpty == false)
                }
            }
            // Two origin AASAs, two CDN copies, one assetlinks.json (the same bytes for both hosts).
            #expect(platforms.filter { $0 == .apple }.count == 4 && platforms.filter { $0 == .android }.count == 1, "\(platforms)")
        }
    }
}
