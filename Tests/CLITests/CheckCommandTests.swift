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
