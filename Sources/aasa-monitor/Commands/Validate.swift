import AASA
import ArgumentParser
import AssetLinks
import Foundation
import Vocabulary

extension AASAMonitor {
    /// `aasa-monitor validate FILE [--platform apple|android] [--json]`: the file's findings without any
    /// HTTP exchange. The format is the file's name's (`assetlinks.json`, `apple-app-site-association`),
    /// else its content's (`FileFormat`).
    /// Exit status: 0 clean (or info only), 1 warnings or deprecations only, 2 errors, 64 bad usage.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate an apple-app-site-association or assetlinks.json file (everything that needs no HTTP exchange).",
            discussion: """
                The format is taken from the file's name first (assetlinks.json is Android's, \
                apple-app-site-association Apple's), then from its content: a top-level JSON array, or an object \
                holding a statement's relation/target or a statements member (Android's file in the wrong shape), \
                is Android's assetlinks.json, anything else Apple's file; --platform forces it. For assetlinks.json, --json prints the findings and the \
                statements Google honours. Exit status: 0 clean or info only, 1 warnings or deprecations only, \
                2 errors, 64 usage error.
                """)

        @Argument(help: "The file to validate, or - for standard input.")
        var file: String

        @Option(help: "The file's platform (apple or android); from its name, else its content, when omitted.")
        var platform: Platform?

        @Flag(help: "Print the findings as JSON.")
        var json = false

        func run() throws {
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(file)
            } catch {
                Terminal.printError("aasa-monitor validate: \(error)")
                throw ExitCode(64)
            }
            let name = file == "-" ? "standard input" : file
            if (platform ?? FileFormat.detect(bytes, name: file)) == .android {
                let report = AssetLinksValidator.validate(bytes)
                Terminal.print(json ? AndroidOutput.validateJSON(report) : AndroidOutput.validateText(report, name: name), terminator: "")
                throw ExitCode(ValidationOutput.exitStatus(worst: report.worstSeverity))
            }
            let report = AASAValidator.validate(bytes)
            Terminal.print(json ? ValidationOutput.json(report) : ValidationOutput.text(report, name: name), terminator: "")
            throw ExitCode(ValidationOutput.exitStatus(report))
        }
    }
}

extension Platform: ExpressibleByArgument {}
