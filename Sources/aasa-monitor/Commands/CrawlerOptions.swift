import ArgumentParser
import Fetch
import Foundation
import Monitor
import Store

/// How a process crawls: how many checks at once, how long a lease lasts, how often to look.
struct CrawlerOptions: ParsableArguments {
    @Option(name: .customLong("max-in-flight"), help: "Most checks this process runs at once.")
    var maxInFlight: Int = 256

    @Option(name: .customLong("lease-seconds"),
            help: "How long a leased domain stays this process's; a crashed process's domains are checked again after it.")
    var leaseSeconds: Int = 300

    @Option(name: .customLong("poll-seconds"), help: "How often to look for due domains when nothing wakes the crawler.")
    var pollSeconds: Double = 5

    @Option(name: .customLong("worker-id"), help: "Name written into domains.leased_by. Default: HOST:PID")
    var workerID: String?

    /// Lets a test watch several intervals pass in seconds. Below the product's one-minute minimum,
    /// so it is refused unless the environment says this is a test (a typo must not turn the crawler
    /// into a load generator against strangers' sites).
    @Option(name: .customLong("test-interval-seconds"), help: ArgumentHelp(
        "Tests only: check every domain every N seconds, whatever its interval. Refused unless \(Self.testIntervalVariable)=1.",
        visibility: .hidden))
    var testIntervalSeconds: Int?

    static let testIntervalVariable = "AASA_MONITOR_ALLOW_TEST_INTERVAL"

    func validate() throws {
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be at least 1") }
        guard leaseSeconds >= 5 else { throw ValidationError("--lease-seconds must be at least 5") }
        guard pollSeconds > 0 else { throw ValidationError("--poll-seconds must be positive") }
        if let testIntervalSeconds {
            guard ProcessInfo.processInfo.environment[Self.testIntervalVariable] == "1" else {
                throw ValidationError("--test-interval-seconds is for tests only; set \(Self.testIntervalVariable)=1 to use it")
            }
            guard testIntervalSeconds >= 1 else { throw ValidationError("--test-interval-seconds must be at least 1") }
        }
    }

    func makeCrawler(database: Database, fetch: FetchOptions) throws -> CrawlerService {
        let fetcher = try Fetcher(try fetch.configuration())
        let schedule = SchedulePolicy(testIntervalOverride: testIntervalSeconds.map { .seconds($0) })
        let pipeline = CheckPipeline(database: database, fetcher: fetcher, schedule: schedule)
        let configuration = DomainScheduler.Configuration(
            workerID: workerID ?? DomainScheduler.defaultWorkerID(), maxInFlight: maxInFlight,
            batchSize: min(maxInFlight, 64), lease: .seconds(leaseSeconds),
            pollInterval: .milliseconds(Int64(pollSeconds * 1000)))
        return CrawlerService(scheduler: DomainScheduler(pipeline: pipeline, configuration: configuration))
    }
}
