import ArgumentParser
import Foundation
import Monitor
import Store

extension AASAMonitor {
    /// `aasa-monitor status [--json]`: every domain's state, last check, file and open alerts.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every domain with its state, last check, current file and open alerts.",
            discussion: #"--json prints {"domains": [{"host", "state", "reason", "lastCheck", "version", "openAlerts"}]}; the state counts unmet expectations (a missing app ID, a watched URL doing something else) as failing."#)

        @OptionGroup var database: DatabaseOptions

        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            let statuses = try opened.database.domainStatuses()
            Terminal.print(json ? TerminalText(json: DomainStatus.json(statuses))
                : TerminalText(lines: DomainStatus.lines(statuses, now: Date())))
        }
    }
}
