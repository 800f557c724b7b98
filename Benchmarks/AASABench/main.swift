// AASA benchmarks, one section per file, run in one process so their ratios share one machine state.
// Build and run in release: swift run -c release AASABench
MatcherBench.run()
ValidatorBench.run()
