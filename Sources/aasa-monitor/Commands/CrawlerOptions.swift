import ArgumentParser
import Fetch
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

    func validate() throws {
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be at least 1") }
        guard leaseSeconds >= 5 else { throw ValidationError("--lease-seconds must be at least 5") }
        guard pollSeconds > 0 else { throw ValidationError("--poll-seconds must be positive") }
    }

    func makeCrawler(database: Database, fetch: FetchOptions) throws -> CrawlerService {
        let fetcher = try Fetcher(try fetch.configuration())
        let pipeline = CheckPipeline(database: database, fetcher: fetcher)
        let configuration = DomainScheduler.Configuration(
            workerID: workerID ?? DomainScheduler.defaultWorkerID(), maxInFlight: maxInFlight,
            batchSize: min(maxInFlight, 64), lease: .seconds(leaseSeconds),
            pollInterval: .milliseconds(Int64(pollSeconds * 1000)))
        return CrawlerService(scheduler: DomainScheduler(pipeline: pipeline, configuration: configuration))
    }
}
