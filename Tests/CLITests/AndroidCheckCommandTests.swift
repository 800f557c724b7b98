import Foundation
import TestSupport
import Testing

/// `aasa-monitor check` for Android (and both platforms) against the TLS fleet and its fake Digital Asset
/// Links API: one test per exit status, the JSON shape, and the worse platform deciding.
@Suite(.serialized) struct AndroidCheckCommandTests {
    static func flags(_ fleet: TestTLSFleet) -> [String] {
        CheckCommandTests.flags(fleet) + ["--google-dal-base", fleet.googleDALBase]
    }

    static let app = ["--package", FleetAssetLinks.packageName, "--fingerprint", FleetAssetLinks.appSigningKey.lowercased()]

    @Test func exitStatusPerVerdict() async throws {
        try await TestTLSFleet.with { fleet in
            let pass = try CheckCommandTests.run(["check", fleet.host("al-good"), "--platform", "android"] + Self.app + Self.flags(fleet))
            #expect(pass.status == 0, "\(pass.stdout)\(pass.stderr)")
            #expect(pass.stdout.hasPrefix("al-good.fleet.test (Android): PASS — Google honours 1 statement for com.example.fleet\n"))
            #expect(pass.stdout.contains("assetlinks (GoogleAssociationService): https://al-good.fleet.test/.well-known/assetlinks.json"))
            #expect(pass.stdout.contains("com.example.fleet \(FleetAssetLinks.appSigningKey): linked"))

            // Google still serves the key from before a rotation: a warning while nothing expected is lost.
            let warn = try CheckCommandTests.run(["check", fleet.host("al-lag"), "--platform", "android"] + Self.flags(fleet))
            #expect(warn.status == 1, "\(warn.stdout)")
            #expect(warn.stdout.contains("google-stale"))

            let fail = try CheckCommandTests.run(["check", fleet.host("al-redirect"), "--platform", "android"] + Self.app + Self.flags(fleet))
            #expect(fail.status == 2)
            #expect(fail.stdout.contains("redirect-not-allowed") && fail.stdout.contains("https://www-al-redirect.fleet.test/.well-known/assetlinks.json"))
            #expect(fail.stdout.contains("ERROR_CODE_REDIRECT"))

            let blocked = try CheckCommandTests.run(["check", fleet.host("al-blocked"), "--platform", "android", "--json"] + Self.flags(fleet))
            #expect(blocked.status == 2)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(blocked.stdout.utf8)) as? [String: Any])
            let android = try #require(object["android"] as? [String: Any])
            let codes = (android["findings"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
            #expect(codes.contains("fetcher-blocked") && codes.contains("http-status"))
            #expect(object["exit_status"] as? Int == 2 && object["host"] as? String == "al-blocked.fleet.test")
            let facts = android["facts"] as? [[String: Any]] ?? []
            #expect(facts.map { $0["status"] as? Int } == [403, 200, 200])
            let google = try #require(android["google"] as? [String: Any])
            #expect(google["error_codes"] as? [String] == ["ERROR_CODE_FETCH_ERROR"] && google["max_age_seconds"] as? Double == 600)
        }
    }

    @Test func couldNotCheck() throws {
        let outcome = try CheckCommandTests.run(["check", "localhost", "--platform", "android", "--google-dal-base", "https://dal.fleet.test/v1"])
        #expect(outcome.status == 3, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("(Android): COULD NOT CHECK") && outcome.stdout.contains("fetch-failed"))
    }

    /// `--platform android` judges a site as a domain watched for Android only is judged: without an
    /// assetlinks.json it fails (exit 2), even with no app expected; checked for both, it does not.
    @Test func androidAloneRequiresTheFile() async throws {
        try await TestTLSFleet.with { fleet in
            let alone = try CheckCommandTests.run(["check", fleet.host("good"), "--platform", "android"] + Self.flags(fleet))
            #expect(alone.status == 2, "\(alone.stdout)\(alone.stderr)")
            #expect(alone.stdout.hasPrefix("good.fleet.test (Android): FAIL") && alone.stdout.contains("http-status"), "\(alone.stdout)")
            let both = try CheckCommandTests.run(["check", fleet.host("good")] + Self.flags(fleet))
            #expect(both.status == 0, "\(both.stdout)")
        }
    }

    @Test func bothPlatformsTheWorseDecides() async throws {
        try await TestTLSFleet.with { fleet in
            // good serves Apple's file and no assetlinks.json: with no Android app expected, both pass.
            let both = try CheckCommandTests.run(["check", fleet.host("good")] + Self.flags(fleet))
            #expect(both.status == 0, "\(both.stdout)")
            #expect(both.stdout.hasPrefix("good.fleet.test: PASS"))
            #expect(both.stdout.contains("\ngood.fleet.test (Android): PASS — no statement list is served\n"))
            // Expecting an Android app there fails the run although Apple passes.
            let expecting = try CheckCommandTests.run(["check", fleet.host("good"), "--json", "--app-id", "ABCDE12345.com.example.fleet"]
                                                      + Self.app + Self.flags(fleet))
            #expect(expecting.status == 2)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(expecting.stdout.utf8)) as? [String: Any])
            #expect(object["verdict"] as? String == "pass", "Apple's report keeps its top-level keys")
            #expect((object["android"] as? [String: Any])?["verdict"] as? String == "fail")
            // An app ID the file lacks fails Apple's side.
            let missing = try CheckCommandTests.run(["check", fleet.host("good"), "--platform", "apple", "--app-id", "ABCDE12345.com.example.other"]
                                                    + Self.flags(fleet))
            #expect(missing.status == 2 && missing.stdout.contains("entitlement-app-not-in-file"))
        }
    }

    @Test func usageErrors() throws {
        let lonely = try CheckCommandTests.run(["check", "example.com", "--fingerprint", FleetAssetLinks.appSigningKey])
        #expect(lonely.status == 64 && lonely.stderr.contains("--fingerprint needs the --package"))
        let sha1 = try CheckCommandTests.run(["check", "example.com", "--package", "com.example.app", "--fingerprint", String(repeating: "AB:", count: 19) + "AB"])
        #expect(sha1.status == 64 && sha1.stderr.contains("SHA-1"))
        let plain = try CheckCommandTests.run(["check", "example.com", "--google-dal-base", "http://dal.example"])
        #expect(plain.status == 64 && plain.stderr.contains("https://"))
    }

    /// Each of check's Android flags against the fleet: the API's base from the environment instead of
    /// --google-dal-base, --package and --fingerprint for a key the file does not grant (the run fails
    /// and Google's check says NOT linked), and --platform apple never asking for assetlinks.json.
    @Test func everyAndroidFlagAgainstTheFleet() async throws {
        try await TestTLSFleet.with { fleet in
            let viaEnvironment = try CheckCommandTests.run(["check", fleet.host("al-good"), "--platform", "android"] + Self.app
                                                           + CheckCommandTests.flags(fleet),
                                                           environment: ["AASA_MONITOR_GOOGLE_DAL_BASE": fleet.googleDALBase])
            #expect(viaEnvironment.status == 0, "\(viaEnvironment.stdout)\(viaEnvironment.stderr)")
            #expect(viaEnvironment.stdout.contains(/Google's Digital Asset Links API: \d+ statements?, max age 600 s\n/)
                    && viaEnvironment.stdout.contains("\(FleetAssetLinks.packageName) \(FleetAssetLinks.appSigningKey): linked"), "\(viaEnvironment.stdout)")
            // The flag wins over the environment (an unreachable base there would make Google unavailable).
            let flagWins = try CheckCommandTests.run(["check", fleet.host("al-good"), "--platform", "android"] + Self.app + Self.flags(fleet),
                                                     environment: ["AASA_MONITOR_GOOGLE_DAL_BASE": "https://dal.unreachable.invalid/v1"])
            #expect(flagWins.status == 0 && !flagWins.stdout.contains("unavailable"), "\(flagWins.stdout)")

            let other = "CC:" + Array(repeating: "33", count: 31).joined(separator: ":")
            let notGranted = try CheckCommandTests.run(["check", fleet.host("al-good"), "--platform", "android", "--json",
                                                        "--package", FleetAssetLinks.packageName, "--fingerprint", other] + Self.flags(fleet))
            #expect(notGranted.status == 2, "\(notGranted.stdout)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(notGranted.stdout.utf8)) as? [String: Any])
            let android = try #require(object["android"] as? [String: Any])
            #expect(android["verdict"] as? String == "fail" && android["exit_status"] as? Int == 2)
            let messages = (android["findings"] as? [[String: Any]])?.compactMap { $0["message"] as? String } ?? []
            #expect(messages.contains { $0.contains(other) }, "the finding names the key: \(messages)")
            let checks = ((android["google"] as? [String: Any])?["checks"] as? [[String: Any]]) ?? []
            #expect(checks.count == 1 && checks.first?["linked"] as? Bool == false, "\(checks)")

            let before = fleet.requests().count
            let appleOnly = try CheckCommandTests.run(["check", fleet.host("good"), "--platform", "apple", "--json", "--no-cdn",
                                                       "--app-id", "ABCDE12345.com.example.fleet"] + Self.flags(fleet))
            #expect(appleOnly.status == 0, "\(appleOnly.stdout)")
            let appleObject = try #require(try JSONSerialization.jsonObject(with: Data(appleOnly.stdout.utf8)) as? [String: Any])
            #expect(appleObject["android"] == nil && appleObject["verdict"] as? String == "pass", "\(appleOnly.stdout)")
            #expect(!fleet.requests().dropFirst(before).contains { $0.uri.contains("assetlinks") }, "--platform apple asks nothing of Android")
        }
    }
}
