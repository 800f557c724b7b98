#!/usr/bin/env bash
# The platform-scale benchmark (issue #17): N registered domains (default 1,000,000) on the embedded
# PostgreSQL, then every page and API a user opens, timed against a real `serve` process.
#
#   Benchmarks/scale-bench.sh [N]                 seed N domains, sizes, page latencies
#   Benchmarks/scale-bench.sh --round N[,N…] [WORKERS]   the sustained rounds of the real product
#
# --round: release `serve` (its embedded PostgreSQL) plus 1, 2 and 4 (WORKERS, e.g. 1,2,4) release
# `worker` processes on the loopback TLS fleet with N registered domains (both platforms' files), run by
# MonitorBench --round (Benchmarks/MonitorBench/SustainedRound.swift): a first round, a backlog round
# (all due at once: checks/s), paced rounds (PACE, default 278,0.8: checks/s, or a fraction of the
# backlog rate; scheduler lag p50/p99 of started − due), peak RSS per process, dead tuples; against
# curl --parallel, the bare fetcher and a full-handshake loop (openssl s_time). Env: PACE,
# BASELINE_HOSTS (10000), MAX_IN_FLIGHT (128), POOL_SIZE (4), NO_BUILD; SEED_FIRST_ROUND=K (the first
# round on K domains, its state copied to the others: how 1M is run, SeedFirstRound.swift), PACE_DOMAINS=M
# (a paced round covers the first M domains only), MAX_PER_ADDRESS=N (the workers' --max-per-address: every
# fleet host is one address, so the product's default of 8 per worker bounds a round), PACED_ONLY=1 (no backlog round: the paced rounds follow
# the first or seeded round directly, so PACE must be in checks/s; at 1M the backlog round is an hour of
# its own), KEEP_DATA=DIR (keep the database). Everything runs under nice -n 10 (NICE=-10 for a measured
# run in its own session, see the README).
#
# Builds aasa-monitor and ScaleBench in release (NO_BUILD=1 to use what is built), starts `serve`
# (--no-crawl --no-notify: only the pages) on an embedded PostgreSQL under DATA_DIR (default: a fresh
# temporary one; an existing one that already lists domains is not seeded again, KEEP=1 keeps a
# fresh one), seeds N domains with ScaleBench (both platforms' results in each domain's latest check,
# a day of hourly repeats each, a month of history for the first 1,000, one app linked to 1,000),
# prints the database's size, then for each page RUNS requests (default 50) uncached — a NOTIFY on
# the change channel before each, as after a crawler's check, so a cached page is recomputed — and
# cached (the same request again), and p50/p95 of curl's time_total. The JSON export is fetched
# once while serve's RSS is sampled every 20 ms.
# Env: DATA_DIR, RUNS (50), KEEP (0), NO_BUILD, SEED_ARGS (passed to ScaleBench seed, e.g. "--recent-checks 12"),
# ONLY (a regular expression: only the pages whose name matches; NO_EXPORT=1 skips the export).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="$PATH:/opt/swift/usr/bin"
if [ "${1:-}" = --round ]; then
  if [ "${NO_BUILD:-0}" != 1 ]; then
    nice -n 10 swift build -c release --product aasa-monitor >&2
    nice -n 10 swift build -c release --product MonitorBench >&2
  fi
  bin=$(swift build -c release --show-bin-path)
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  load average: $(cut -d' ' -f1-3 /proc/loadavg)  $(nproc) cores"
  # stdbuf: each round is printed as it ends, also into a file (a run lasts an hour).
  extra=()
  [ -n "${SEED_FIRST_ROUND:-}" ] && extra+=(--seed-first-round "$SEED_FIRST_ROUND")
  [ -n "${PACE_DOMAINS:-}" ] && extra+=(--pace-domains "$PACE_DOMAINS")
  [ "${PACED_ONLY:-0}" = 1 ] && extra+=(--paced-only)
  [ -n "${KEEP_DATA:-}" ] && extra+=(--keep-data "$KEEP_DATA")
  [ -n "${MAX_PER_ADDRESS:-}" ] && extra+=(--max-per-address "$MAX_PER_ADDRESS")
  exec nice -n "${NICE:-10}" stdbuf -oL "$bin/MonitorBench" --round "${2:-10000}" --workers "${3:-1,2,4}" --pace "${PACE:-278,0.8}" \
    --baseline-hosts "${BASELINE_HOSTS:-10000}" --max-in-flight "${MAX_IN_FLIGHT:-128}" --pool-size "${POOL_SIZE:-4}" "${extra[@]}"
fi
n=${1:-1000000}
runs=${RUNS:-50}

if [ "${NO_BUILD:-0}" != 1 ]; then
  nice -n 10 swift build -c release --product aasa-monitor >&2
  nice -n 10 swift build -c release --product ScaleBench >&2
fi
bin=$(swift build -c release --show-bin-path)

