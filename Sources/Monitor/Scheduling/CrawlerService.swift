import Dispatch
import Fetch
import CShim
import Store
import Synchronization

/// The crawler as a background service of a process (`serve`, `worker`): a scheduler loop on its own
/// task, stopped with `stop()`, which waits until the checks in flight are recorded.
public final class CrawlerService: Sendable {
    public let scheduler: DomainScheduler
    private let stopSignal = StopSignal()
    private let finished = DispatchSemaphore(value: 0)
    private let trimEvery: Duration
    /// The trim loop `start` began, cancelled by `stop`; `trimEnded` is signalled as it returns.
    private let trimTask = Mutex<Task<Void, Never>?>(nil)
    private let trimEnded = DispatchSemaphore(value: 0)
    /// Trim loops started and not yet returned: what a test reads to see that `stop` leaves none.
    let trimLoopsRunning = Mutex(0)

    /// `trimEvery`: how often freed heap memory is handed back to the kernel (`malloc_trim`).
    ///
    /// Why: a worker's live heap stays flat once its TLS session cache is full (about 70 MB over a
    /// 12,000-domain first round, heaptrack), but its RSS kept climbing in steps (198 → 232 MB between
    /// 4,000 and 12,000 domains): glibc keeps what each thread's arena once held (the checks run on
    /// many pool and GCD threads, so on many arenas) and returns only the top of a heap. RSS followed the
    /// highest concurrency each arena had seen, which looked like growth with the number of domains.
    /// Trimming walks the free lists: a few milliseconds every few seconds.
    public init(scheduler: DomainScheduler, trimEvery: Duration = .seconds(10)) {
        self.scheduler = scheduler
        self.trimEvery = trimEvery
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
        let trimEvery = self.trimEvery
        // Counted before the task runs, so the count is exact the moment `start` returns.
        trimLoopsRunning.withLock { $0 += 1 }
        let trim = Task.detached(priority: .utility) { [self] in
            // A cancelled sleep throws: `stop` ends the loop at once rather than up to `trimEvery` later.
            while (try? await Task.sleep(for: trimEvery)) != nil, !Task.isCancelled {
                _ = cshim_malloc_trim(0)
            }
            trimLoopsRunning.withLock { $0 -= 1 }
            trimEnded.signal()
        }
        trimTask.withLock { $0 = trim }
    }

    /// Asks the loop to finish and blocks until it has, and the trim loop with it (call from a thread,
    /// not the cooperative pool).
    public func stop() {
        stopSignal.stop()
        let trim = trimTask.withLock { task in
            defer { task = nil }
            return task
        }
        trim?.cancel()
        finished.wait()
        if trim != nil { trimEnded.wait() }
        scheduler.pipeline.fetcher.shutdown()
    }
}
