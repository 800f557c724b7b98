import AssetLinks
import Fetch
import Foundation
import Testing
import TestSupport
import Vocabulary

/// `Fetcher.checkAndroid` against the real TLS fleet and the fake Digital Asset Links API behind it:
/// each assetlinks.json scenario of issue #13 ends with its transport, expectation and Google findings.
@Suite struct AndroidFleetTests {
    static let signingOnly = AndroidAppExpectation(packageName: FleetAssetLinks.packageName, fingerprints: [FleetAssetLinks.appSigningKey])
    static let withUploadKey = AndroidAppExpectation(packageName: FleetAssetLinks.packageName,
                                                     fingerprints: [FleetAssetLinks.appSigningKey, FleetAssetLinks.uploadKey],
                                                     uploadKeys: [FleetAssetLinks.uploadKey])

    /// Codes beyond the file's own (the validator's, tested in AssetLinksTests), per scenario.
    static let expected: [String: Set<String>] = [
        "al-good": [],
        "www-al-redirect": [],
        "al-lowercase": ["expected-package-missing", "google-verdict-error", "google-not-linked"],
        "al-uploadkey": ["fingerprint-upload-key-only", "google-not-linked"],
        "al-redirect": ["redirect-not-allowed", "expected-package-missing", "google-verdict-error", "google-not-linked"],
        "al-spa": ["content-type-not-json", "expected-package-missing", "google-verdict-error", "google-not-linked"],
        "al-octet": ["content-type-not-json", "google-verdict-error"],
        "al-big": ["size-over-limit", "expected-package-missing", "google-verdict-error", "google-not-linked"],
        "al-blocked": ["http-status", "fetcher-blocked", "expected-package-missing", "google-verdict-error", "google-not-linked"],
        "al-dynamic": [],
        "al-dynamic-invalid": [],
        "al-lag": ["google-stale", "google-not-linked"],
        "al-changing": [],
        "al-includes": [],
        "al-robots": ["robots-disallow"],
        "al-dot": ["trailing-dot-mismatch"],
        "al-included": ["http-status", "expected-package-missing", "google-verdict-error", "google-not-linked"],
    ]

    static func fetcher(_ fleet: TestTLSFleet, apiKey: String? = nil) throws -> Fetcher {
        var configuration = try FetchConfiguration.fleet(fleet)
        configuration.googleDAL = GoogleDALSettings(base: fleet.googleDALBase, apiKey: apiKey)
        return try Fetcher(configuration)
    }

