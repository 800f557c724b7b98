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

        @Argument(help: "Registered host names (Unicode or punycode).")
        var hosts: [String]

        func run() throws {
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            let request = try DomainRegistry(store: opened.database).requestCheck(hosts: hosts)
            for refused in request.refused { StandardError.log("\(refused.input): \(refused.reason)") }
            for host in request.requested { Terminal.print("requested \(host)") }
            for host in request.paused { StandardError.log("\(host) is paused: resume it to check it (aasa-monitor resume \(host))") }
            for host in request.notRegistered { StandardError.log("\(host) is not registered") }
            if !request.notRegistered.isEmpty || request.requested.count < hosts.count { throw ExitCode(1) }
        }
    }
}
