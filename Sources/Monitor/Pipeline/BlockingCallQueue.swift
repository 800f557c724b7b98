import Dispatch

/// Runs blocking calls (libpq) on GCD threads instead of the cooperative pool: on two cores that
/// pool has two threads, and a handful of checks waiting on the database would stall every fetch.
enum BlockingCallQueue {
    private static let queue = DispatchQueue(label: "aasa-monitor.blocking", attributes: .concurrent)

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
