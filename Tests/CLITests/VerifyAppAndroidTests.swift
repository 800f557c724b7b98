import Foundation
import TestSupport
import Testing

/// The Android half of `verify-app`: an AndroidManifest.xml's autoVerify hosts checked against the TLS
/// fleet and its fake Digital Asset Links API, one test per exit status, and the JUnit file read back.
@Suite(.serialized) struct VerifyAppAndroidTests {
    /// A manifest as Android Studio writes it: one activity, an autoVerify filter per host list.
    static func manifest(_ hosts: [String], in directory: URL, package: String = FleetAssetLinks.packageName,
                         pathPrefixes: [String] = []) throws -> String {
        let file = directory.appendingPathComponent("AndroidManifest.xml")
        let data = (hosts.map { "                <data android:host=\"\($0)\" />" }
                    + pathPrefixes.map { "                <data android:pathPrefix=\"\($0)\" />" }).joined(separator: "\n")
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="\(package)">
                <application android:label="Fleet">
                    <activity android:name=".MainActivity" android:exported="true">
                        <intent-filter android:autoVerify="true">
                            <action android:name="android.intent.action.VIEW" />
                            <category android:name="android.intent.category.DEFAULT" />
                            <category android:name="android.intent.category.BROWSABLE" />
                            <data android:scheme="https" />
            \(data)
                        </intent-filter>
                    </activity>
                </application>
            </manifest>

            """
        try Data(text.utf8).write(to: file)
        return file.path
    }

    static func verify(_ hosts: [String], _ extra: [String], fleet: TestTLSFleet, in scratch: URL) throws -> CheckCommandTests.Outcome {
        let file = try manifest(hosts, in: scratch)
        return try CheckCommandTests.run(["verify-app", "--manifest", file, "--fingerprint", FleetAssetLinks.appSigningKey] + extra
                                         + AndroidCheckCommandTests.flags(fleet))
    }

    @Test func passAndWarning() async throws {
        try await TestTLSFleet.with { fleet in
            try await VerifyAppCommandTests.withScratch { scratch in
                let pass = try Self.verify(["al-good.fleet.test", "al-dynamic.fleet.test"],
                                           ["--url", "https://al-dynamic.fleet.test/products/1", "--url", "https://al-good.fleet.test/anything"],
                                           fleet: fleet, in: scratch)
                #expect(pass.status == 0, "\(pass.stdout)\(pass.stderr)")
                #expect(pass.stdout.hasPrefix("com.example.fleet: PASS — 4 of 4 checks pass\n"))
                #expect(pass.stdout.contains("PASS  android applinks al-good.fleet.test\n"))

                // An http:// web target: a warning, and the app still verifies.
                let insecure = String(decoding: FleetAssetLinks.file([FleetAssetLinks.appSigningKey]), as: UTF8.self)
                    .replacingOccurrences(of: "}]\n", with: #"}, {"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": "http://login.example"}}]"#)
                try fleet.serve(Array(insecure.utf8), at: FleetAssetLinks.path, on: "al-changing")
                let warn = try Self.verify(["al-changing.fleet.test"], [], fleet: fleet, in: scratch)
                #expect(warn.status == 1, "\(warn.stdout)\(warn.stderr)")
                #expect(warn.stdout.contains("web-site-insecure"))
            }
        }
    }

    /// A dynamic rule outside the manifest's paths never decides; a device's own state (pasted
    /// `pm get-app-links` output) that is not verified is a warning, named with its meaning.
    @Test func outOfScopeRulesAndADeviceThatDidNotVerifyAreWarnings() async throws {
        try await TestTLSFleet.with { fleet in
            try await VerifyAppCommandTests.withScratch { scratch in
                let file = try Self.manifest(["al-dynamic.fleet.test"], in: scratch, pathPrefixes: ["/products"])
                func run(_ extra: [String]) throws -> CheckCommandTests.Outcome {
                    try CheckCommandTests.run(["verify-app", "--manifest", file, "--fingerprint", FleetAssetLinks.appSigningKey] + extra
                                              + AndroidCheckCommandTests.flags(fleet))
                }
                let scoped = try run([])
                #expect(scoped.status == 1, "\(scoped.stdout)\(scoped.stderr)")
                #expect(scoped.stdout.contains("dynamic-rule-out-of-scope"), "\(scoped.stdout)")
                #expect(scoped.stdout.contains(#"Rule 1 {"/": "/account/*", "exclude": true}"#), "\(scoped.stdout)")
                #expect(!scoped.stdout.contains("Rule 2"), "/products/* is inside pathPrefix=/products")

                let wide = try Self.manifest(["al-dynamic.fleet.test"], in: scratch)
                let device = scratch.appendingPathComponent("get-app-links.txt")
                func deviceSays(_ state: String) throws -> CheckCommandTests.Outcome {
                    try Data("""
                          \(FleetAssetLinks.packageName):
                            ID: 01234567-89ab-cdef-0123-456789abcdef
                            Signatures: [\(FleetAssetLinks.appSigningKey)]
                            Domain verification state:
                              al-dynamic.fleet.test: \(state)

                        """.utf8).write(to: device)
                    return try CheckCommandTests.run(["verify-app", "--manifest", wide, "--fingerprint", FleetAssetLinks.appSigningKey,
                                                      "--device-state", device.path] + AndroidCheckCommandTests.flags(fleet))
                }
                let verified = try deviceSays("verified")
                #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
                let rejected = try deviceSays("1026")
                #expect(rejected.status == 1, "\(rejected.stdout)\(rejected.stderr)")
                #expect(rejected.stdout.contains("device-not-verified"), "\(rejected.stdout)")
                #expect(rejected.stdout.contains("state 1026 (verifier error: rejected by the server)"), "\(rejected.stdout)")
                let usage = try CheckCommandTests.run(["verify-app", "--entitlements", wide, "--device-state", device.path])
                #expect(usage.status == 64 && usage.stderr.contains("--device-state goes with --manifest"), "\(usage.stderr)")
            }
        }
    }

    @Test func errorsGiveTwoAndTheJUnitReportHasAndroidCases() async throws {
        try await TestTLSFleet.with { fleet in
            try await VerifyAppCommandTests.withScratch { scratch in
                let report = scratch.appendingPathComponent("junit.xml").path
                let outcome = try Self.verify(["al-good.fleet.test", "al-redirect.fleet.test", "al-dynamic.fleet.test"],
                                              ["--url", "https://al-dynamic.fleet.test/account/settings", "--url", "https://elsewhere.example/x",
                                               "--junit", report, "--json"],
                                              fleet: fleet, in: scratch)
                #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
                let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
                #expect(json?["packages"] as? [String] == ["com.example.fleet"])
                let read = try JUnitReader.read(report)
                #expect(read.suites == [JUnitReader.Suite(name: "verify-app android", tests: 5, failures: 3, errors: 0)])
                let byName = Dictionary(uniqueKeysWithValues: read.cases.map { ($0.name, $0) })
                #expect(byName["al-good.fleet.test"]?.result == "passed" && byName["al-good.fleet.test"]?.classname == "android.applinks")
                #expect(byName["al-redirect.fleet.test"]?.result == "failure")
                #expect(byName["al-redirect.fleet.test"]?.type.contains("redirect-not-allowed") == true)
                #expect(byName["https://al-dynamic.fleet.test/account/settings"]?.type == "watched-url-not-opened")
                #expect(byName["https://al-dynamic.fleet.test/account/settings"]?.message.contains("Rule 1") == true)
                #expect(byName["https://elsewhere.example/x"]?.type == "watched-url-unclaimed")
            }
        }
    }

    /// Without --fingerprint the file cases pass on the package name alone; the text, the JSON and the
    /// JUnit report say the keys were not checked (it printed a bare "PASS — 2 of 2", issue #31).
    @Test func aRunWithoutFingerprintsSaysTheKeysWereNotChecked() async throws {
        try await TestTLSFleet.with { fleet in
            try await VerifyAppCommandTests.withScratch { scratch in
                let file = try Self.manifest(["al-good.fleet.test"], in: scratch)
                let report = scratch.appendingPathComponent("junit.xml").path
                let text = try CheckCommandTests.run(["verify-app", "--manifest", file, "--junit", report] + AndroidCheckCommandTests.flags(fleet))
                #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
                #expect(text.stdout.hasPrefix("""
                    com.example.fleet: PASS — 1 of 1 checks pass
                    note: the signing keys of com.example.fleet were not checked (no --fingerprint): \
                    a file that names the package passes whatever keys it grants; add --fingerprint SHA256 to check them.

                    """), "\(text.stdout)")
                let junit = try JUnitReader.read(report)
                #expect(junit.cases.first { $0.name == "al-good.fleet.test" }?.systemOut.contains("signing keys of com.example.fleet were not checked") == true)
                #expect(junit.cases.first { $0.name == "al-good.fleet.test" }?.result == "passed")

                let json = try CheckCommandTests.run(["verify-app", "--manifest", file, "--json"] + AndroidCheckCommandTests.flags(fleet))
                let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
                #expect(parsed?["signing_keys_not_checked"] as? [String] == ["com.example.fleet"], "\(json.stdout)")

                // With the key given, nothing is said and the JSON's list is empty.
                let keyed = try Self.verify(["al-good.fleet.test"], ["--json"], fleet: fleet, in: scratch)
                let keyedJSON = try JSONSerialization.jsonObject(with: Data(keyed.stdout.utf8)) as? [String: Any]
                #expect(keyedJSON?["signing_keys_not_checked"] as? [String] == [])
                #expect(!(try Self.verify(["al-good.fleet.test"], [], fleet: fleet, in: scratch)).stdout.contains("not checked"))
            }
        }
    }

    /// A refused manifest is named with its reasons, and no usage line follows (it printed the
    /// top-level usage, issue #31).
    @Test func aRefusedManifestIsSaidWithoutUsage() async throws {
        try await VerifyAppCommandTests.withScratch { scratch in
            let file = scratch.appendingPathComponent("AndroidManifest.xml")
            try Data("<manifest><application>".utf8).write(to: file)
            let outcome = try CheckCommandTests.run(["verify-app", "--manifest", file.path])
            #expect(outcome.status == 64)
            #expect(outcome.stderr.hasPrefix("error: \(file.path) is refused:\n"), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("Usage"), "\(outcome.stderr)")
        }
    }

    @Test func bothPlatformsInOneRun() async throws {
        try await TestTLSFleet.with { fleet in
            try await VerifyAppCommandTests.withScratch { scratch in
                let report = scratch.appendingPathComponent("junit.xml").path
                let entitlements = try VerifyAppCommandTests.entitlements(["applinks:good.fleet.test"], in: scratch)
                let manifest = try Self.manifest(["al-good.fleet.test"], in: scratch)
                let outcome = try CheckCommandTests.run(["verify-app", "--entitlements", entitlements, "--app-id", FleetFiles.appID,
                                                         "--manifest", manifest, "--fingerprint", FleetAssetLinks.appSigningKey,
                                                         "--url", "https://good.fleet.test/products/42", "--junit", report]
                                                        + AndroidCheckCommandTests.flags(fleet))
                #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
                #expect(outcome.stdout.hasPrefix("\(FleetFiles.appID), com.example.fleet: PASS — 3 of 3 checks pass\n"))
                let read = try JUnitReader.read(report)
                #expect(read.suites == [JUnitReader.Suite(name: "verify-app apple", tests: 2, failures: 0, errors: 0),
                                        JUnitReader.Suite(name: "verify-app android", tests: 1, failures: 0, errors: 0)])
            }
        }
    }

    /// Google's copy lagging the origin (`google-stale`) is reported and passes, as a lagging Apple
    /// CDN does; `--strict-cdn` fails it.
    @Test func aLaggingGoogleCopyPassesUnlessStrict() async throws {
        try await TestTLSFleet.with { fleet in
            try await VerifyAppCommandTests.withScratch { scratch in
                // The origin dropped the upload key; Google still serves the copy with both, so every
                // key the gate asks about is linked and only the lag remains.
                try fleet.serve(FleetAssetLinks.file([FleetAssetLinks.appSigningKey]), at: FleetAssetLinks.path, on: "al-changing")
                fleet.googleAPI.set(.frozen(FleetAssetLinks.good), for: fleet.host("al-changing"))
                let lenient = try Self.verify(["al-changing.fleet.test"], [], fleet: fleet, in: scratch)
                #expect(lenient.status == 0, "\(lenient.stdout)\(lenient.stderr)")
                #expect(lenient.stdout.contains("google-stale"), "the lag is reported: \(lenient.stdout)")
                let strict = try Self.verify(["al-changing.fleet.test"], ["--strict-cdn"], fleet: fleet, in: scratch)
                #expect(strict.status == 2, "\(strict.stdout)\(strict.stderr)")
                #expect(strict.stdout.contains("FAIL  android applinks al-changing.fleet.test"))
            }
        }
    }

    @Test func couldNotCheckGivesThree() async throws {
        try await TestTLSFleet.with { fleet in
            try await VerifyAppCommandTests.withScratch { scratch in
                let outcome = try Self.verify(["reset.fleet.test", "al-good.fleet.test"], [], fleet: fleet, in: scratch)
                #expect(outcome.status == 3, "\(outcome.stdout)\(outcome.stderr)")
                #expect(outcome.stdout.contains("COULD NOT CHECK android applinks reset.fleet.test"))
            }
        }
    }

    @Test func usage() async throws {
        try await VerifyAppCommandTests.withScratch { scratch in
            let none = try CheckCommandTests.run(["verify-app"])
            #expect(none.status == 64 && none.stderr.contains("--manifest"))
            let unnamed = try Self.manifest(["a.example"], in: scratch, package: "")
            let noPackage = try CheckCommandTests.run(["verify-app", "--manifest", unnamed])
            #expect(noPackage.status == 64, "\(noPackage.stderr)")
        }
    }
}
