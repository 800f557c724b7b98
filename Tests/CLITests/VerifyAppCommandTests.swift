import Foundation
import TestSupport
import Testing

/// `aasa-monitor verify-app` against the TLS fleet: the release gate's exit status, its report, and
/// its JUnit file as a JUnit parser (Python's junitparser, installed by scripts/bootstrap --test) reads it.
@Suite(.serialized) struct VerifyAppCommandTests {
    static let app = FleetFiles.appID

    /// An entitlements file as Xcode writes it.
    static func entitlements(_ domains: [String], in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("App.entitlements")
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>com.apple.developer.associated-domains</key>
            \t<array>
            \(domains.map { "\t\t<string>\($0)</string>" }.joined(separator: "\n"))
            \t</array>
            </dict>
            </plist>

            """
        try Data(text.utf8).write(to: file)
        return file.path
    }

    static func withScratch<T>(_ body: (URL) async throws -> T) async throws -> T {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("verify-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try await body(scratch)
    }

    static func verify(_ domains: [String], _ extra: [String], fleet: TestTLSFleet, in scratch: URL) throws -> CheckCommandTests.Outcome {
        let file = try entitlements(domains, in: scratch)
        return try CheckCommandTests.run(["verify-app", "--entitlements", file] + extra + CheckCommandTests.flags(fleet))
    }

    @Test func passesWhenEveryDomainListsTheAppAndALaggingCDNOnlyFailsWhenStrict() async throws {
        try await TestTLSFleet.with { fleet in
            try await Self.withScratch { scratch in
                let domains = ["applinks:good.fleet.test", "webcredentials:good.fleet.test", "applinks:*.good.fleet.test",
                               "applinks:stale.fleet.test",
                               // The fake CDN knows nothing of this host (cdn-failure), but developer mode skips the CDN.
                               "applinks:new.fleet.test?mode=developer"]
                let extra = ["--app-id", Self.app, "--url", "https://good.fleet.test/products/42",
                             "--url", "https://shop.good.fleet.test/products/1"]
                let pass = try Self.verify(domains, extra, fleet: fleet, in: scratch)
                #expect(pass.status == 0, "\(pass.stdout)\(pass.stderr)")
                #expect(pass.stdout.hasPrefix("\(Self.app): PASS — 7 of 7 checks pass\n"))
                #expect(pass.stdout.contains("PASS  applinks applinks:*.good.fleet.test (file of good.fleet.test)"))
                #expect(pass.stdout.contains("info        cdn-stale"), "the lagging CDN is reported")
                #expect(pass.stdout.contains("PASS  applinks applinks:good.fleet.test\n      (2 more infos about the file: --json lists them)\n"))
                #expect(pass.stdout.contains("info        entitlement-alternate-mode"))
                #expect(!pass.stdout.contains("cdn-failure"), "developer mode is checked against the origin only")

                let strict = try Self.verify(domains, extra + ["--strict-cdn"], fleet: fleet, in: scratch)
                #expect(strict.status == 2, "\(strict.stdout)")
                #expect(strict.stdout.contains("FAIL  applinks applinks:stale.fleet.test\n      (2 more infos about the file: --json lists them)\n      error       cdn-stale"))
                #expect(!strict.stdout.contains("cdn-failure"))
            }
        }
    }

    @Test func warningsGiveOne() async throws {
        try await TestTLSFleet.with { fleet in
            try await Self.withScratch { scratch in
                let outcome = try Self.verify(["applinks:rootonly.fleet.test"], ["--app-id", Self.app], fleet: fleet, in: scratch)
                #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
                #expect(outcome.stdout.contains("WARN  applinks applinks:rootonly.fleet.test"))
                #expect(outcome.stdout.contains("deprecation root-path-deprecated"))
            }
        }
    }

    @Test func errorsGiveTwoAndTheJUnitReportReadsBack() async throws {
        try await TestTLSFleet.with { fleet in
            try await Self.withScratch { scratch in
                let report = scratch.appendingPathComponent("verify-app.xml").path
                let domains = ["applinks:good.fleet.test", "webcredentials:redirect301.fleet.test", "applinks:rootonly.fleet.test",
                               "applinks:reset.fleet.test", "appclips:good.fleet.test"]
                let outcome = try Self.verify(domains, ["--app-id", Self.app, "--url", "https://good.fleet.test/cart",
                                                        "--url", "https://elsewhere.example/x", "--junit", report, "--json"],
                                              fleet: fleet, in: scratch)
                #expect(outcome.status == 2, "an error wins over could-not-check: \(outcome.stdout)\(outcome.stderr)")
                let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
                #expect(json?["exit_status"] as? Int == 2)
                let cases = json?["cases"] as? [[String: Any]] ?? []
                let statuses = Dictionary(uniqueKeysWithValues: cases.compactMap { c in
                    (c["name"] as? String).map { ($0, c["exit_status"] as? Int ?? -1) }
                })
                #expect(statuses == ["applinks:good.fleet.test": 0, "webcredentials:redirect301.fleet.test": 2,
                                     "applinks:rootonly.fleet.test": 1, "applinks:reset.fleet.test": 3,
                                     "appclips:good.fleet.test": 2, "https://good.fleet.test/cart": 2,
                                     "https://elsewhere.example/x": 2])

                let read = try JUnitReader.read(report)
                #expect(read.suites == [JUnitReader.Suite(name: "verify-app apple", tests: 7, failures: 4, errors: 1)])
                let byName = Dictionary(uniqueKeysWithValues: read.cases.map { ($0.name, $0) })
                #expect(byName["applinks:good.fleet.test"]?.result == "passed")
                #expect(byName["applinks:good.fleet.test"]?.classname == "apple.applinks")
                #expect(byName["applinks:rootonly.fleet.test"]?.result == "passed")
                #expect(byName["applinks:rootonly.fleet.test"]?.systemOut.contains("root-path-deprecated") == true)
                #expect(byName["webcredentials:redirect301.fleet.test"]?.result == "failure")
                #expect(byName["webcredentials:redirect301.fleet.test"]?.type.contains("redirect-not-allowed") == true)
                #expect(byName["appclips:good.fleet.test"]?.type == "entitlement-app-not-in-file")
                #expect(byName["appclips:good.fleet.test"]?.message.contains("does not list \(Self.app) for appclips") == true)
                #expect(byName["applinks:reset.fleet.test"]?.result == "error")
                #expect(byName["applinks:reset.fleet.test"]?.type == "could-not-check")
                #expect(byName["https://good.fleet.test/cart"]?.type == "watched-url-not-opened")
                #expect(byName["https://good.fleet.test/cart"]?.classname == "apple.url")
                #expect(byName["https://elsewhere.example/x"]?.type == "watched-url-unclaimed")
            }
        }
    }

    /// A host only alternate-mode entries name is read directly, as those devices do: its https
    /// redirect is followed (a warning); a host an ordinary entry names keeps the CDN's route.
    @Test func anAlternateModeHostFollowsItsRedirect() async throws {
        try await TestTLSFleet.with { fleet in
            try await Self.withScratch { scratch in
                let outcome = try Self.verify(["applinks:redirect302.fleet.test?mode=developer", "webcredentials:redirect301.fleet.test"],
                                              ["--app-id", Self.app, "--json"], fleet: fleet, in: scratch)
                let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
                let cases = json?["cases"] as? [[String: Any]] ?? []
                let statuses = Dictionary(uniqueKeysWithValues: cases.compactMap { c in
                    (c["name"] as? String).map { ($0, c["exit_status"] as? Int ?? -1) }
                })
                #expect(statuses == ["applinks:redirect302.fleet.test?mode=developer": 1, "webcredentials:redirect301.fleet.test": 2],
                        "\(outcome.stdout)\(outcome.stderr)")
                #expect(outcome.stdout.contains("redirect-followed"))
            }
        }
    }

    /// `verify-app --json` is read by release pipelines: its bytes are pinned (nothing in it differs run to run).
    @Test func jsonOutputIsPinnedByteForByte() async throws {
        try await TestTLSFleet.with { fleet in
            try await Self.withScratch { scratch in
                let outcome = try Self.verify(["applinks:rootonly.fleet.test", "webcredentials:good.fleet.test"],
                                              ["--app-id", Self.app, "--url", "https://good.fleet.test/cart", "--json"],
                                              fleet: fleet, in: scratch)
                #expect(outcome.status == 2, "\(outcome.stderr)")
                #expect(outcome.stdout == Self.pinnedJSON)
            }
        }
    }

    static let pinnedJSON = #"""
        {
          "app_ids" : [
            "ABCDE12345.com.example.fleet"
          ],
          "cases" : [
            {
              "could_not_check" : false,
              "exit_status" : 1,
              "findings" : [
                {
                  "affects" : "All current systems (deprecated since iOS 13 / macOS 10.15; removal announced)",
                  "code" : "root-path-deprecated",
                  "hint" : "Serve the same file at /.well-known/apple-app-site-association.",
                  "message" : "The file is served only at https://rootonly.fleet.test/apple-app-site-association; https://rootonly.fleet.test/.well-known/apple-app-site-association answered HTTP 404. Apple deprecated the root location in 2019, and the alternate (developer/managed) modes need .well-known.",
                  "severity" : "deprecation"
                },
                {
                  "affects" : "iOS 12 and earlier, tvOS 12 and earlier",
                  "code" : "applinks-apps-missing",
                  "hint" : "Add \"apps\": [] if you support iOS 12 or tvOS 12.",
                  "location" : {
                    "column" : 13,
                    "line" : 1,
                    "pointer" : "/applinks"
                  },
                  "message" : "\"applinks\" has no \"apps\" key; iOS 12 and earlier require \"apps\": [] (later systems do not need it).",
                  "severity" : "info"
                },
                {
                  "affects" : "iOS 12 and earlier, tvOS 12 and earlier",
                  "code" : "entry-needs-ios13",
                  "hint" : "If iOS 12 devices matter, add \"appID\" and an equivalent \"paths\" list to these entries; otherwise nothing to do.",
                  "location" : {
                    "column" : 25,
                    "line" : 1,
                    "pointer" : "/applinks/details/0"
                  },
                  "message" : "This entry is usable only from iOS 13: iOS 12 and earlier read only \"appID\" and \"paths\".",
                  "severity" : "info"
                }
              ],
              "group" : "applinks",
              "host" : "rootonly.fleet.test",
              "name" : "applinks:rootonly.fleet.test",
              "platform" : "apple",
              "verdict" : "warn"
            },
            {
              "could_not_check" : false,
              "exit_status" : 0,
              "findings" : [
                {
                  "affects" : "iOS 12 and earlier, tvOS 12 and earlier",
                  "code" : "applinks-apps-missing",
                  "hint" : "Add \"apps\": [] if you support iOS 12 or tvOS 12.",
                  "location" : {
                    "column" : 13,
                    "line" : 1,
                    "pointer" : "/applinks"
                  },
                  "message" : "\"applinks\" has no \"apps\" key; iOS 12 and earlier require \"apps\": [] (later systems do not need it).",
                  "severity" : "info"
                },
                {
                  "affects" : "iOS 12 and earlier, tvOS 12 and earlier",
                  "code" : "entry-needs-ios13",
                  "hint" : "If iOS 12 devices matter, add \"appID\" and an equivalent \"paths\" list to these entries; otherwise nothing to do.",
                  "location" : {
                    "column" : 25,
                    "line" : 1,
                    "pointer" : "/applinks/details/0"
                  },
                  "message" : "This entry is usable only from iOS 13: iOS 12 and earlier read only \"appID\" and \"paths\".",
                  "severity" : "info"
                }
              ],
              "group" : "webcredentials",
              "host" : "good.fleet.test",
              "name" : "webcredentials:good.fleet.test",
              "platform" : "apple",
              "verdict" : "pass"
            },
            {
              "could_not_check" : false,
              "exit_status" : 2,
              "findings" : [
                {
                  "affects" : "All OS versions",
                  "code" : "watched-url-unclaimed",
                  "hint" : "Add applinks:good.fleet.test (or a *. wildcard of its parent) to the Associated Domains entitlement.",
                  "message" : "https://good.fleet.test/cart is on good.fleet.test, which no applinks entry of the app's entitlements claims.",
                  "severity" : "error"
                }
              ],
              "group" : "url",
              "host" : "good.fleet.test",
              "name" : "https://good.fleet.test/cart",
              "platform" : "apple",
              "verdict" : "fail"
            }
          ],
          "exit_status" : 2,
          "packages" : [

          ]
        }

        """#

    @Test func couldNotCheckGivesThree() async throws {
        try await TestTLSFleet.with { fleet in
            try await Self.withScratch { scratch in
                let report = scratch.appendingPathComponent("junit.xml").path
                let outcome = try Self.verify(["applinks:reset.fleet.test", "applinks:good.fleet.test"],
                                              ["--app-id", Self.app, "--junit", report], fleet: fleet, in: scratch)
                #expect(outcome.status == 3, "\(outcome.stdout)\(outcome.stderr)")
                #expect(outcome.stdout.contains("COULD NOT CHECK applinks applinks:reset.fleet.test"))
                let read = try JUnitReader.read(report)
                #expect(read.suites == [JUnitReader.Suite(name: "verify-app apple", tests: 2, failures: 0, errors: 1)])
            }
        }
    }

    @Test func appIDsComeFromTheEntitlementsOrMustBeGiven() async throws {
        try await Self.withScratch { scratch in
            let file = try Self.entitlements(["applinks:example.com"], in: scratch)
            let missing = try CheckCommandTests.run(["verify-app", "--entitlements", file])
            #expect(missing.status == 64)
            #expect(missing.stderr.contains("names no application-identifier"), "\(missing.stderr)")

            let badID = try CheckCommandTests.run(["verify-app", "--entitlements", file, "--app-id", "com.example.app"])
            #expect(badID.status == 64)
            #expect(badID.stderr.contains("--app-id com.example.app"))
        }
    }

    @Test func refusedEntitlementsNameTheLine() async throws {
        try await Self.withScratch { scratch in
            let file = try Self.entitlements(["applinks:example.com", "applinks:example.com:8443"], in: scratch)
            let outcome = try CheckCommandTests.run(["verify-app", "--entitlements", file, "--app-id", Self.app])
            #expect(outcome.status == 64)
            #expect(outcome.stderr.contains("line 8: The entitlement \"applinks:example.com:8443\" names the port 8443"), "\(outcome.stderr)")
            // The refusal alone: no usage line after it (issue #31).
            #expect(!outcome.stderr.contains("Usage"), "\(outcome.stderr)")
        }
    }
}

/// Reads a JUnit XML file with Python's junitparser, the way CI report tools do, and returns what
/// it saw. The venv comes from scripts/bootstrap --test.
enum JUnitReader {
    struct Suite: Hashable, Decodable {
        var name: String
        var tests: Int
        var failures: Int
        var errors: Int
    }

    struct Case: Decodable {
        var classname: String
        var name: String
        var result: String
        var type: String
        var message: String
        var systemOut: String
    }

    struct Read: Decodable {
        var suites: [Suite]
        var cases: [Case]
    }

    static let script = """
        import json, sys
        from junitparser import JUnitXml, Failure, Error, Skipped
        xml = JUnitXml.fromfile(sys.argv[1])
        suites, cases = [], []
        for suite in xml:
            suites.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures, "errors": suite.errors})
            counted = {"failure": 0, "error": 0}
            for case in suite:
                results = case.result
                kind = "passed"
                if any(isinstance(r, Failure) for r in results): kind = "failure"
                if any(isinstance(r, Error) for r in results): kind = "error"
                if kind in counted: counted[kind] += 1
                first = results[0] if results else None
                cases.append({"classname": case.classname, "name": case.name, "result": kind,
                              "type": (first.type or "") if first is not None else "",
                              "message": (first.message or "") if first is not None else "",
                              "systemOut": case.system_out or ""})
            # The suite's counters must agree with its test cases.
            assert suite.tests == len(list(suite)), "tests"
            assert suite.failures == counted["failure"] and suite.errors == counted["error"], "counters"
        print(json.dumps({"suites": suites, "cases": cases}))
        """

    static func read(_ path: String) throws -> Read {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let python = root.appendingPathComponent(".build/pyenv/bin/python3").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw FleetError(message: "\(python) is missing: run scripts/bootstrap --test (it installs junitparser)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FleetError(message: "junitparser could not read \(path): \(String(decoding: output, as: UTF8.self))")
        }
        return try JSONDecoder().decode(Read.self, from: output)
    }
}
