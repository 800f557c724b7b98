import ArgumentParser
import Foundation
import Glibc
import Registry
import Vocabulary

extension AASAMonitor {
    /// `aasa-monitor import FILE`: bulk registration from a list or CSV.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register many domains from a file: one per line, or CSV host,appID,… (service:appID for other services; android:PACKAGE=SHA256;… for the domain's own Android apps).",
            discussion: "Prints what was added, skipped (already registered) and refused (with the reason). Exit status 1 when any line was refused.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var server: ServerOptions

        @Argument(help: "The file, or - for standard input.")
        var file: String

        @Option(help: "Which platforms the imported domains are watched for: both, apple or android.")
        var platforms: String = WatchedPlatforms.both.rawValue

        func validate() throws {
            do { _ = try WatchedPlatforms(typed: platforms) } catch { throw ValidationError(error.message) }
            try server.validate(against: database)
        }

        func run() throws {
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else {
                    StandardError.log("error: cannot read \(file)")
                    throw ExitCode(66)  // EX_NOINPUT
                }
                data = contents
            }
            let chosen = (try? WatchedPlatforms(typed: platforms)) ?? .both  // validate() refused any other word
            if let client = try server.connect() {
                let report = try remote { () throws(RemoteError) in
                    try RemoteImport.run(client, list: String(decoding: data, as: UTF8.self), platforms: chosen.rawValue)
                }
                try Self.show(added: report.added, skipped: report.skipped, refused: report.refused.map(\.message))
                return
            }
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            let terminal = isatty(STDERR_FILENO) == 1
            var bar: ProgressBar?
            let report = try DomainRegistry(store: opened.database).importList(String(decoding: data, as: UTF8.self),
                                                                                platforms: chosen) { done, total in
                guard terminal else { return }
                if bar == nil { bar = ProgressBar(total: total) }
                if let bar, done % 20 == 0 || done == total {
                    Terminal.printError("\r\(bar.line(done: done))", terminator: "")
                    if done == total { Terminal.printError("") }
                }
            }
            try Self.show(added: report.added, skipped: report.skipped, refused: report.refused.map(\.description))
        }

        /// The report, from the local registry or the server: the same lines; exit 1 when a line was refused.
        static func show(added: [String], skipped: [String], refused: [String]) throws {
            Terminal.print("added \(added.count), skipped \(skipped.count) (already registered), refused \(refused.count)")
            for host in skipped { Terminal.print("skipped \(host): already registered") }
            for refusal in refused { Terminal.print("refused \(refusal)") }
            if !refused.isEmpty { throw ExitCode(1) }
        }
    }
}
