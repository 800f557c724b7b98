#!/usr/bin/env bash
# Overview throughput as a signed-in browser sees it, against Hummingbird's static /page, measured
# with wrk in one run (../shared/bench/http-compare.sh cannot send a session cookie).
#
#   Benchmarks/overview-bench.sh [PATH ...]        (default paths: / and /?sort=host&page=100)
#
# Builds aasa-monitor and WebBench in release, starts `serve` on an embedded PostgreSQL under
# DATA_DIR (default: a fresh temporary one), seeds 10,000 domains with a year of hourly checks for
# 100 of them (WebBench --seed-only, skipped when the overview already lists domains), creates an
# account, logs in, then runs wrk with the cookie on each PATH and on Hummingbird's /page and prints
# req/s, p50, p99 and the ratio.
# Env: DATA_DIR, DURATION (5s), CONNECTIONS (64), THREADS (2), PEERS_DIR (../shared/bench/peers),
# NO_BUILD=1 to use the binaries already built, CHANGES_PER_SECOND=N to have pgbench write N
# check-like changes per second (a domain's last check moves) while wrk runs on the project, as
# crawlers would: each one invalidates the cached overview.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="$PATH:/opt/swift/usr/bin"
command -v wrk >/dev/null || { echo "overview-bench: wrk is missing: apt-get install -y wrk" >&2; exit 2; }
dur=${DURATION:-5s} conns=${CONNECTIONS:-64} threads=${THREADS:-2}
paths=("$@"); [ ${#paths[@]} -gt 0 ] || paths=(/ "/?sort=host&page=100")
peers=${PEERS_DIR:-../shared/bench/peers}
[ -d "$peers" ] || peers=/work/shared/bench/peers
[ -d "$peers" ] || { echo "overview-bench: set PEERS_DIR to shared/bench/peers" >&2; exit 2; }

if [ "${NO_BUILD:-0}" != 1 ]; then
  swift build -c release --product aasa-monitor >&2
  swift build -c release --product WebBench >&2
  (cd "$peers" && swift build -c release >&2)
fi
bin=$(swift build -c release --show-bin-path)
peerbin=$(cd "$peers" && swift build -c release --show-bin-path)

data=${DATA_DIR:-}
fresh=0
if [ -z "$data" ]; then data=$(mktemp -d); fresh=1; fi
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
  [ "$fresh" = 1 ] && rm -rf "$data"
  return 0
}
trap cleanup EXIT

: >"$work/serve.out"
"$bin/aasa-monitor" serve --data-dir "$data" --port 0 --no-crawl --no-notify >"$work/serve.out" 2>"$work/serve.err" &
pids+=($!)
for _ in $(seq 300); do grep -q listening "$work/serve.out" && break; sleep 0.1; done
grep -q listening "$work/serve.out" || { cat "$work/serve.err" >&2; echo "overview-bench: serve did not start" >&2; exit 1; }
url=$(awk '/listening on/ {print $4}' "$work/serve.out")
export DATABASE_URL="postgresql:///aasa_monitor?host=$data/run&port=5432&user=aasa_monitor"

email=bench@example.com password="benchmark password"
"$bin/aasa-monitor" user create --admin "$email" --password-stdin --data-dir "$data" <<<"$password" >/dev/null 2>&1 || true
jar=$work/cookies
curl -sf -c "$jar" -b "$jar" "$url/login" >"$work/login.html"
csrf=$(grep -o 'name="csrf" value="[^"]*"' "$work/login.html" | head -1 | sed 's/.*value="//; s/"$//')
curl -sf -c "$jar" -b "$jar" -o /dev/null --data-urlencode "email=$email" --data-urlencode "password=$password" \
  --data-urlencode "csrf=$csrf" "$url/login"
session=$(awk '$6 == "aasa_session" {print $7}' "$jar")
[ -n "$session" ] || { echo "overview-bench: could not log in" >&2; exit 1; }
cookie="Cookie: aasa_session=$session"
if curl -sf -H "$cookie" "$url/" | grep -q 'No domains yet'; then "$bin/WebBench" --seed-only >&2; fi
curl -sf -H "$cookie" "$url/" | grep -q '<tbody>' || { echo "overview-bench: the overview has no rows" >&2; exit 1; }

PORT=18082 "$peerbin/PeerHummingbird" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do curl -sf http://127.0.0.1:18082/page >/dev/null && break; sleep 0.1; done

run() { # url [header] -> "rps p50ms p99ms"
  wrk -t"$threads" -c"$conns" -d"$dur" --latency ${2:+-H "$2"} "$1" 2>/dev/null | awk '
    function ms(v) { if (v ~ /us$/) { sub(/us/,"",v); return v/1000 } if (v ~ /ms$/) { sub(/ms/,"",v); return v+0 } sub(/s/,"",v); return v*1000 }
    /^ +50%/ { p50=ms($2) } /^ +99%/ { p99=ms($2) }
    /^Non-2xx/ { bad=$NF }
    /^Requests\/sec/ { rps=$2 }
    END { if (bad > 0) rps=0; printf "%.0f %.2f %.2f\n", rps, p50, p99 }'
}
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  load average: $(cut -d' ' -f1-3 /proc/loadavg)  $(nproc) cores  wrk -t$threads -c$conns -d$dur"
printf '%-36s %10s %8s %8s %10s\n' target "req/s" "p50 ms" "p99 ms" "size B"
read -r hb hb50 hb99 < <(run http://127.0.0.1:18082/page)
printf '%-36s %10s %8s %8s %10s\n' "hummingbird /page" "$hb" "$hb50" "$hb99" "$(curl -s http://127.0.0.1:18082/page | wc -c)"
changes=${CHANGES_PER_SECOND:-0}
if [ "$changes" != 0 ]; then
  command -v pgbench >/dev/null || { echo "overview-bench: CHANGES_PER_SECOND needs pgbench" >&2; exit 2; }
  cat >"$work/change.sql" <<'SQL'
\set n random(0, 9999)
UPDATE domains SET last_checked_at = now() WHERE id = (SELECT min(id) FROM domains) + :n;
SQL
  echo "with $changes changes per second by another process (pgbench)"
fi
for p in "${paths[@]}"; do
  if [ "$changes" != 0 ]; then
    pgbench -n -c 1 -R "$changes" -T "${dur%s}" -f "$work/change.sql" "$DATABASE_URL" >"$work/pgbench.out" 2>&1 &
    writer=$!
  fi
  read -r r r50 r99 < <(run "$url$p" "$cookie")
  if [ "$changes" != 0 ]; then
    wait "$writer" || true
    echo "  changes written: $(awk '/number of transactions actually processed/ {print $NF}' "$work/pgbench.out")"
  fi
  size=$(curl -s -H "$cookie" "$url$p" | wc -c)
  printf '%-36s %10s %8s %8s %10s\n' "project $p (signed in)" "$r" "$r50" "$r99" "$size"
  python3 -c "import sys; r, hb = float(sys.argv[1]), float(sys.argv[2]); print(f'  ratio against hummingbird /page: {r/hb:.2f}')" "$r" "$hb"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
