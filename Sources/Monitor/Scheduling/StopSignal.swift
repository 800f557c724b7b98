import Foundation

/// Set once to ask long-running loops (scheduler, listener thread) to finish.
public final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var onStop: [@Sendable () -> Void] = []

    public init() {}

    public var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    public func stop() {
        lock.lock()
        guard !stopped else { lock.unlock(); return }
        stopped = true
        let callbacks = onStop
        onStop = []
        lock.unlock()
        for callback in callbacks { callback() }
    }

    /// Runs `callback` when stopped (at once if already stopped).
    func whenStopped(_ callback: @escaping @Sendable () -> Void) {
        lock.lock()
        if stopped {
            lock.unlock()
            callback()
        } else {
            onStop.append(callback)
            lock.unlock()
        }
    }
}
