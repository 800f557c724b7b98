import ArgumentParser
import Fetch
import Monitor
import Store
import Vocabulary

extension AASAMonitor {
    /// `aasa-monitor check-now HOST…`: asks the running crawlers to check these domains at once.
    struct CheckNow: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-now",
            abstract: "Ask the running scheduler to check these domains at once.",
            discussion: "Exit status 0 when every host is registered, 1 when some are not (they are listed on standard error).")

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "Registered host names (Unicode or punycode).")
        var hosts: [String]

        func run() throws {
            var names: [String] = []
            for host in hosts {
                do {
                    names.append(try HostName(host).ascii)
                } catch {
                    StandardError.log("\(host): \(error)")
                }
            }
            let opened = try database.open(migrate: true)
            defer { try? opened.close() }
            let found = try opened.database.requestCheckNow(hosts: names)
            if !found.isEmpty { try opened.database.notify(channel: DomainScheduler.checkNowChannel) }
            for host in found { Terminal.print("requested \(host)") }
            let missing = Set(names).subtracting(found).sorted()
            for host in missing { StandardError.log("\(host) is not registered") }
            if !missing.isEmpty || found.count < hosts.count { throw ExitCode(1) }
        }
    }
}
