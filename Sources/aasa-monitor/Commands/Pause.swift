import ArgumentParser
import Registry

extension AASAMonitor {
    /// `aasa-monitor pause HOST…`: stops checking these domains until they are resumed.
    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop checking these domains until they are resumed (no alert opens or resolves meanwhile).",
            discussion: "Exit status 0 when every host is registered, 1 when some are not (they are listed on standard error).")

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "Registered host names (Unicode or punycode).")
        var hosts: [String]

        func run() throws { try PauseCommand.run(hosts: hosts, paused: true, database: database) }
    }

    /// `aasa-monitor resume HOST…`: checks paused domains again, at once.
    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check paused domains again; each is due at once.",
            discussion: "Exit status 0 when every host is registered, 1 when some are not (they are listed on standard error).")

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "Registered host names (Unicode or punycode).")
        var hosts: [String]

        func run() throws { try PauseCommand.run(hosts: hosts, paused: false, database: database) }
    }
}

/// What `pause` and `resume` share: the registry's change, then a line per host.
enum PauseCommand {
    static func run(hosts: [String], paused: Bool, database: DatabaseOptions) throws {
        let opened = try database.open(migrate: true)
        defer { try? opened.close() }
        let change = try DomainRegistry(store: opened.database).setPaused(hosts: hosts, paused)
        for refused in change.refused { StandardError.log("\(refused.input): \(refused.reason)") }
        for host in change.changed { Terminal.print(paused ? "paused \(host)" : "resumed \(host)") }
        for host in change.notRegistered { StandardError.log("\(host) is not registered") }
        if !change.notRegistered.isEmpty || change.changed.count < hosts.count { throw ExitCode(1) }
    }
}
