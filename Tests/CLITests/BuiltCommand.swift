import Foundation

/// Runs the `aasa-monitor` binary that `swift build` put next to this test bundle, feeding stdin
/// and collecting stdout, stderr and the exit status.
struct BuiltCommand {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The test bundle lives in the build products directory (.build/<triple>/debug), as does the executable.
    static func executableURL() throws -> URL {
        let candidates = [Bundle.main.bundleURL, Bundle.main.executableURL?.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for case let directory? in candidates {
            for dir in [directory, directory.deletingLastPathComponent()] {
                let url = dir.appendingPathComponent("aasa-monitor")
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        throw Failure(description: "aasa-monitor not found next to the test bundle (\(candidates)); run swift build --build-tests first")
    }

    static func run(_ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:],
                    timeout: Duration = .seconds(60)) throws -> Outcome {
        let scratch = try ScratchDirectory()
        let inURL = scratch.url.appendingPathComponent("stdin")
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        try Data(stdin).write(to: inURL)
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        // Files rather than pipes: nothing can block on a full pipe, whatever the command prints.
        let inHandle = try FileHandle(forReadingFrom: inURL)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer {
            try? inHandle.close()
            try? outHandle.close()
            try? errHandle.close()
        }
        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardInput = inHandle
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                process.waitUntilExit()
                throw Failure(description: "aasa-monitor \(arguments) did not finish within \(timeout)")
            }
            usleep(2_000)
        }
        return Outcome(status: process.terminationStatus,
                       stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                       stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// A temporary directory removed when the value goes away.
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
