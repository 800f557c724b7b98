/// Shared by the pure-core benchmark executables (AASABench, AssetLinksBench), so their ratios are measured alike.
/// Times closures: each is repeated until a batch takes long enough to measure, and the two sides
/// of a comparison are run in alternating rounds keeping each side's best, so a busy shared machine
/// (other builds on the same two cores) slows both alike instead of skewing the ratio.
public enum Stopwatch {
    /// Nanoseconds per call of `ours` and of `baseline`.
    public static func compare(rounds: Int = 21, minimum: Duration = .milliseconds(15), _ ours: () -> Void,
                        _ baseline: () -> Void) -> (ours: Double, baseline: Double) {
        let oursIterations = calibrate(minimum, ours)
        let baselineIterations = calibrate(minimum, baseline)
        var bestOurs = Double.infinity
        var bestBaseline = Double.infinity
        for _ in 0..<rounds {
            bestOurs = min(bestOurs, time(oursIterations, ours))
            bestBaseline = min(bestBaseline, time(baselineIterations, baseline))
        }
        return (bestOurs, bestBaseline)
    }

    /// Nanoseconds per call of one closure, best of `rounds`.
    public static func nanosecondsPerCall(rounds: Int = 15, minimum: Duration = .milliseconds(15), _ body: () -> Void) -> Double {
        let iterations = calibrate(minimum, body)
        return (0..<rounds).map { _ in time(iterations, body) }.min() ?? 0
    }

    /// One call, in nanoseconds (for cases too slow to repeat).
    public static func once(_ body: () -> Void) -> Double {
        nanoseconds(ContinuousClock().measure(body))
    }

    private static func calibrate(_ minimum: Duration, _ body: () -> Void) -> Int {
        var iterations = 1
        while iterations < 1 << 24 {
            if ContinuousClock().measure({ for _ in 0..<iterations { body() } }) >= minimum { break }
            iterations *= 2
        }
        return iterations
    }

    private static func time(_ iterations: Int, _ body: () -> Void) -> Double {
        nanoseconds(ContinuousClock().measure { for _ in 0..<iterations { body() } }) / Double(iterations)
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
}

/// Keeps results alive so the optimiser cannot drop the work being timed.
nonisolated(unsafe) public var benchmarkSink = 0