data=${DATA_DIR:-}
fresh=0
if [ -z "$data" ]; then data=$(mktemp -d); fresh=1; fi
work=$(mktemp -d)
serve_pid=
cleanup() {
  if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
  rm -rf "$work"
  if [ "$fresh" = 1 ] && [ "${KEEP:-0}" != 1 ]; then rm -rf "$data"; fi
  [ "$fresh" = 1 ] && [ "${KEEP:-0}" = 1 ] && echo "kept the data directory: $data" >&2
  return 0
}
trap cleanup EXIT

"$bin/aasa-monitor" serve --data-dir "$data" --port 0 --no-crawl --no-notify >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
# Migrations run first: one that rewrites a table takes minutes at 1M.
for _ in $(seq 36000); do grep -q listening "$work/serve.out" && break; kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.1; done
grep -q listening "$work/serve.out" || { cat "$work/serve.err" >&2; echo "scale-bench: serve did not start" >&2; exit 1; }
url=$(awk '/listening on/ {print $4}' "$work/serve.out")
export DATABASE_URL="postgresql:///aasa_monitor?host=$data/run&port=5432&user=aasa_monitor"
psql_() { psql -X -q -t -A "$DATABASE_URL" "$@"; }

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  load average: $(cut -d' ' -f1-3 /proc/loadavg)  $(nproc) cores  N=$n"
if [ "$(psql_ -c 'SELECT count(*) FROM domains')" = 0 ]; then
  /usr/bin/time -f "seed: %e s wall, %M KB peak RSS (ScaleBench)" nice -n 10 "$bin/ScaleBench" seed "$n" ${SEED_ARGS:-}
else
  echo "the database already lists $(psql_ -c 'SELECT count(*) FROM domains') domains: not seeded again"
fi
"$bin/ScaleBench" sizes
# No crawler runs here, so domains fall due while the seed and the pages run; a running system's
# workers would have checked them. Move the due ones one interval on, as their checks would, and let
# VACUUM set the visibility map as autovacuum would (the overview's index-only walks rely on it).
# Without this the 'checking' state's look at leased domains reads the whole due backlog.
psql_ -c "UPDATE domains SET next_check_at = next_check_at + make_interval(secs => interval_seconds) WHERE next_check_at <= now()" >/dev/null
psql_ -c "VACUUM ANALYZE domains" >/dev/null

email=bench@example.com password="benchmark password"
"$bin/aasa-monitor" user create --admin "$email" --password-stdin --data-dir "$data" <<<"$password" >/dev/null 2>&1 || true
token=$("$bin/aasa-monitor" token create scale-bench --read-only --data-dir "$data" 2>/dev/null | tail -1)
jar=$work/cookies
curl -sf -c "$jar" -b "$jar" "$url/login" >"$work/login.html"
csrf=$(grep -o 'name="csrf" value="[^"]*"' "$work/login.html" | head -1 | sed 's/.*value="//; s/"$//')
curl -sf -c "$jar" -b "$jar" -o /dev/null --data-urlencode "email=$email" --data-urlencode "password=$password" \
  --data-urlencode "csrf=$csrf" "$url/login"
session=$(awk '$6 == "aasa_session" {print $7}' "$jar")
[ -n "$session" ] || { echo "scale-bench: could not log in" >&2; exit 1; }
cookie="Cookie: aasa_session=$session"
bearer="Authorization: Bearer $token"

first=$(psql_ -c 'SELECT min(id) FROM domains')
recent=$(psql_ -c "SELECT max(id) FROM domains WHERE platforms = 'both'")
app=$(psql_ -c 'SELECT min(id) FROM apps')
pages=$(( n / 50 )); deep=$(( pages < 10000 ? pages : 10000 )); [ "$deep" -ge 1 ] || deep=1
mid=$(( n / 2 ))

# The deep pages as a person reaches them: the Next link of the page before (a keyset: ?page=N&after=
# the last id shown), and the API's next_after; each read once from page deep - 1 (itself an OFFSET walk).
next_link() { # path of a page -> the path its Next link points to
  curl -s -H "$cookie" "$url$1" | grep -o 'rel="next" href="[^"]*"' | head -1 | sed 's/.*href="//; s/"$//; s/&amp;/\&/g'
}
next_after() { # API path -> its next_after
  curl -s -H "$bearer" "$url$1" | python3 -c 'import json, sys; print(json.load(sys.stdin).get("next_after") or "")'
}
before=$(( deep > 1 ? deep - 1 : 1 ))
keyset=$(next_link "/?page=$before"); keyset_host=$(next_link "/?sort=host&page=$before")
api_after=$(next_after "/api/v1/domains?page=$before&per_page=50")
app_after=$(next_after "/api/v1/apps/$app")

