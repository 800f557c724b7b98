import Fetch
import Foundation
@testable import Monitor
import Store
import Testing
import TestSupport

@Suite struct CrawlerServiceTests {
    /// The trim loop sleeps `trimEvery` between trims; a stopped service must not leave it behind (it
    /// used to outlive `stop()` by up to one interval). An hour's interval makes a loop that only
    /// notices the stop when it wakes still be running when `stop()` returns.
    @Test func stopLeavesNoTrimLoopRunning() async throws {
        try await TestPostgres.withDatabase { database in
            let fetcher = try Fetcher(FetchConfiguration())
            let pipeline = CheckPipeline(database: database, fetcher: fetcher)
            let service = CrawlerService(scheduler: DomainScheduler(pipeline: pipeline), trimEvery: .seconds(3600))
            service.start()
            #expect(service.trimLoopsRunning.withLock { $0 } == 1)
            // stop() blocks until the scheduler has finished: run it on a thread of its own, not the pool's.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread { service.stop(); done.resume() }.start()
            }
            #expect(service.trimLoopsRunning.withLock { $0 } == 0)
        }
    }
}
