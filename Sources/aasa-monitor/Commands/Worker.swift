import ArgumentParser
import Dispatch
import Foundation
import Glibc
import HTTP
import Monitor
import Notify
import Store

extension AASAMonitor {
    /// `aasa-monitor worker`: the crawler and the notifier, without the web.
    struct Worker: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Crawl due domains and deliver notifications, without the dashboard.",
            discussion: """
                Run any number of workers, on any number of machines, against one PostgreSQL (DATABASE_URL): they \
                lease due domains with FOR UPDATE SKIP LOCKED, so no domain is checked twice in one interval, and a \
                crashed worker's domains are checked by another once its lease expires. SIGTERM or SIGINT finishes \
                the checks in flight, then exits.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup(title: "Crawler") var crawler: CrawlerOptions
        @OptionGroup(title: "Outbound") var fetch: FetchOptions

        @Flag(name: .customLong("no-notify"), help: "Do not deliver notifications from this process (another process does).")
        var noNotify = false

        @OptionGroup(title: "Logging") var log: LogOptions

        func run() throws {
            let events = EventLog.start(try log.resolved)
            let opened = try database.open(migrate: true)
            let crawlerService = try crawler.makeCrawler(database: opened.database, fetch: fetch)
            let notifier = noNotify ? nil : NotifierStarter.start(opened.database)
            // serve's relay: a sigaction handler (whichever thread the kernel picks runs it) that writes to
            // a pipe, installed before the crawler starts; a signal before `wait()` is kept. It replaces a
            // DispatchSource, which on Linux is a signalfd plus libdispatch's own handler that re-masks the
            // taking thread and re-raises: with it, a worker at times waited here after its first SIGTERM
            // (2 of ~6 stops under load in the 1M bench; not reproduced in WorkerSignalTests).
            let stop = StopRequest()
            try SignalShutdown.register(stop, signals: [SIGTERM, SIGINT])
            crawlerService.start { events.checkFinished($0, $1) }
            StandardError.log("worker crawling (\(crawler.workerID ?? DomainScheduler.defaultWorkerID()))")
            stop.wait()
            StandardError.log("stopping: finishing the checks in flight")
            crawlerService.stop()
            notifier?.stop()
            try opened.close()
            events.finish()
        }
    }
}

/// The worker's wait for SIGTERM or SIGINT. A signal before `wait()` is kept, not lost.
final class StopRequest: SignalStoppable {
    private let requested = DispatchSemaphore(value: 0)

    func stopForSignal() { requested.signal() }

    func wait() { requested.wait() }
}

/// Starts the outbox delivery worker; a settings error is logged, not fatal.
enum NotifierStarter {
    /// `listening`: where this process serves the dashboard (`serve`), for links when no address is configured.
    static func start(_ database: Database, listening: ListeningAddress? = nil) -> DeliveryWorker? {
        do {
            let environment = ProcessInfo.processInfo.environment
            let configuration = try NotificationSettings.deliveryConfiguration(environment: environment, database: database, listening: listening)
            let worker = DeliveryWorker(
                database: database, configuration: configuration,
                reload: { try NotificationSettings.deliveryConfiguration(environment: environment, database: database, listening: listening) },
                log: { StandardError.log("\($0)") })
            worker.start()
            return worker
        } catch {
            StandardError.log("error: notifications are not delivered: \(error)")
            return nil
        }
    }
}
