import ArgumentParser
import Fetch
import Foundation
import Glibc
import Monitor
import Store
import Vocabulary

extension AASAMonitor {
    /// `aasa-monitor import FILE`: bulk registration from a list or CSV.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register many domains from a file: one per line, or CSV host,appID,… (service:appID for other services).",
            discussion: "Prints what was added, skipped (already registered) and refused (with the reason). Exit status 1 when any line was refused.")

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "The file, or - for standard input.")
        var file: String

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
            let parsed = DomainListParser.parse(String(decoding: data, as: UTF8.self))
            var refused = parsed.refusals
            var added: [String] = []
            var skipped: [String] = []
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            let bar = ProgressBar(total: parsed.entries.count)
            let terminal = isatty(STDERR_FILENO) == 1
            for (index, entry) in parsed.entries.enumerated() {
                do {
                    let host = try HostName(entry.host)
                    let appIDs = entry.appIDs.flatMap { service, ids in ids.map { (service: service.rawValue, appID: $0.text) } }
                    switch try opened.database.importDomain(host: host.ascii, displayName: host.unicode,
                                                            wildcard: host.isWildcard, appIDs: appIDs) {
                    case .added: added.append(host.unicode)
                    case .alreadyRegistered: skipped.append(host.unicode)
                    }
                } catch let error as HostNameError {
                    refused.append(DomainListRefusal(line: entry.line, text: entry.host, reason: error.reason))
                }
                if terminal, index % 20 == 0 || index == parsed.entries.count - 1 {
                    Terminal.printError("\r\(bar.line(done: index + 1))", terminator: "")
                }
            }
            if terminal, !parsed.entries.isEmpty { Terminal.printError("") }
            if !added.isEmpty { try opened.database.notify(channel: DomainScheduler.checkNowChannel) }
            Terminal.print("added \(added.count), skipped \(skipped.count) (already registered), refused \(refused.count)")
            for host in skipped { Terminal.print("skipped \(host): already registered") }
            for refusal in refused.sorted(by: { $0.line < $1.line }) { Terminal.print("refused \(refusal)") }
            if !refused.isEmpty { throw ExitCode(1) }
        }
    }
}
