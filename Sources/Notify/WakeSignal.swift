import Foundation

/// Wakes idle delivery threads when the listener hears about new outbox rows. A generation
/// counter, so a signal sent between a thread's last scan and its wait is not lost.
final class WakeSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var generation = 0
    private var stopped = false

    var current: Int {
        condition.lock()
        defer { condition.unlock() }
        return generation
    }

    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    func signal() {
        condition.lock()
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the generation moves past `seen` or `seconds` pass.
    func wait(after seen: Int, seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        condition.lock()
        defer { condition.unlock() }
        while generation == seen && !stopped {
            if !condition.wait(until: deadline) { return }
        }
    }
}
