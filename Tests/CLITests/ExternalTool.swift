import Foundation

/// A program run to completion with its output in files (nothing blocks on a pipe): the tools of the
/// contract tests (curl, promtool, schemathesis) and, through `BuiltCommand`, our own binary.
enum ExternalTool {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
        var output: String { stdout + stderr }
    }

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A console script of the test venv (`scripts/bootstrap --test` installs it).
    static func python(_ name: String) throws -> String {
        let path = root.appendingPathComponent(".build/pyenv/bin/\(name)").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ServeProcess.Failure(description: "\(path) is missing: run scripts/bootstrap --test")
        }
        return path
    }

    static func path(_ name: String, hint: String) throws -> String {
        for directory in ["/usr/local/bin", "/usr/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw ServeProcess.Failure(description: "\(name) is missing (\(hint)): run scripts/bootstrap --test")
    }

    static func run(_ executable: String, _ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:],
                    directory: URL? = nil, timeout: Duration = .seconds(600)) throws -> Outcome {
        let scratch = try ScratchDirectory()
        let inURL = scratch.url.appendingPathComponent("stdin")
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        try Data(stdin).write(to: inURL)
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let inHandle = try FileHandle(forReadingFrom: inURL)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer {
            try? inHandle.close()
            try? outHandle.close()
            try? errHandle.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = inHandle
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                process.waitUntilExit()
                throw ServeProcess.Failure(description: "\(executable) \(arguments) did not finish within \(timeout)")
            }
            usleep(2_000)
        }
        return Outcome(status: process.terminationStatus,
                       stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                       stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
