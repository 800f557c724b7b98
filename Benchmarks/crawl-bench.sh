#!/usr/bin/env bash
# Crawl benchmark (issue 4): the fetcher's full check rate vs curl --parallel on the same URL list,
# both against nginx with one wildcard certificate on loopback. Prints a Markdown table.
#   Benchmarks/crawl-bench.sh [--hosts 1000,10000] [--parallel 64] [--rounds 2]
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="$PATH:/opt/swift/usr/bin"
scripts/bootstrap --test
swift build -c release --product CrawlBench >&2
exec "$(swift build -c release --show-bin-path)/CrawlBench" "$@"
