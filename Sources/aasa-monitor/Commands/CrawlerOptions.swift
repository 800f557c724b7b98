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

    // Each secondary request has its own cadence; it is also made whenever the origin's answer moved,
    // the copy lagged or failed last time, or (the comparisons) the platform's fetcher looks blocked.
    @Option(name: .customLong("cdn-interval"),
            help: "Minutes between questions to Apple's CDN while it agrees with the origin (0: every check).")
    var cdnIntervalMinutes: Double = SecondaryCadence().appleCDN / 60

    @Option(name: .customLong("google-interval"),
            help: "Minutes between questions to Google's Digital Asset Links API while it agrees (0: every check).")
    var googleIntervalMinutes: Double = SecondaryCadence().googleAPI / 60

    @Option(name: .customLong("comparison-interval"),
            help: "Minutes between the browser/Android user-agent and root-location comparisons while the platform's own fetch answers as before (0: every check).")
    var comparisonIntervalMinutes: Double = SecondaryCadence().comparisons / 60

    @Option(name: .customLong("certificate-interval"),
            help: "Minutes between full TLS handshakes that read the certificate; in between a check rides on a kept connection or a resumed session (0: every check).")
    var certificateIntervalMinutes: Double = SecondaryCadence().certificate / 60

    @Option(name: .customLong("full-fetch-interval"),
            help: "Minutes between unconditional fetches of the platforms' own files; in between a file last served with a strong ETag is asked with If-None-Match (0: every check).")
    var fullFetchIntervalMinutes: Double = SecondaryCadence().fullFetch / 60

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
        for (name, minutes) in [("--cdn-interval", cdnIntervalMinutes), ("--google-interval", googleIntervalMinutes),
                                ("--comparison-interval", comparisonIntervalMinutes),
                                ("--certificate-interval", certificateIntervalMinutes),
                                ("--full-fetch-interval", fullFetchIntervalMinutes)] where !(minutes >= 0 && minutes.isFinite) {
            throw ValidationError("\(name) must be a number of minutes, 0 or more")
        }
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
        let cadence = SecondaryCadence(appleCDN: cdnIntervalMinutes * 60, googleAPI: googleIntervalMinutes * 60,
                                       comparisons: comparisonIntervalMinutes * 60, certificate: certificateIntervalMinutes * 60,
                                       fullFetch: fullFetchIntervalMinutes * 60)
        let pipeline = CheckPipeline(database: database, fetcher: fetcher, schedule: schedule,
                                     tuning: AlertTuningSource(database: database), cadence: cadence)
        let configuration = DomainScheduler.Configuration(
            workerID: workerID ?? DomainScheduler.defaultWorkerID(), maxInFlight: maxInFlight,
            batchSize: min(maxInFlight, 64), lease: .seconds(leaseSeconds),
            pollInterval: .milliseconds(Int64(pollSeconds * 1000)))
        return CrawlerService(scheduler: DomainScheduler(pipeline: pipeline, configuration: configuration))
    }
}
