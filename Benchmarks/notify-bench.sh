#!/usr/bin/env bash
# Outbox delivery benchmark: latency from an outbox row's commit to the webhook's arrival, and
# deliveries per second to a local receiver, against the raw POST rate as the baseline.
#   Benchmarks/notify-bench.sh [latency-samples=50] [throughput-rows=1000] [threads=4]
# Starts its own temporary PostgreSQL and webhook receiver on loopback; stops them when done.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="$PATH:/opt/swift/usr/bin"
swift build -c release --product NotifyBench >&2
exec "$(swift build -c release --show-bin-path)/NotifyBench" "$@"
