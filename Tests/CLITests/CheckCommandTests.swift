import Foundation
import TestSupport
import Testing

/// `aasa-monitor check` against the TLS fleet: the exit status and output are an API for CI jobs.
@Suite(.serialized) struct CheckCommandTests {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func binary() throws -> URL {
        let candidates = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for directory in candidates {
            for dir in [directory, directory.deletingLastPathComponent()] {
                let url = dir.appendingPathComponent("aasa-monitor")
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        throw FleetError(message: "aasa-monitor not found next to the test bundle; run swift build --build-tests first")
    }

    /// Runs the binary with output to files (nothing can block on a full pipe).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("check-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out"), err = scratch.appendingPathComponent("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        defer { try? outHandle.close(); try? errHandle.close() }
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.standardOutput = outHandle
        process.standardError = errHandle
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("AASA_MONITOR_") }
        env.merge(environment) { $1 }
        process.environment = env
        try process.run()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                       stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    static func flags(_ fleet: TestTLSFleet) -> [String] {
        ["--allow-private-addresses", "--ca-file", fleet.caFile, "--cdn-base", fleet.cdnBase]
            + fleet.connectTo.flatMap { ["--connect-to", $0] }
    }

    @Test func exitStatusFollowsTheVerdict() async throws {
        try await TestTLSFleet.with { fleet in
            let good = try Self.run(["check", fleet.host("good")] + Self.flags(fleet))
            #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
            #expect(good.stdout.hasPrefix("good.fleet.test: PASS — devices read /.well-known/apple-app-site-association\n"))
            #expect(good.stdout.contains("HTTP 200 from 127.0.0.1"))
            #expect(good.stdout.contains("tls: trusted"))

            let rootOnly = try Self.run(["check", fleet.host("rootonly")] + Self.flags(fleet))
            #expect(rootOnly.status == 1)
            #expect(rootOnly.stdout.contains("deprecation root-path-deprecated"))

            let redirect = try Self.run(["check", fleet.host("redirect301")] + Self.flags(fleet))
            #expect(redirect.status == 2)
            #expect(redirect.stdout.contains("error       redirect-not-allowed"))
            #expect(redirect.stdout.contains("HTTP 301 → https://good.fleet.test/.well-known/apple-app-site-association"))

            let reset = try Self.run(["check", fleet.host("reset"), "--no-cdn"] + Self.flags(fleet))
            #expect(reset.status == 3)
            #expect(reset.stdout.hasPrefix("reset.fleet.test: COULD NOT CHECK"))
        }
    }

    /// Redirects as devices meet them: `--mode` takes a device's direct route (an https redirect is
    /// followed, a warning, the CDN not asked); through the CDN, a redirect its copy followed is a warning.
    @Test func redirectsFollowTheDevicesRoute() async throws {
        try await TestTLSFleet.with { fleet in
            let direct = try Self.run(["check", fleet.host("redirect301"), "--platform", "apple", "--mode", "developer"] + Self.flags(fleet))
            #expect(direct.status == 1, "\(direct.stdout)\(direct.stderr)")
            #expect(direct.stdout.contains("warning     redirect-followed"), "\(direct.stdout)")
            #expect(direct.stdout.contains("  well-known: https://good.fleet.test/.well-known/apple-app-site-association\n"
                + "    followed: https://redirect301.fleet.test/.well-known/apple-app-site-association answered HTTP 301 → https://good.fleet.test/.well-known/apple-app-site-association\n"))
            #expect(!direct.stdout.contains("cdn:"), "devices in an alternate mode do not read the CDN")

            let http = try Self.run(["check", fleet.host("redirecthttp"), "--platform", "apple", "--mode", "developer+managed"] + Self.flags(fleet))
            #expect(http.status == 2 && http.stdout.contains("error       redirect-not-allowed"), "\(http.stdout)")

            let followed = try Self.run(["check", fleet.host("redirectcdn"), "--platform", "apple"] + Self.flags(fleet))
            #expect(followed.status == 1, "\(followed.stdout)\(followed.stderr)")
            #expect(followed.stdout.hasPrefix("redirectcdn.fleet.test: WARN — devices read Apple's CDN copy, which it fetched through the origin's redirect\n"),
                    "\(followed.stdout)")
            #expect(followed.stdout.contains("Apple's CDN currently follows this one — Apple-From lists both URLs"))

