import Foundation

/// Runs the `aasa-monitor` binary that `swift build` put next to this test bundle, feeding stdin
/// and collecting stdout, stderr and the exit status.
struct BuiltCommand {
    typealias Outcome = ExternalTool.Outcome

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
        try ExternalTool.run(try executableURL().path, arguments, stdin: stdin, environment: environment, timeout: timeout)
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
