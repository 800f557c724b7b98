import ArgumentParser
import Foundation
import Monitor
import Store

extension AASAMonitor {
    /// `aasa-monitor status [--json]`: every domain's state, last check, file and open alerts.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every domain with its state, last check, current file and open alerts.",
            discussion: #"""
                --json prints {"domains": [{"host", "state", "platforms", "apple", "android", "reason", "last_check", "version", "open_alerts"}]}. \
                state is the worse of the watched platforms and counts unmet expectations (a missing app ID, a watched URL doing \
                something else) as failing; apple and android are each platform's file by the latest check (null, or - in the \
                table: not watched, not counted — no assetlinks.json and no Android app expected — or not checked yet).
                Exit status: 0 every domain passing (or not checked yet), 1 one has warnings, 2 one is failing.
                """#)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var server: ServerOptions

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws { try server.validate(against: database) }

        func run() throws {
            let statuses: [DomainStatus]
            if let client = try server.connect() {
                statuses = try remote { () throws(RemoteError) in try RemoteStatus.read(client) }
            } else {
                let opened = try database.open(migrate: true)
                defer { try? opened.close() }
                statuses = try opened.database.domainStatuses()
            }
            Terminal.print(json ? TerminalText(json: DomainStatus.json(statuses))
                : TerminalText(lines: DomainStatus.lines(statuses, now: Date())))
            throw ExitCode(DomainStatus.exitStatus(statuses))
        }
    }
}
