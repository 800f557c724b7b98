import Foundation

/// Wakes the scheduler loop: a check finished (room for another), a "check now" NOTIFY arrived,
/// or the poll interval passed. A signal sent while nobody waits is kept for the next wait.
final class WakeSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    private var waiter: CheckedContinuation<Void, Never>?

    func signal() {
        lock.lock()
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume()
        } else {
            pending = true
            lock.unlock()
        }
    }

    /// Returns at the first signal, or after `timeout`.
    func wait(timeout: Duration) async {
        let timer = Task { [weak self] in
            do {
                try await Task.sleep(for: timeout)
                self?.signal()
            } catch {
                // Cancelled: a real signal came first.
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if pending {
                pending = false
                lock.unlock()
                continuation.resume()
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
        timer.cancel()
    }
}