            let refused = try Self.run(["check", fleet.host("good"), "--platform", "android", "--mode", "developer"] + Self.flags(fleet))
            #expect(refused.status == 64 && refused.stderr.contains("--mode is an Apple entitlement's"))
        }
    }

    @Test func jsonReportAndEnvironment() async throws {
        try await TestTLSFleet.with { fleet in
            // The same settings through the environment, as a service unit would set them.
            let environment = ["AASA_MONITOR_ALLOW_PRIVATE": "1", "AASA_MONITOR_CA_FILE": fleet.caFile,
                               "AASA_MONITOR_CDN_BASE": fleet.cdnBase,
                               "AASA_MONITOR_CONNECT_TO": fleet.connectTo.joined(separator: ",")]
            let outcome = try Self.run(["check", fleet.host("apple403"), "--json"], environment: environment)
            #expect(outcome.status == 2, "\(outcome.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
            #expect(object?["verdict"] as? String == "fail")
            #expect(object?["exit_status"] as? Int == 2)
            let codes = (object?["findings"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
            #expect(codes.contains("user-agent-differs") && codes.contains("http-status") && codes.contains("cdn-failure"))
            let facts = object?["facts"] as? [[String: Any]] ?? []
            #expect(facts.first?["location"] as? String == "well-known" && facts.first?["status"] as? Int == 403)
        }
    }

    /// `check --json` is an API for pipelines: its bytes are pinned, all but what differs run to run
    /// (timings, the check's times, the certificate's expiry, the response's date, the file's etag and modification time).
    /// `good` is checked for both platforms, so Apple's facts and Android's (a 404) are both pinned.
    @Test func jsonOutputIsPinnedByteForByte() async throws {
        try await TestTLSFleet.with { fleet in
            let outcome = try Self.run(["check", fleet.host("good"), "--json"] + Self.flags(fleet))
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(Self.maskingWhatVaries(outcome.stdout) == Self.pinnedGoodJSON)
        }
    }

    /// A body that is not UTF-8 (the signed file's CMS) is printed as base64 under `body_base64`, with no `body`.
    @Test func jsonPrintsABodyThatIsNotTextAsBase64() async throws {
        try await TestTLSFleet.with { fleet in
            let outcome = try Self.run(["check", fleet.host("signed"), "--platform", "apple", "--json"] + Self.flags(fleet))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
            let wellKnown = try #require((object["facts"] as? [[String: Any]])?.first)
            #expect(wellKnown["body"] == nil)
            let bytes = try #require(Data(base64Encoded: wellKnown["body_base64"] as? String ?? ""))
            #expect(bytes.first == 0x30 && bytes.count == wellKnown["decoded_size"] as? Int)   // DER: a SEQUENCE
        }
    }

    /// The text both platforms print for one host, whole: heading, what devices read, findings and
    /// facts, Apple's check first (what changes run to run masked).
    @Test func textPrintsBothPlatformsInOneLayout() async throws {
        try await TestTLSFleet.with { fleet in
            let outcome = try Self.run(["check", fleet.host("good")] + Self.flags(fleet))
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(Self.maskingWhatVariesInText(outcome.stdout) == Self.pinnedGoodText)
        }
    }

    static func maskingWhatVariesInText(_ text: String) -> String {
        text.replacing(/(?m)^(\s+(?:time|etag|last-modified|not after|age)):.*$/) { "\($0.1): …" }
    }

    static let pinnedGoodText = #"""
        good.fleet.test: PASS — devices read /.well-known/apple-app-site-association

        Findings:
          info        applinks-apps-missing at /applinks (line 1:13)
              "applinks" has no "apps" key; iOS 12 and earlier require "apps": [] (later systems do not need it).
              → Add "apps": [] if you support iOS 12 or tvOS 12.
          info        entry-needs-ios13 at /applinks/details/0 (line 1:25)
              This entry is usable only from iOS 13: iOS 12 and earlier read only "appID" and "paths".
              → If iOS 12 devices matter, add "appID" and an equivalent "paths" list to these entries; otherwise nothing to do.

        Facts:
          well-known: https://good.fleet.test/.well-known/apple-app-site-association
            HTTP 200 from 127.0.0.1
            time: …
            content-type: application/json
            content-length: 193
            etag: …
            last-modified: …
            body: 193 bytes
            tls: trusted
              subject: CN = *.fleet.test
              names: *.fleet.test, fleet.test
              issuer: CN = aasa-monitor test CA
              not after: …
          root: https://good.fleet.test/apple-app-site-association
            HTTP 404 from 127.0.0.1
            time: …
            content-type: text/html
            content-length: 146
            body: 146 bytes
            tls: trusted
              subject: CN = *.fleet.test
              names: *.fleet.test, fleet.test
              issuer: CN = aasa-monitor test CA
              not after: …
          cdn: https://cdn.fleet.test/a/v1/good.fleet.test
            HTTP 200 from 127.0.0.1
            time: …
            content-type: application/json
            content-length: 220
            cache-control: max-age=21600,public
            etag: …
            last-modified: …
            age: …
            apple-from: https://good.fleet.test/.well-known/apple-app-site-association
            apple-try-direct: false
            apple-origin-format: json
            body: 220 bytes
            tls: trusted
              subject: CN = *.fleet.test
              names: *.fleet.test, fleet.test
              issuer: CN = aasa-monitor test CA
              not after: …
          well-known (browser user agent): https://good.fleet.test/.well-known/apple-app-site-association
            HTTP 200 from 127.0.0.1
            time: …
            content-type: application/json
            content-length: 193
            etag: …
            last-modified: …
            body: 193 bytes

        good.fleet.test (Android): PASS — no statement list is served

        Findings:
          info        http-status
              HTTP 404 at https://good.fleet.test/.well-known/assetlinks.json: the host publishes no assetlinks.json, and no Android app is expected of it.
              → Publish the file at /.well-known/assetlinks.json with status 200.
          info        google-unavailable
              Google's Digital Asset Links API could not be asked: statements:list: tls-wrong-host: the certificate is for another name (SSL: no alternative certificate subject name matches target host name 'digitalassetlinks.googleapis.com').

        Facts:
          assetlinks (GoogleAssociationService): https://good.fleet.test/.well-known/assetlinks.json
            HTTP 404 from 127.0.0.1
            time: …
            content-type: text/html
            content-length: 146
            body: 146 bytes
            tls: trusted
              subject: CN = *.fleet.test
              names: *.fleet.test, fleet.test
              issuer: CN = aasa-monitor test CA
              not after: …
          assetlinks (Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15): https://good.fleet.test/.well-known/assetlinks.json
            HTTP 404 from 127.0.0.1
            time: …
            content-type: text/html
            content-length: 146
            body: 146 bytes
          assetlinks (Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A.240805.005)): https://good.fleet.test/.well-known/assetlinks.json
            HTTP 404 from 127.0.0.1
            time: …
            content-type: text/html
            content-length: 146
            body: 146 bytes
          Google's Digital Asset Links API: unavailable (statements:list: tls-wrong-host: the certificate is for another name (SSL: no alternative certificate subject name matches target host name 'digitalassetlinks.googleapis.com'))

        """#

    static func maskingWhatVaries(_ json: String) -> String {
        json.replacing(/("(?:dns|connect|tls|first_byte|total)" : )[0-9.e-]+/) { "\($0.1)0" }
            .replacing(/("(?:started_at|finished_at|not_after|date|etag|last-modified)" : )"(?:[^"\\]|\\.)*"/) { "\($0.1)\"…\"" }
    }

    static let pinnedGoodJSON = #"""
        {
          "android" : {
            "could_not_check" : false,
            "exit_status" : 0,
            "facts" : [
              {
                "body" : "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
                "body_truncated" : false,
                "decoded_size" : 146,
                "headers" : {
                  "content-length" : "146",
                  "content-type" : "text/html",
                  "date" : "…",
                  "server" : "nginx"
                },
                "ip_address" : "127.0.0.1",
                "location" : "well-known",
                "status" : 404,
                "timings" : {
                  "connect" : 0,
                  "dns" : 0,
                  "first_byte" : 0,
                  "tls" : 0,
                  "total" : 0
                },
                "tls" : {
                  "issuer" : "CN = aasa-monitor test CA",
                  "not_after" : "…",
                  "subject" : "CN = *.fleet.test",
                  "subject_alt_names" : [
                    "*.fleet.test",
                    "fleet.test"
                  ],
                  "trusted" : true
                },
                "url" : "https://good.fleet.test/.well-known/assetlinks.json",
                "user_agent" : "GoogleAssociationService",
                "wire_size" : 146
              },
              {
                "body" : "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
                "body_truncated" : false,
                "decoded_size" : 146,
                "headers" : {
                  "content-length" : "146",
                  "content-type" : "text/html",
                  "date" : "…",
                  "server" : "nginx"
                },
                "ip_address" : "127.0.0.1",
                "location" : "well-known",
                "status" : 404,
                "timings" : {
                  "connect" : 0,
                  "dns" : 0,
                  "first_byte" : 0,
                  "tls" : 0,
                  "total" : 0
                },
                "url" : "https://good.fleet.test/.well-known/assetlinks.json",
                "user_agent" : "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
                "wire_size" : 146
              },
              {
                "body" : "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
                "body_truncated" : false,
                "decoded_size" : 146,
                "headers" : {
                  "content-length" : "146",
                  "content-type" : "text/html",
                  "date" : "…",
                  "server" : "nginx"
                },
                "ip_address" : "127.0.0.1",
                "location" : "well-known",
                "status" : 404,
                "timings" : {
                  "connect" : 0,
                  "dns" : 0,
                  "first_byte" : 0,
                  "tls" : 0,
                  "total" : 0
                },
                "url" : "https://good.fleet.test/.well-known/assetlinks.json",
                "user_agent" : "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A.240805.005)",
                "wire_size" : 146
              }
            ],
            "findings" : [
              {
                "affects" : "All Android versions (App Links 6.0+) and Google's Digital Asset Links API",
                "code" : "http-status",
                "hint" : "Publish the file at /.well-known/assetlinks.json with status 200.",
                "message" : "HTTP 404 at https://good.fleet.test/.well-known/assetlinks.json: the host publishes no assetlinks.json, and no Android app is expected of it.",
                "severity" : "info"
              },
              {
                "affects" : "Google's Digital Asset Links API (and Play services' verifier, if it uses Google's copy)",
                "code" : "google-unavailable",
                "message" : "Google's Digital Asset Links API could not be asked: statements:list: tls-wrong-host: the certificate is for another name (SSL: no alternative certificate subject name matches target host name 'digitalassetlinks.googleapis.com').",
                "severity" : "info"
              }
            ],
            "finished_at" : "…",
            "google" : {
              "available" : false,
              "checks" : [

              ],
              "error_codes" : [

              ],
              "reason" : "statements:list: tls-wrong-host: the certificate is for another name (SSL: no alternative certificate subject name matches target host name 'digitalassetlinks.googleapis.com')",
              "statements" : [

              ]
            },
            "includes" : [

            ],
            "serves" : false,
            "started_at" : "…",
            "url" : "https://good.fleet.test/.well-known/assetlinks.json",
            "verdict" : "pass"
          },
          "could_not_check" : false,
          "device_location" : "well-known",
          "display_name" : "good.fleet.test",
          "exit_status" : 0,
          "facts" : [
            {
              "body" : "{\"applinks\":{\"details\":[{\"appIDs\":[\"ABCDE12345.com.example.fleet\"],\"components\":[{\"/\":\"/products/*\",\"comment\":\"product pages\"}]}]},\n \"webcredentials\":{\"apps\":[\"ABCDE12345.com.example.fleet\"]}}\n",
              "body_truncated" : false,
              "decoded_size" : 193,
              "headers" : {
                "accept-ranges" : "bytes",
                "content-length" : "193",
                "content-type" : "application/json",
                "date" : "…",
                "etag" : "…",
                "last-modified" : "…",
                "server" : "nginx"
              },
              "ip_address" : "127.0.0.1",
              "location" : "well-known",
              "status" : 200,
              "timings" : {
                "connect" : 0,
                "dns" : 0,
                "first_byte" : 0,
                "tls" : 0,
                "total" : 0
              },
              "tls" : {
                "issuer" : "CN = aasa-monitor test CA",
                "not_after" : "…",
                "subject" : "CN = *.fleet.test",
                "subject_alt_names" : [
                  "*.fleet.test",
                  "fleet.test"
                ],
                "trusted" : true
              },
              "url" : "https://good.fleet.test/.well-known/apple-app-site-association",
              "user_agent" : "AASA-Bot/1.0.0",
              "wire_size" : 193
            },
            {
              "body" : "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
              "body_truncated" : false,
              "decoded_size" : 146,
              "headers" : {
                "content-length" : "146",
                "content-type" : "text/html",
                "date" : "…",
                "server" : "nginx"
              },
              "ip_address" : "127.0.0.1",
              "location" : "root",
              "status" : 404,
              "timings" : {
                "connect" : 0,
                "dns" : 0,
                "first_byte" : 0,
                "tls" : 0,
                "total" : 0
              },
              "tls" : {
                "issuer" : "CN = aasa-monitor test CA",
                "not_after" : "…",
                "subject" : "CN = *.fleet.test",
                "subject_alt_names" : [
                  "*.fleet.test",
                  "fleet.test"
                ],
                "trusted" : true
              },
              "url" : "https://good.fleet.test/apple-app-site-association",
              "user_agent" : "AASA-Bot/1.0.0",
              "wire_size" : 146
            },
            {
              "body" : "{\n  \"webcredentials\": { \"apps\": [\"ABCDE12345.com.example.fleet\"] },\n  \"applinks\": { \"details\": [ { \"components\": [ { \"comment\": \"product pages\", \"/\": \"/products/*\" } ], \"appIDs\": [\"ABCDE12345.com.example.fleet\"] } ] }\n}\n",
              "body_truncated" : false,
              "decoded_size" : 220,
              "headers" : {
                "accept-ranges" : "bytes",
                "age" : "5400",
                "apple-from" : "https://good.fleet.test/.well-known/apple-app-site-association",
                "apple-origin-format" : "json",
                "apple-try-direct" : "false",
                "cache-control" : "max-age=21600,public",
                "content-length" : "220",
                "content-type" : "application/json",
                "date" : "…",
                "etag" : "…",
                "last-modified" : "…",
                "server" : "nginx"
              },
              "ip_address" : "127.0.0.1",
              "location" : "cdn",
              "status" : 200,
              "timings" : {
                "connect" : 0,
                "dns" : 0,
                "first_byte" : 0,
                "tls" : 0,
                "total" : 0
              },
              "tls" : {
                "issuer" : "CN = aasa-monitor test CA",
                "not_after" : "…",
                "subject" : "CN = *.fleet.test",
                "subject_alt_names" : [
                  "*.fleet.test",
                  "fleet.test"
                ],
                "trusted" : true
              },
              "url" : "https://cdn.fleet.test/a/v1/good.fleet.test",
              "user_agent" : "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
              "wire_size" : 220
            },
            {
              "body" : "{\"applinks\":{\"details\":[{\"appIDs\":[\"ABCDE12345.com.example.fleet\"],\"components\":[{\"/\":\"/products/*\",\"comment\":\"product pages\"}]}]},\n \"webcredentials\":{\"apps\":[\"ABCDE12345.com.example.fleet\"]}}\n",
              "body_truncated" : false,
              "decoded_size" : 193,
              "headers" : {
                "accept-ranges" : "bytes",
                "content-length" : "193",
                "content-type" : "application/json",
                "date" : "…",
                "etag" : "…",
                "last-modified" : "…",
                "server" : "nginx"
              },
              "ip_address" : "127.0.0.1",
              "location" : "well-known",
              "status" : 200,
              "timings" : {
                "connect" : 0,
                "dns" : 0,
                "first_byte" : 0,
                "tls" : 0,
                "total" : 0
              },
              "url" : "https://good.fleet.test/.well-known/apple-app-site-association",
              "user_agent" : "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
              "wire_size" : 193
            }
          ],
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
          "finished_at" : "…",
          "host" : "good.fleet.test",
          "started_at" : "…",
          "verdict" : "pass"
        }

        """#

    @Test func refusesLoopbackWithoutOptIn() throws {
        let outcome = try Self.run(["check", "localhost", "--no-cdn"])
        #expect(outcome.status == 3)
        #expect(outcome.stdout.contains("address-refused"))
    }

    @Test func badDomainIsAUsageError() throws {
        let outcome = try Self.run(["check", "https://example.com/x"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("is not a usable host name"))
    }
}
