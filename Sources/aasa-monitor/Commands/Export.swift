import ArgumentParser
import ConfigFile
import Foundation
import Registry

extension AASAMonitor {
    /// `aasa-monitor export --yaml`: the config file that `apply` reads, from the database.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the monitored domains and channels as a YAML config file for apply.",
            discussion: """
                apply → export → apply changes nothing. Secrets are never written: a channel's secret settings are \
                written as the ${NAME} references the applied file gave, or as a placeholder ${AASA_MONITOR_CHANNEL_…} \
                to set; a webhook's signing secret that came from no file is left out (apply then keeps it).
                """)

        @Flag(help: "Write YAML (the only format so far; say it, so a script states what it expects).") var yaml = false
        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var server: ServerOptions

        func validate() throws { try server.validate(against: database) }

        func run() throws {
            let text: String
            if let client = try server.connect() {
                text = try remote { () throws(RemoteError) in try RemoteConfig.export(client) }
            } else {
                let opened = try database.open(migrate: true)
                defer { try? opened.close() }
                text = try DomainRegistry(store: opened.database).exportYAML()
            }
            guard let output else {
                Terminal.print(TerminalText(yaml: text), terminator: "")
                return
            }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                StandardError.log("error: cannot write \(output): \(error.localizedDescription)")
                throw ExitCode(73)  // EX_CANTCREAT
            }
        }
    }
}
