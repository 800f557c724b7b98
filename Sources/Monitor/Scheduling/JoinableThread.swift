import Foundation

/// A thread whose end can be waited for (Foundation's Thread has no join).
final class JoinableThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        let done = self.done
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
    }

    func join() {
        done.wait()
    }
}
