import Foundation

/// Runs a command-line tool (openssl, nginx) to completion for the test fixtures and fails with
/// its output when it does not exit 0.
enum ToolRunner {
    struct Failure: Error, CustomStringConvertible {
        var command: String
        var status: Int32
        var output: String
        var description: String { "\(command) exited \(status): \(output)" }
    }

    static func locate(_ name: String) -> String {
        for directory in ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/bin", "/sbin"] {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return name
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: locate(tool))
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure(command: ([tool] + arguments).joined(separator: " "), status: process.terminationStatus, output: output)
        }
        return output
    }
}