    @Test func everyScenarioGetsItsFindings() async throws {
        try await TestTLSFleet.with { fleet in
            #expect(Set(fleet.androidScenarios) == Set(Self.expected.keys), "a scenario without expectations, or the reverse")
            let fetcher = try Self.fetcher(fleet)
            defer { fetcher.shutdown() }
            let hosts = try fleet.androidScenarios.map { ($0, try HostName(fleet.host($0))) }
            let checks = await withTaskGroup(of: (String, AndroidCheck).self) { group in
                for (label, host) in hosts {
                    group.addTask {
                        let app = label == "al-uploadkey" ? Self.withUploadKey : Self.signingOnly
                        return (label, await fetcher.checkAndroid(host, expectations: [app]))
                    }
                }
                var all: [String: AndroidCheck] = [:]
                for await (label, check) in group { all[label] = check }
                return all
            }
            for (label, codes) in Self.expected.sorted(by: { $0.key < $1.key }) {
                let check = try #require(checks[label])
                let documentCodes = check.report.document.map { Set($0.findings.map(\.code)) } ?? []
                let found = Set(check.report.findings.map(\.code))
                #expect(found.subtracting(documentCodes) == codes.subtracting(documentCodes),
                        "\(label): \(check.report.findings.map { "\($0.code): \($0.message)" })")
                #expect(check.origin.userAgent == "GoogleAssociationService", "\(label)")
                #expect(check.google != nil, "\(label): Google was asked")
            }
            try Self.details(checks)
        }
    }

    static func details(_ checks: [String: AndroidCheck]) throws {
        let good = try #require(checks["al-good"])
        #expect(good.report.verdict == .pass && good.report.serves)
        #expect(good.otherUserAgents.map(\.userAgent) == [
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
            "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A.240805.005)",
        ])
        #expect(good.origin.tls?.trusted == true && good.origin.header("content-type") == "application/json")
        guard case .answered(let list, let linkChecks) = good.google else { Issue.record("Google: \(String(describing: good.google))"); return }
        #expect(list.maxAgeSeconds == 600 && list.errorCodes.isEmpty)
        // Flattened as Google does: two relations × two fingerprints, sites with a trailing dot left to the parser.
        #expect(list.statements.count == 4)
        #expect(linkChecks.map(\.linked) == [true])
        #expect(good.report.googleDiff?.isBehaviourallyEqual == true)

        let redirect = try #require(checks["al-redirect"])
        #expect(redirect.origin.status == 301)
        #expect(redirect.report.findings.first { $0.code == "redirect-not-allowed" }?.message
                    .contains("https://www-al-redirect.fleet.test/.well-known/assetlinks.json") == true)
        #expect(redirect.report.verdict == .fail)

        let blocked = try #require(checks["al-blocked"])
        #expect(blocked.origin.status == 403 && blocked.otherUserAgents.allSatisfy { $0.status == 200 })
        #expect(blocked.report.findings.first { $0.code == "fetcher-blocked" }?.severity == .error)

        let octet = try #require(checks["al-octet"])
        #expect(octet.report.findings.first { $0.code == "content-type-not-json" }?.severity == .warning,
                "Google still links the app: a warning")

        let big = try #require(checks["al-big"])
        #expect(big.origin.decodedSize > AssetLinksReader.sizeLimit && big.origin.bodyTruncated)

        let includes = try #require(checks["al-includes"])
        #expect(includes.includes.map(\.url) == ["https://al-included.fleet.test/.well-known/more.json"])
        #expect(includes.includes.first?.userAgent == "GoogleAssociationService")
        #expect(includes.report.file?.packageNames == [FleetAssetLinks.packageName] && includes.report.verdict != .fail)

        let lag = try #require(checks["al-lag"])
        #expect(lag.report.googleDiff?.fingerprintsRemoved.map(\.fingerprint) == [FleetAssetLinks.appSigningKey, FleetAssetLinks.uploadKey].sorted())
        #expect(lag.report.findings.first { $0.code == "google-stale" }?.severity == .warning)

        // Asked beside a served file, as Google's fetcher; the messages name what differs.
        let robots = try #require(checks["al-robots"])
        #expect(robots.report.findings.first { $0.code == "robots-disallow" }?.message.contains(#"every crawler (User-agent: *) with "Disallow: /.well-known/""#) == true)
        let dot = try #require(checks["al-dot"])
        #expect(dot.report.findings.first { $0.code == "trailing-dot-mismatch" }?.message
                    == "https://al-dot.fleet.test./.well-known/assetlinks.json (the fully-qualified form of the host) answers HTTP 404, while https://al-dot.fleet.test/.well-known/assetlinks.json answers HTTP 200.")

        let invalidRules = try #require(checks["al-dynamic-invalid"])
        #expect(invalidRules.report.findings.contains { $0.code == "dynamic-rules-invalid" })
        let rules = try #require(checks["al-dynamic"])
        #expect(rules.report.file?.statements.first?.dynamicRules?.rules?.count == 2)
    }

    @Test func aFileThatChangesIsSeenByTheNextCheck() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try Self.fetcher(fleet)
            defer { fetcher.shutdown() }
            let host = try HostName(fleet.host("al-changing"))
            let before = await fetcher.checkAndroid(host, expectations: [Self.signingOnly])
            #expect(before.report.verdict == .pass, "\(before.report.findings)")
            try fleet.serve(FleetAssetLinks.uploadOnly, at: FleetAssetLinks.path, on: "al-changing")
            let after = await fetcher.checkAndroid(host, expectations: [Self.signingOnly])
            #expect(Set(after.report.findings.map(\.code)) == ["expected-fingerprint-missing", "google-not-linked"],
                    "\(after.report.findings)")
            let oldFile = try #require(before.report.file), newFile = try #require(after.report.file)
            let diff = AssetLinksDiff.diff(old: oldFile, new: newFile)
            #expect(diff.fingerprintsRemoved.map(\.fingerprint) == [FleetAssetLinks.appSigningKey])
            // A lagging Google keeps the old copy: now it disagrees with the origin.
            fleet.googleAPI.set(.frozen(FleetAssetLinks.good), for: host.ascii)
            let lagging = await fetcher.checkAndroid(host, expectations: [Self.signingOnly], originChangedSecondsAgo: 60)
            #expect(lagging.report.findings.first { $0.code == "google-stale" }?.severity == .info, "within maxAge + 1 h")
        }
    }

    @Test func wildcardUsesTheBareDomainsFile() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try Self.fetcher(fleet)
            defer { fetcher.shutdown() }
            let served = await fetcher.checkAndroid(try HostName("*.\(fleet.host("al-good"))"), expectations: [Self.signingOnly])
            #expect(served.origin.url == "https://al-good.fleet.test/.well-known/assetlinks.json" && served.report.verdict == .pass)
            let missing = await fetcher.checkAndroid(try HostName("*.\(fleet.host("al-none"))"))
            #expect(missing.origin.status == 404)
            #expect(missing.report.findings.contains { $0.code == "wildcard-file-missing" } && missing.report.verdict == .fail)
            // Without a wildcard and without an expected app, no file is no failure.
            let plain = await fetcher.checkAndroid(try HostName(fleet.host("al-none")))
            #expect(plain.report.verdict == .pass && !plain.report.serves, "\(plain.report.findings)")
            #expect(plain.report.findings.first { $0.code == "google-verdict-error" }?.severity == .info)
        }
    }

    @Test func bothPlatformsShareOneResolutionAndTheAPIKeyIsSent() async throws {
        try await TestTLSFleet.with { fleet in
            let fetcher = try Self.fetcher(fleet, apiKey: "test-key")
            defer { fetcher.shutdown() }
            let checks = await fetcher.checkPlatforms(try HostName(fleet.host("al-good")), android: [Self.signingOnly])
            #expect(checks.android.report.verdict == .pass)
            #expect(checks.apple.host == checks.android.host && checks.apple.wellKnown.status == 404, "al-good serves no AASA")
            let requests = fleet.googleAPI.requests
            #expect(requests.contains { $0.hasPrefix("/v1/statements:list?source.web.site=https%3A%2F%2Fal-good.fleet.test&returnRelationExtensions=true&key=test-key") })
            #expect(requests.contains { $0.hasPrefix("/v1/assetlinks:check?") && $0.contains("target.androidApp.packageName=com.example.fleet") })
        }
    }

    @Test func anUnreachableAPIIsInfoOnly() async throws {
        try await TestTLSFleet.with { fleet in
            var configuration = try FetchConfiguration.fleet(fleet)
            configuration.googleDAL = GoogleDALSettings(base: "https://cdn.fleet.test/nothing-here")
            let fetcher = try Fetcher(configuration)
            defer { fetcher.shutdown() }
            let check = await fetcher.checkAndroid(try HostName(fleet.host("al-good")), expectations: [Self.signingOnly])
            guard case .unavailable(let reason) = check.google else { Issue.record("\(String(describing: check.google))"); return }
            #expect(reason.contains("HTTP 404"))
            #expect(check.report.findings.map(\.code) == ["google-unavailable"] && check.report.verdict == .pass)
        }
    }
}
