import Foundation
import Testing

/// Runs blocking work (processes, sockets, deadline polling) on a thread of its own and awaits it,
/// so a long test holds none of the cooperative pool's threads (two here) while it blocks, and the
/// async tests running beside it keep their threads.
enum DedicatedThread {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}

/// Expectations checked on a thread that is not the test's task (where `#expect` has no test to
/// report to): collected there, recorded as issues of the test afterwards, with their source lines.
final class ExpectationLog: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let lock = NSLock()
    private var failures: [(message: String, location: SourceLocation)] = []

    /// Notes a failed expectation and carries on, like `#expect`.
    func expect(_ condition: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
                sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            if try condition() { return }
            add("Expectation failed: \(message())", sourceLocation)
        } catch {
            add("Expectation failed with an error: \(error) \(message())", sourceLocation)
        }
    }

    /// Stops the flow when it cannot go on, like `#require`.
    func require<T>(_ value: T?, _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        guard let value else {
            let text = "Requirement failed: \(message())"
            add(text, sourceLocation)
            throw Failure(description: text)
        }
        return value
    }

    private func add(_ message: String, _ location: SourceLocation) {
        lock.lock()
        failures.append((message, location))
        lock.unlock()
    }

    /// Records every collected failure on the current test (call from the test's own task).
    func recordIssues() {
        lock.lock()
        let all = failures
        failures = []
        lock.unlock()
        for failure in all { Issue.record(Comment(rawValue: failure.message), sourceLocation: failure.location) }
    }
}
