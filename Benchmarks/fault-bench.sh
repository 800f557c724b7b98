#!/usr/bin/env bash
# The fault campaign (issue #30): release `serve` and two release `worker`s on one PostgreSQL (full
# durability) over the loopback TLS fleet, N domains (default 10,000) for MINUTES (default 30) under
# scheduled faults, then a settling phase; prints what was lost (Benchmarks/FaultBench, docs/benchmarks.md, Fault campaign).
#
#   Benchmarks/fault-bench.sh [--minutes 30] [--domains 10000] [--interval-seconds S] [--settle-minutes M]
#                             [--lease-seconds L] [--max-in-flight 64] [--keep-data DIR]
#
# A smoke run: Benchmarks/fault-bench.sh --minutes 5 --domains 2000 (interval 60 s: the schedule is in
# fractions of the run and in intervals, so a short run meets every fault once).
# Env: NO_BUILD=1 uses what is built; NICE (default 10). Output goes to the terminal; tee it to keep it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="$PATH:/opt/swift/usr/bin"
if [ "${NO_BUILD:-0}" != 1 ]; then
  nice -n 10 swift build -c release --product aasa-monitor >&2
  nice -n 10 swift build -c release --product FaultBench >&2
fi
bin=$(swift build -c release --show-bin-path)
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  load average: $(cut -d' ' -f1-3 /proc/loadavg)  $(nproc) cores  commit: $(git rev-parse --short HEAD)"
exec nice -n "${NICE:-10}" stdbuf -oL "$bin/FaultBench" "$@"
