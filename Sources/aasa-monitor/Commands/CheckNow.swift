import ArgumentParser
import Registry

extension AASAMonitor {
    /// `aasa-monitor check-now HOST…`: asks the running crawlers to check these domains at once.
    struct CheckNow: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-now",
            abstract: "Ask the running scheduler to check these domains at once.",
            discussion: "Exit status 0 when every host is registered and requested, 1 when some are not registered or are paused (they are listed on standard error).")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var server: ServerOptions

        @Argument(help: "Registered host names (Unicode or punycode).")
        var hosts: [String]

        func validate() throws { try server.validate(against: database) }

        func run() throws {
            if let client = try server.connect() {
                let report = try remote { () throws(RemoteError) in try RemoteCheckNow.run(client, hosts: hosts) }
                try show(requested: report.requested, paused: report.paused, notRegistered: report.not_registered,
                          refused: report.refused.map { ($0.input, $0.reason) })
                return
            }
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            let request = try DomainRegistry(store: opened.database).requestCheck(hosts: hosts)
            try show(requested: request.requested, paused: request.paused, notRegistered: request.notRegistered, refused: request.refused)
        }

        /// What was asked, from the local registry or the server: the same lines; exit 1 unless every host was requested.
        func show(requested: [String], paused: [String], notRegistered: [String], refused: [(input: String, reason: String)]) throws {
            for refused in refused { StandardError.log("\(refused.input): \(refused.reason)") }
            for host in requested { Terminal.print("requested \(host)") }
            for host in paused { StandardError.log("\(host) is paused: resume it to check it (aasa-monitor resume \(host))") }
            for host in notRegistered { StandardError.log("\(host) is not registered") }
            if !notRegistered.isEmpty || requested.count < hosts.count { throw ExitCode(1) }
        }
    }
}
