import Foundation
import Store
import Testing
import TestSupport
import Vocabulary
@testable import Monitor

/// The per-domain platform setting through the real pipeline (real PostgreSQL, the HTTPS fleet
/// serving both files): a domain watched for Apple only never asks for assetlinks.json; one watched for
/// Android only never asks for the AASA or Apple's CDN, and its state and alerts are Android's alone.
@Suite(.serialized) struct PlatformSettingPipelineTests {
    static let assetLinks = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["AA:\#(Array(repeating: "11", count: 31).joined(separator: ":"))"]}}]"#

    @Test func anAppleOnlyDomainIsNotCheckedForAndroidWhileBothIs() async throws {
        try await withFleetPipeline(serving: shopFile()) { fleet, database, pipeline in
            try writeAssetLinks(fleet)
            for (host, platforms) in [("apple-side.fleet.test", WatchedPlatforms.apple), ("both-sides.fleet.test", .both)] {
                _ = try database.createDomain(DomainDraft(host: host, displayName: host, wildcard: false, intervalSeconds: 3600,
                                                          badgeEnabled: false, appIDs: [], watchedURLs: [], platforms: platforms),
                                              requestFirstCheck: false)
            }
            for _ in 0..<2 {
                try makeAllDue(database)
                let results = try await checkDueDomains(pipeline)
                let byHost = Dictionary(uniqueKeysWithValues: results.map { ($0.0.host.ascii, $0.1.step.check) })
                #expect(results.first { $0.0.host.ascii == "apple-side.fleet.test" }?.0.platforms == .apple, "the lease carries the setting")
                #expect(byHost["apple-side.fleet.test"]?.android == nil, "Apple only: no Android result, no Android request")
                #expect(byHost["both-sides.fleet.test"]?.android?.serves == true)
            }
            let appleID = try #require(try database.domain(host: "apple-side.fleet.test")?.id)
            #expect(try database.checks(domainID: appleID, onlyChanges: false, limit: 5).allSatisfy { $0.android == nil })
            #expect(try database.versions(domainID: appleID, platform: .android).isEmpty)
        }
    }

    func writeAssetLinks(_ fleet: TestTLSFleet) throws {
        try fleet.deploy(Self.assetLinks, at: "/.well-known/assetlinks.json")
    }

    func create(_ database: Database, _ host: String, _ platforms: WatchedPlatforms) throws {
        _ = try database.createDomain(DomainDraft(host: host, displayName: host, wildcard: false, intervalSeconds: 3600,
                                                  badgeEnabled: false, appIDs: [], watchedURLs: [], platforms: platforms),
                                      requestFirstCheck: false)
    }

    /// Apple's file is broken on every host (not JSON) and Android's passes: the Android-only domain
    /// makes no Apple request (nginx's log), stores no Apple side, passes and opens no alert; the
    /// domain watched for both fails and alerts, as before.
    @Test func anAndroidOnlyDomainAsksNothingOfAppleAndItsStateIsAndroids() async throws {
        try await withFleetPipeline(serving: "this is not JSON", checkCDN: true) { fleet, database, pipeline in
            try writeAssetLinks(fleet)
            try create(database, "android-side.fleet.test", .android)
            try create(database, "both-sides.fleet.test", .both)
            for round in 0..<2 {
                let before = fleet.requests().count
                try makeAllDue(database)
                let results = try await checkDueDomains(pipeline)
                let requests = fleet.requests().dropFirst(before)
                let byHost = Dictionary(uniqueKeysWithValues: results.map { ($0.0.host.ascii, $0.1.step.check) })
                let own = requests.filter { $0.host == "android-side.fleet.test" }
                #expect(own.contains { $0.uri == "/.well-known/assetlinks.json" }, "\(own)")
                #expect(!own.contains { $0.uri.contains("apple-app-site-association") }, "no AASA request: \(own)")
                #expect(!requests.contains { $0.host == "cdn.fleet.test" && $0.uri.contains("android-side") }, "no Apple CDN request")
                // The second round is the retry confirming the other domain's alert: its CDN copy waits for its cadence (issue #31).
                #expect(requests.contains { $0.host == "cdn.fleet.test" && $0.uri.contains("both-sides") } == (round == 0),
                        "the other domain's CDN copy is asked on its first check, not on the retry")
                let androidOnly = try #require(byHost["android-side.fleet.test"])
                #expect(androidOnly.apple == nil && androidOnly.android?.verdict == .pass)
                #expect(androidOnly.certificate?.trusted == true, "the host's certificate, read on Android's fetch (then kept)")
                #expect(byHost["both-sides.fleet.test"]?.apple?.verdict == .fail)
            }
            let androidSide = try #require(try database.domain(host: "android-side.fleet.test"))
            #expect(androidSide.lastVerdict == .pass, "\(androidSide.lastReason?.line ?? "")")
            #expect(try database.domain(host: "both-sides.fleet.test")?.lastVerdict == .fail)
            let stored = try database.checks(domainID: androidSide.id, onlyChanges: false, limit: 5)
            #expect(!stored.isEmpty && stored.allSatisfy { $0.verdict == .pass && $0.findings.isEmpty })
            #expect(try stored.allSatisfy { try database.transport(checkID: $0.id)?.wellKnown == nil })
            #expect(try database.versions(domainID: androidSide.id, platform: .apple).isEmpty)
            #expect(try count(database, "SELECT count(*)::int FROM alerts a JOIN domains d ON d.id = a.domain_id WHERE d.host = 'android-side.fleet.test'") == 0)
            #expect(try count(database, "SELECT count(*)::int FROM alerts a JOIN domains d ON d.id = a.domain_id WHERE d.host = 'both-sides.fleet.test' AND a.state = 'open' AND a.rule = 'origin-invalid'") == 1)
        }
    }

    /// Two domains watched for both stop watching one platform each, and then both files change: the
    /// platform left out is asked nothing (nginx's log: no file, no copy), and nothing of it reaches the
    /// check, its stored row and versions, its events, its notices or the Android timeline; the
    /// platform still watched sees its new file.
    @Test func aPlatformNoLongerWatchedIsNeitherFetchedNorOnTheTimeline() async throws {
        try await withFleetPipeline(serving: shopFile(), checkCDN: true) { fleet, database, pipeline in
            try writeAssetLinks(fleet)
            try create(database, "keeps-apple.fleet.test", .both)
            try create(database, "keeps-android.fleet.test", .both)
            try makeAllDue(database)
            let first = try await checkDueDomains(pipeline)
            #expect(first.allSatisfy { $0.1.step.check.apple != nil && $0.1.step.check.android?.serves == true })
            try database.execute("UPDATE domains SET platforms = 'apple' WHERE host = 'keeps-apple.fleet.test'")
            try database.execute("UPDATE domains SET platforms = 'android' WHERE host = 'keeps-android.fleet.test'")
            // Both files change: a platform still fetched would see a new version and say so.
            try writeDefaultFile(fleet, shopFile(excludeBuy: true))
            try fleet.deploy(Self.assetLinks.replacingOccurrences(of: "com.example.shop", with: "com.example.other"),
                             at: "/.well-known/assetlinks.json")
            for round in 0..<2 {
                let before = fleet.requests().count
                try makeAllDue(database)
                let results = try await checkDueDomains(pipeline)
                let requests = fleet.requests().dropFirst(before)
                let apple = try #require(results.first { $0.0.host.ascii == "keeps-apple.fleet.test" }?.1.step)
                let android = try #require(results.first { $0.0.host.ascii == "keeps-android.fleet.test" }?.1.step)
                #expect(!requests.contains { $0.host == "keeps-apple.fleet.test" && $0.uri.contains("assetlinks") }, "\(requests)")
                #expect(!requests.contains { $0.host == "keeps-android.fleet.test" && $0.uri.contains("apple-app-site-association") })
                #expect(!requests.contains { $0.host == "cdn.fleet.test" && $0.uri.contains("keeps-android") }, "no Apple CDN request")
                #expect(apple.check.android == nil && android.check.apple == nil)
                #expect(android.changes.isEmpty, "no Apple events: \(android.changes)")
                #expect(!apple.alerts.contains { $0.platform == .android } && !android.alerts.contains { $0.platform == .apple })
                // The platform still watched sees its new file, once.
                #expect(apple.changes.contains { if case .versionChanged = $0 { true } else { false } } == (round == 0))
                #expect(android.alerts.contains { $0.kind == .notice && $0.platform == .android } == (round == 0))
            }
            for (host, gone) in [("keeps-apple.fleet.test", Platform.android), ("keeps-android.fleet.test", .apple)] {
                let domain = try #require(try database.domain(host: host))
                #expect(try database.versions(domainID: domain.id, platform: gone).count == 1, "only the first check's \(gone) file")
                // Oldest first: the first check (both), then the ones after the switch.
                let stored = try database.checks(domainID: domain.id, onlyChanges: false, limit: 10).reversed().map { $0 }
                #expect(stored.count >= 2)
                for (previous, current) in zip(stored, stored.dropFirst()) {
                    if gone == .android {
                        #expect(current.android == nil && current.androidVersionSHA256 == nil)
                        #expect(AndroidTimelineEvent.between(previous.android, current.android, platforms: domain.platforms,
                                                             seen: []).isEmpty, "no Android timeline entry")
                    } else {
                        #expect(current.originVersionSHA256 == nil && current.findings.isEmpty)
                    }
                }
            }
        }
    }

    /// A domain watched for both whose AASA is broken has an open Apple alert; switched to Android only,
    /// its next check closes that alert once, with a recovery notice per channel that says why (the
    /// owner stopped watching Apple, so the incident is over for them; the file did not recover), and
    /// its state becomes Android's.
    @Test func switchingToAndroidOnlyClosesApplesOpenAlertOnce() async throws {
        try await withFleetPipeline(serving: "this is not JSON") { fleet, database, pipeline in
            try writeAssetLinks(fleet)
            try create(database, "switch.fleet.test", .both)
            try database.execute("INSERT INTO channels (kind, target) VALUES ('webhook', 'https://hooks.example/a')")
            func round() async throws -> [AlertEvent] {
                try makeAllDue(database)
                return try await checkDueDomains(pipeline).flatMap(\.1.step.alerts).filter { $0.kind != .notice }
            }
            #expect(try await round().isEmpty)
            #expect(try await round().map(\.key.rule) == [.originInvalid])
            #expect(try database.domain(host: "switch.fleet.test")?.lastVerdict == .fail)

            try database.execute("UPDATE domains SET platforms = 'android' WHERE host = 'switch.fleet.test'")
            let closed = try await round()
            #expect(closed.map { "\($0.kind.rawValue) \($0.key)" } == ["resolved origin-invalid"])
            #expect(closed.first?.summary.hasPrefix("Closed: Apple is no longer watched for this domain.") == true, "\(closed)")
            #expect(try count(database, "SELECT count(*)::int FROM alerts WHERE state = 'open'") == 0)
            #expect(try count(database, "SELECT count(*)::int FROM deliveries WHERE event = 'resolved'") == 1, "one notice per channel")
            #expect(try database.domain(host: "switch.fleet.test")?.lastVerdict == .pass)
            #expect(try await round().isEmpty, "closed once")
        }
    }
}
