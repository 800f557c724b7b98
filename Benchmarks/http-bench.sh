#!/usr/bin/env bash
# Raw HTTP server throughput against the peers (Hummingbird, FlyingFox, nginx) with the shared
# compare script: builds HTTPBenchServer in release, starts it, and runs
#   SERVER_URL=... http-compare.sh /healthz /bench/page.html
# /healthz is a fixed inline "ok"; /bench/page.html is a ~20 KB static file from Public/.
# Env: HTTP_COMPARE (path of http-compare.sh; default ../shared/bench/http-compare.sh next to
# the repository), PORT (default 0: any free port), DURATION, CONNECTIONS, THREADS (passed through),
# STRACE=1 to also count system calls per request under wrk (needs strace).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="$PATH:/opt/swift/usr/bin"
compare=${HTTP_COMPARE:-../shared/bench/http-compare.sh}
[ -x "$compare" ] || compare=/work/shared/bench/http-compare.sh
[ -x "$compare" ] || { echo "http-bench: set HTTP_COMPARE to shared/bench/http-compare.sh" >&2; exit 2; }
compare=$(cd "$(dirname "$compare")" && pwd)/$(basename "$compare")
port=${PORT:-0}

swift build -c release --product HTTPBenchServer >&2
bin=$(swift build -c release --show-bin-path)/HTTPBenchServer
log=$(mktemp)
PORT=$port PUBLIC_DIR=Public "$bin" >"$log" 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q listening "$log" && break; sleep 0.1; done
grep -q listening "$log" || { echo "http-bench: server did not start" >&2; exit 1; }
url=$(awk '/listening on/ {print $3}' "$log")
curl -sf "$url/healthz" >/dev/null && curl -sf "$url/bench/page.html" >/dev/null

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
SERVER_URL=$url "$compare" /healthz /bench/page.html

if [ "${STRACE:-0}" = 1 ] && command -v strace >/dev/null; then
  for path in /healthz /bench/page.html; do
    out=$(mktemp)
    timeout 8 strace -c -f -p "$server" -o "$out" & tracer=$!
    sleep 1
    requests=$(wrk -t2 -c64 -d4s "$url$path" | awk '/requests in/ {print $1}')
    wait $tracer || true
    echo "strace -c -f under wrk $path: $requests requests"
    awk -v n="$requests" '$NF ~ /^(read|writev|epoll_wait|epoll_ctl|accept4|write|close)$/ {
        printf "  %-12s %10d calls  %.2f per request\n", $NF, $4, $4 / n }' "$out"
    rm -f "$out"
  done
fi
