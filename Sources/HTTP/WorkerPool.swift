import Glibc

/// A fixed set of threads running jobs that may block (libpq, file reads), fed from a bounded
/// queue. Bounded on both sides: the thread count caps concurrent blocking work, and a full
/// queue refuses new jobs so the caller can answer 503 instead of piling up memory.
final class WorkerPool: @unchecked Sendable {
    typealias Job = () -> Void

    // pthread primitives need stable addresses, hence the manual allocation.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [Job?] = []     // guarded by mutex; a ring would save little here
    private var head = 0
    private var stopping = false
    private var threads: [OSThread] = []
    private let capacity: Int

    init(threadCount: Int, queueCapacity: Int) throws(SystemCallError) {
        capacity = max(1, queueCapacity)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        for index in 0..<max(1, threadCount) {
            threads.append(try OSThread.spawn(name: "http-worker-\(index)") { [self] in run() })
        }
    }

    deinit {
        pthread_mutex_destroy(mutex)
        pthread_cond_destroy(condition)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Queues `job`; false when the queue is full or the pool is stopping.
    func submit(_ job: @escaping Job) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !stopping, jobs.count - head < capacity else { return false }
        jobs.append(job)
        pthread_cond_signal(condition)
        return true
    }

    /// Lets the queued jobs finish, then stops and joins the threads.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        for thread in threads { thread.join() }
        threads = []
    }

    private func run() {
        while let job = next() { job() }
    }

    private func next() -> Job? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while head == jobs.count && !stopping {
            pthread_cond_wait(condition, mutex)
        }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        jobs[head] = nil
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024 && head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}
