import AASA
import ArgumentParser
import Foundation

extension AASAMonitor {
    /// `aasa-monitor validate FILE [--json]`: the file's findings without any HTTP exchange.
    /// Exit status: 0 clean (or info only), 1 warnings or deprecations only, 2 errors, 64 bad usage.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate an apple-app-site-association file (everything that needs no HTTP exchange).",
            discussion: "Exit status: 0 clean or info only, 1 warnings or deprecations only, 2 errors, 64 usage error.")

        @Argument(help: "The file to validate, or - for standard input.")
        var file: String

        @Flag(help: "Print the findings as JSON.")
        var json = false

        func run() throws {
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(file)
            } catch {
                FileHandle.standardError.write(Data("aasa-monitor validate: \(error)\n".utf8))
                throw ExitCode(64)
            }
            let report = AASAValidator.validate(bytes)
            let name = file == "-" ? "standard input" : file
            print(json ? ValidationOutput.json(report) : ValidationOutput.text(report, name: name), terminator: "")
            throw ExitCode(ValidationOutput.exitStatus(report))
        }
    }
}
