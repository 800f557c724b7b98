import Foundation
import Outbound

/// A few threads that run blocking name resolution, so thousands of checks share them instead of
/// each holding a thread, and the transfer loop never waits on DNS.
final class ResolverPool: @unchecked Sendable {
    private let resolver: any HostResolver
    private let condition = NSCondition()
    private var jobs: [(String, @Sendable (Result<[IPAddress], ResolveError>, Double) -> Void)] = []
    private var head = 0
    private var stopping = false

    init(resolver: any HostResolver, threads: Int) {
        self.resolver = resolver
        for i in 0..<max(1, threads) {
            let thread = Thread { [self] in work() }
            thread.name = "aasa-resolve-\(i)"
            thread.start()
        }
    }

    func resolve(_ name: String) async -> (Result<[IPAddress], ResolveError>, Double) {
        await withCheckedContinuation { continuation in
            condition.lock()
            jobs.append((name, { result, seconds in continuation.resume(returning: (result, seconds)) }))
            condition.signal()
            condition.unlock()
        }
    }

    func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count && !stopping { condition.wait() }
            if head == jobs.count {
                condition.unlock()
                return
            }
            let (name, done) = jobs[head]
            head += 1
            if head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            let start = ContinuousClock.now
            let result = resolver.resolve(name)
            let elapsed = ContinuousClock.now - start
            done(result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }
}
