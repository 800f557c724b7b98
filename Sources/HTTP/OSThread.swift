import CShim
import Glibc

/// A plain pthread: the event loops and workers block in epoll_wait or on a condition, which
/// must not happen on Swift's cooperative thread pool.
struct OSThread: Sendable {
    private final class Start {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private let handle: pthread_t

    /// Starts `body` on a new thread named `name` (shown by top -H and in debuggers).
    static func spawn(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) -> OSThread {
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        var handle = pthread_t()
        let result = pthread_create(&handle, nil, { context in
            guard let context else { return nil }
            let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
            start.body()
            return nil
        }, start)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            throw SystemCallError(call: "pthread_create", code: result)
        }
        _ = cshim_pthread_setname(handle, String(name.prefix(15)))
        return OSThread(handle: handle)
    }

    func join() {
        pthread_join(handle, nil)
    }
}