# name|path|header
targets=(
  "overview page 1|/|$cookie"
  "overview page $deep (?page=, offset)|/?page=$deep|$cookie"
  "overview page $deep by the Next link (keyset)|${keyset:-/?page=$deep}|$cookie"
  "overview page $deep by host (?page=)|/?sort=host&page=$deep|$cookie"
  "overview page $deep by host, Next link|${keyset_host:-/?sort=host&page=$deep}|$cookie"
  "overview by host, descending|/?sort=host&dir=desc|$cookie"
  "overview by state, descending (best first)|/?dir=desc|$cookie"
  "overview by last check|/?sort=last-check|$cookie"
  "overview by last check, oldest first|/?sort=last-check&dir=desc|$cookie"
  "overview by last change|/?sort=last-change|$cookie"
  "overview by last change, failing only|/?sort=last-change&state=failing|$cookie"
  "search host substring 'e${mid}'|/?q=e${mid}|$cookie"
  "search matching every domain ('example')|/?q=example|$cookie"
  "filter state failing|/?state=failing|$cookie"
  "filter platform android|/?platform=android|$cookie"
  "filter platform android page $deep|/?platform=android&page=$deep|$cookie"
  "domain page (a month of history)|/domains/$first|$cookie"
  "domain page (a day of repeats)|/domains/$recent|$cookie"
  "app page (1,000 domains x 2 platforms)|/apps/$app|$cookie"
  "app page, its last page (page 20)|/apps/$app?page=20|$cookie"
  "API list page 1|/api/v1/domains|$bearer"
  "API list page $deep (page=, offset)|/api/v1/domains?page=$deep&per_page=50|$bearer"
  "API list page $deep by next_after (keyset)|/api/v1/domains?after=${api_after:-1}&per_page=50|$bearer"
  "API list, search matching every domain|/api/v1/domains?q=example|$bearer"
  "API domain|/api/v1/domains/$recent|$bearer"
  "API app (first page: 50 domains)|/api/v1/apps/$app|$bearer"
  "API app, its second page by next_after|/api/v1/apps/$app?after=${app_after:-1}|$bearer"
  "/metrics|/metrics|"
)

time_once() { # path header -> "seconds status bytes"
  curl -s -o /dev/null -w '%{time_total} %{http_code} %{size_download}\n' ${2:+-H "$2"} "$url$1"
}
stats() { # reads seconds, prints p50 p95 in ms (nearest rank)
  sort -n | awk '{ v[NR] = $1 * 1000 } END { a = int(NR * 0.50 + 0.999); b = int(NR * 0.95 + 0.999);
    if (a < 1) a = 1; if (b < 1) b = 1; printf "%.1f %.1f\n", v[a], v[b] }'
}
printf '%-48s %6s %10s %10s %10s %10s %10s %6s\n' page status "bytes" "p50 ms" "p95 ms" "p50 cached" "p95 cached" load
for t in "${targets[@]}"; do
  IFS='|' read -r name path header <<<"$t"
  [[ -z "${ONLY:-}" || "$name" =~ $ONLY ]] || continue
  read -r _ status size < <(time_once "$path" "$header")
  : >"$work/uncached"; : >"$work/cached"
  for _ in $(seq "$runs"); do
    psql_ -c "NOTIFY aasa_data_changed, 'domains'"
    sleep 0.15     # the change feed coalesces notifications for 100 ms
    time_once "$path" "$header" | cut -d' ' -f1 >>"$work/uncached"
  done
  time_once "$path" "$header" >/dev/null
  for _ in $(seq "$runs"); do time_once "$path" "$header" | cut -d' ' -f1 >>"$work/cached"; done
  read -r u50 u95 < <(stats <"$work/uncached")
  read -r c50 c95 < <(stats <"$work/cached")
  printf '%-48s %6s %10s %10s %10s %10s %10s %6s\n' "$name" "$status" "$size" "$u50" "$u95" "$c50" "$c95" "$(cut -d' ' -f1 /proc/loadavg)"
done

[ "${NO_EXPORT:-0}" = 1 ] && exit 0
# The JSON export, once, with serve's resident memory sampled while it is answered.
rss() { awk '/^VmRSS/ {print $2}' "/proc/$serve_pid/status"; }
before=$(rss)
( while kill -0 "$serve_pid" 2>/dev/null; do rss; sleep 0.02; done ) >"$work/rss" &
sampler=$!
curl -s -o "$work/export.json" -w '%{time_starttransfer} %{time_total} %{http_code} %{size_download}\n' -H "$cookie" \
  "$url/export/domains.json" >"$work/export.timing"
kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true
read -r ttfb total status size <"$work/export.timing"
peak=$(sort -n "$work/rss" | tail -1)
printf 'export JSON: status %s, %s bytes, first byte after %.0f ms, done after %.0f ms; serve RSS %s MB before, peak %s MB during (sampled every 20 ms)\n' \
  "$status" "$size" "$(echo "$ttfb * 1000" | bc)" "$(echo "$total * 1000" | bc)" "$((before / 1024))" "$((peak / 1024))"
echo "serve peak RSS over the whole run (VmHWM): $(awk '/^VmHWM/ {print int($2 / 1024)}' "/proc/$serve_pid/status") MB"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
