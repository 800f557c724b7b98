// AASA benchmarks, one section per file, run in one process so their ratios share one machine state.
// Build and run in release: swift run -c release AASABench
// AASABENCH_PROFILE_VALIDATE=N runs only the validator, N times (for callgrind or perf record).
import Foundation

if ProcessInfo.processInfo.environment["AASABENCH_PROFILE_VALIDATE"] == nil {
    MatcherBench.run()
}
ValidatorBench.run()
