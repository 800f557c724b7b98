import ArgumentParser
import Foundation
import Glibc
import HTTP
import Monitor
import Notify
import Registry
import Store
import Web

extension AASAMonitor {
    /// `aasa-monitor serve`: the dashboard (and, as they arrive, the scheduler and notifier).
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the dashboard on http://127.0.0.1:8080, on an embedded PostgreSQL unless DATABASE_URL is set.",
            discussion: """
                Starts (or creates, on the first run) a private PostgreSQL under --data-dir that listens only on a Unix \
                socket there, applies the migrations, and serves the web interface. SIGTERM or SIGINT (Ctrl-C) finishes \
                the requests in flight, then stops the server and the embedded PostgreSQL.
                """)

        @Option(help: "Address to listen on. Default: env AASA_MONITOR_HOST, else 127.0.0.1")
        var host: String?

        @Option(help: "Port to listen on (0: any free port). Default: env AASA_MONITOR_PORT, else 8080")
        var port: Int?

        @OptionGroup var database: DatabaseOptions

        @Flag(name: .customLong("no-notify"), help: "Do not deliver notifications from this process (another process does).")
        var noNotify = false

        @OptionGroup var webOptions: WebOptions

        @Flag(name: .customLong("no-crawl"), help: "Only the web: leave crawling to `aasa-monitor worker` processes.")
        var noCrawl = false

        @Option(help: "A YAML config file to apply at start (see `apply`); a refused file stops the start.")
        var config: String?

        @Flag(name: .customLong("config-prune"), help: "With --config: remove what the file's lists leave out (apply --prune).")
        var configPrune = false

        @OptionGroup(title: "Crawler") var crawler: CrawlerOptions
        @OptionGroup(title: "Outbound") var fetch: FetchOptions
        @OptionGroup(title: "Logging") var log: LogOptions

        func validate() throws {
            _ = try listenPort()
            if configPrune && config == nil { throw ValidationError("--config-prune applies to --config only") }
        }

        func run() throws {
            // First: every later line on standard error (the database's start included) is then JSON.
            let events = EventLog.start(try log.resolved)
            let environment = ProcessInfo.processInfo.environment
            let host = host ?? environment["AASA_MONITOR_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
            let port = try listenPort()

            // Read before the database opens: a refused file stops here with nothing started.
            let document = try config.map { try ConfigInput.read($0) }
            let opened = try database.open(migrate: true)
            if let document, let config {
                do {
                    let plan = try ConfigInput.apply(document, from: config, to: DomainRegistry(store: opened.database),
                                                     prune: configPrune, dryRun: false)
                    StandardError.log("config \(config): \(plan.count(.add)) added, \(plan.count(.change)) changed, \(plan.count(.remove)) removed")
                } catch {
                    try? opened.close()
                    throw error
                }
            }
            let watchdog = opened.embedded.map { EmbeddedWatchdog(server: $0) }
            var configuration = HTTPServerConfiguration(host: host, port: port)
            configuration.publicDirectory = PublicDirectory.locate()
            // Public/ is served under /static/, where the pages link their CSS, JS and icons.
            configuration.publicURLPrefix = "/static/"
            let webConfiguration = try webOptions.configuration
            let web = WebApp(database: opened.database, configuration: webConfiguration)
            // Changes by other processes (crawler workers, the CLI) reach the dashboard's caches.
            web.startChangeFeed()
            web.startSessionPurge()
            let server = HTTPServer(configuration: configuration, responder: WebResponder(app: web))
            do {
                try server.start()
                try server.shutdownOnSignals()
            } catch {
                try? opened.close()
                StandardError.log("error: cannot listen on \(host):\(port): \(error)")
                throw ExitCode(71)
            }
            // The one line on standard output: scripts and tests read the address from it.
            let address = "http://\(host.contains(":") ? "[\(host)]" : host):\(server.port)"
            Terminal.print("aasa-monitor listening on \(address)")
            // Links in messages lead here when no dashboard address is set (not to a fixed :8080).
            webConfiguration.listeningAddress.bound(host: host, port: server.port)
            if (try? web.needsSetup()) == true {
                // Only someone who reads this log can create the first admin (see SetupCode).
                StandardError.log("first run: create the admin account at \(address)/setup with the setup code \(web.setupCode.value)")
            }
            watchdog?.start()
            let notifier = noNotify ? nil : NotifierStarter.start(opened.database, listening: webConfiguration.listeningAddress)
            let crawlerService = noCrawl ? nil : startCrawler(opened.database, events: events)
            server.wait()
            crawlerService?.stop()
            notifier?.stop()
            web.stopSessionPurge()
            web.stopChangeFeed()
            watchdog?.stop()
            StandardError.log("stopped serving; closing the database")
            defer { events.finish() }
            do {
                try opened.close()
            } catch {
                StandardError.log("error: \(error)")
                throw ExitCode(70)
            }
        }

        /// The scheduler and crawler (module Monitor); a setup error is logged, so the dashboard still starts.
        private func startCrawler(_ database: Database, events: EventLog) -> CrawlerService? {
            do {
                let service = try crawler.makeCrawler(database: database, fetch: fetch)
                service.start { events.checkFinished($0, $1) }
                return service
            } catch {
                StandardError.log("error: domains are not checked: \(error)")
                return nil
            }
        }

        private func listenPort() throws -> Int {
            if let port {
                guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
                return port
            }
            guard let text = ProcessInfo.processInfo.environment["AASA_MONITOR_PORT"], !text.isEmpty else { return 8080 }
            guard let value = Int(text), (0...65535).contains(value) else {
                throw ValidationError("AASA_MONITOR_PORT must be a port number, not \(text)")
            }
            return value
        }
    }
}
