import Dispatch
import Fetch
import Store

/// The crawler as a background service of a process (`serve`, `worker`): a scheduler loop on its own
/// task, stopped with `stop()`, which waits until the checks in flight are recorded.
public final class CrawlerService: Sendable {
    public let scheduler: DomainScheduler
    private let stopSignal = StopSignal()
    private let finished = DispatchSemaphore(value: 0)

    public init(scheduler: DomainScheduler) {
        self.scheduler = scheduler
    }

    /// `observe` sees every finished check (the JSON log's check events).
    public func start(observe: (@Sendable (LeasedDomain, Result<CheckPipeline.Result, any Error>) -> Void)? = nil) {
        let scheduler = self.scheduler
        let stopSignal = self.stopSignal
        let finished = self.finished
        Task.detached {
            await scheduler.run(until: stopSignal, observe: observe)
            finished.signal()
        }
    }

    /// Asks the loop to finish and blocks until it has (call from a thread, not the cooperative pool).
    public func stop() {
        stopSignal.stop()
        finished.wait()
        scheduler.pipeline.fetcher.shutdown()
    }
}
