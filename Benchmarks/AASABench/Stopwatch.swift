/// Times a closure: repeats it until a batch takes long enough to measure, best of several batches,
/// so one run gives stable per-call figures on a shared machine.
enum Stopwatch {
    /// Nanoseconds per call.
    static func nanosecondsPerCall(minimum: Duration = .milliseconds(150), rounds: Int = 3, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var iterations = 1
        while true {
            let elapsed = clock.measure { for _ in 0..<iterations { body() } }
            if elapsed >= minimum / 4 || iterations >= 1 << 24 { break }
            iterations *= 4
        }
        var best = Double.infinity
        for _ in 0..<rounds {
            let elapsed = clock.measure { for _ in 0..<iterations { body() } }
            best = min(best, Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
        }
        return best / Double(iterations)
    }

    /// One call, in nanoseconds (for cases too slow to repeat).
    static func once(_ body: () -> Void) -> Double {
        let elapsed = ContinuousClock().measure(body)
        return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    }
}

/// Keeps results alive so the optimiser cannot drop the work being timed.
nonisolated(unsafe) var benchmarkSink = 0
