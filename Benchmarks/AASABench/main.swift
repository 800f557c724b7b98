// Filled in by the AASA core issue: matcher and validator benchmarks.
print("AASABench: not yet written")
