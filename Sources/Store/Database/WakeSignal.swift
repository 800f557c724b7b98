import Foundation

/// Wakes the loops that a `NotificationListener` serves — the scheduler (a "check now" NOTIFY, a
/// finished check, a stop) and the outbox's delivery threads (new rows) — from threads or tasks.
///
/// A generation counter: a signal sent while nobody waits is not lost. A thread reads `current`,
/// looks for work, then waits for the generation to move past what it read; the async `wait(timeout:)`
/// returns at once when any signal came since it last returned.
public final class WakeSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var generation = 0
    private var stopped = false
    /// The generation the async waiters last returned at.
    private var asyncSeen = 0
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextToken = 0

    public init() {}

    public var current: Int {
        condition.lock()
        defer { condition.unlock() }
        return generation
    }

    public var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    public func signal() {
        condition.lock()
        generation += 1
        let woken = takeWaiters()
        condition.broadcast()
        condition.unlock()
        for waiter in woken { waiter.resume() }
    }

    /// Wakes every waiter for good: `isStopped` is true from now on.
    public func stop() {
        condition.lock()
        stopped = true
        generation += 1
        let woken = takeWaiters()
        condition.broadcast()
        condition.unlock()
        for waiter in woken { waiter.resume() }
    }

    /// Blocks the calling thread until the generation moves past `seen`, the signal stops, or
    /// `seconds` pass.
    public func wait(after seen: Int, seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        condition.lock()
        defer { condition.unlock() }
        while generation == seen && !stopped {
            if !condition.wait(until: deadline) { return }
        }
    }

    /// Returns at the first signal since the previous return (one sent in between counts), or after `timeout`.
    public func wait(timeout: Duration) async {
        let token = takeToken()
        let timer = Task { [weak self] in
            do {
                try await Task.sleep(for: timeout)
                self?.timeOut(token)
            } catch {
                // Cancelled: a signal came first.
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            if generation != asyncSeen {
                asyncSeen = generation
                condition.unlock()
                continuation.resume()
            } else {
                waiters[token] = continuation
                condition.unlock()
            }
        }
        timer.cancel()
    }

    /// Under the lock: the async waiters a signal wakes, which have now seen this generation.
    private func takeWaiters() -> [CheckedContinuation<Void, Never>] {
        guard !waiters.isEmpty else { return [] }
        asyncSeen = generation
        let woken = Array(waiters.values)
        waiters.removeAll()
        return woken
    }

    private func takeToken() -> Int {
        condition.lock()
        defer { condition.unlock() }
        nextToken += 1
        return nextToken
    }

    private func timeOut(_ token: Int) {
        condition.lock()
        let waiter = waiters.removeValue(forKey: token)
        condition.unlock()
        waiter?.resume()
    }
}
