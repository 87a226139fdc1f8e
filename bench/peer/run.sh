#!/usr/bin/env bash
# The boardgame.io 0.50 peer benchmark (README.md): for each store, a fresh server pinned to
# core 0 and the load generator pinned to core 1 (taskset), G matches for S seconds; prints each
# run's summary line and JSON, then min – max over the runs.
#
#   bench/peer/run.sh [memory|postgres|both] [runs] [-- load.mjs options…]
#   GAMES=100 SECONDS_PER_RUN=30 bench/peer/run.sh both 3
#
# WAIT_IDLE=N: before each run, wait up to N seconds for a quiet machine (both cores at least
# 85 % idle over 3 s) — useful on a shared machine; each run reports what else ran meanwhile
# (`others_cpu_share`).
# BGIO_BENCH_PG (default postgres://postgres@127.0.0.1:5432/bgio_bench) is dropped and created
# again for each Postgres run; BGIO_BENCH_PORT (default 18090). Everything listens on 127.0.0.1
# and stops by itself (the load after SECONDS_PER_RUN, with a hard timeout behind it).
set -euo pipefail
cd "$(dirname "$0")"
stores=both
runs=1
[ $# -gt 0 ] && [ "$1" != "--" ] && { stores=$1; shift; }
[ $# -gt 0 ] && [ "$1" != "--" ] && { runs=$1; shift; }
[ "${1:-}" = "--" ] && shift
case $stores in
  both) stores="memory postgres" ;;
  memory|postgres) ;;
  *) echo "usage: $0 [memory|postgres|both] [runs] [-- load.mjs options]" >&2; exit 2 ;;
esac
games=${GAMES:-100}
secs=${SECONDS_PER_RUN:-30}
port=${BGIO_BENCH_PORT:-18090}
pg=${BGIO_BENCH_PG:-postgres://postgres@127.0.0.1:5432/bgio_bench}
[ -d node_modules ] || npm ci --no-audit --no-fund

if curl -s -o /dev/null "http://127.0.0.1:$port/"; then
  echo "port $port is in use (BGIO_BENCH_PORT picks another)" >&2
  exit 1
fi
dir=$(mktemp -d)
server=
trap 'if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi; rm -rf "$dir"' EXIT

# Waits up to $1 seconds until the machine was ≥ 85 % idle over 3 s.
wait_idle() {
  local until=$(( $(date +%s) + $1 ))
  while [ "$(date +%s)" -lt "$until" ]; do
    local a b
    a=$(head -1 /proc/stat); sleep 3; b=$(head -1 /proc/stat)
    if [ "$(echo "$a $b" | awk '{t=0; for (i=2;i<=11;i++) t+=$(i+11)-$i; print (($16-$5)+($17-$6) >= 0.85*t) ? 1 : 0}')" = 1 ]; then
      return 0
    fi
  done
  echo "(the machine stayed busy for $1 s; running anyway)"
}

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); node $(node --version); $(date -u +%FT%TZ)"
for store in $stores; do
  for run in $(seq 1 "$runs"); do
    server_args=(--port "$port")
    load_args=()
    if [ "$store" = postgres ]; then
      server_args+=(--db "$pg" --fresh)
      load_args+=(--count-db "$pg")
    fi
    [ "${WAIT_IDLE:-0}" = 0 ] || wait_idle "$WAIT_IDLE"
    NODE_ENV=production taskset -c 0 node server.mjs "${server_args[@]}" >"$dir/server.log" 2>&1 &
    server=$!
    for _ in $(seq 1 100); do
      curl -fsS -o /dev/null "http://127.0.0.1:$port/bench/stats" 2>/dev/null && break
      kill -0 "$server" 2>/dev/null || { cat "$dir/server.log" >&2; exit 1; }
      sleep 0.1
    done
    echo "--- $store, run $run of $runs: $games matches, $secs s; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    taskset -c 1 timeout $(( secs + 60 )) node load.mjs --url "http://127.0.0.1:$port" \
      --server-pid "$server" --games "$games" --seconds "$secs" "${load_args[@]}" "$@" \
      | tee -a "$dir/results.jsonl"
    errors=$(grep -c 'ERROR' "$dir/server.log" || true)
    [ "$errors" = 0 ] || echo "server logged $errors errors, e.g.: $(grep -m1 ERROR "$dir/server.log")"
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
  done
done

echo "--- min – max over the runs"
grep '^{' "$dir/results.jsonl" | node -e '
const rows = require("fs").readFileSync(0, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const by = {};
for (const r of rows) (by[r.store] ??= []).push(r);
const span = (xs) => { const a = Math.min(...xs), b = Math.max(...xs); return a === b ? `${a}` : `${a} – ${b}`; };
for (const [store, rs] of Object.entries(by)) {
  console.log(`${store} (${rs.length} runs): ${span(rs.map((r) => r.committed_moves_per_s))} moves/s; ` +
    `p99 ${span(rs.map((r) => r.latency_ms.p99))} ms (p50 ${span(rs.map((r) => r.latency_ms.p50))}); ` +
    `server CPU ${span(rs.map((r) => r.server_cpu_us_per_move))} µs per committed move; ` +
    `${span(rs.map((r) => r.bytes_per_update_to_spectator))} B per update to a spectator; ` +
    `server ${span(rs.map((r) => Math.round(r.server_cpu_share * 100)))} % of a core, ` +
    `everything else ${span(rs.map((r) => Math.round(r.others_cpu_share * 100)))} %`);
}'
