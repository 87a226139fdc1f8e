#!/usr/bin/env bash
# Server CPU per committed move, throughput and bytes, as BENCHMARKS.md records them: the
# release server pinned to core 0, the load generator to core 1 (`taskset`), the committed
# turns counted in the database, the server's CPU time read from /proc.
#
#   scripts/bench-moves.sh [sqlite|postgres] [runs] [-- loadgen options…]
#   scripts/bench-moves.sh sqlite 3 -- --games 100 --seconds 20
#
# DJAMBI_BENCH_SERVER runs another server binary (an A/B against an older build).
# Postgres: DJAMBI_BENCH_PG (default postgres://postgres@127.0.0.1:5432/djambi_bench) is
# dropped and created for each run. Everything listens on 127.0.0.1 and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
backend=${1:-sqlite}
runs=${2:-3}
shift $(( $# >= 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
cargo build --release -q -p djambi-server --bin djambi-server --example loadgen
port=${DJAMBI_BENCH_PORT:-18080}
server_bin=${DJAMBI_BENCH_SERVER:-target/release/djambi-server}
# One client address plays every game: lift the per-address budgets (not the frame limits).
limits=(--max-connections 1000000 --max-connections-per-ip 1000000
  --create-burst 1000000 --create-per-minute 1000000 --max-games-per-ip 1000000
  --max-open-games-per-ip 1000000 --max-bot-games-per-ip 1000000 --ws-connect-burst 1000000 --ws-connect-per-minute 1000000
  --catchup-burst-kib 1000000 --catchup-kib-per-minute 1000000 --max-live-games 1000000)
dir=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$dir"' EXIT
for run in $(seq 1 "$runs"); do
  case $backend in
    sqlite) db="sqlite:$dir/bench-$run.db" ;;
    postgres)
      db=${DJAMBI_BENCH_PG:-postgres://postgres@127.0.0.1:5432/djambi_bench}
      base=${db%/*}
      name=${db##*/}
      psql -q "$base/postgres" -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name" ;;
    *) echo "usage: $0 [sqlite|postgres] [runs] [-- loadgen options]" >&2; exit 2 ;;
  esac
  taskset -c 0 "$server_bin" --bind "127.0.0.1:$port" --database-url "$db" \
    --log warn "${limits[@]}" &
  server=$!
  for _ in $(seq 1 50); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.2
  done
  echo "--- $backend, run $run of $runs"
  taskset -c 1 target/release/examples/loadgen --url "http://127.0.0.1:$port" \
    --server-pid "$server" --count-db "$db" "$@"
  kill "$server"
  wait "$server" 2>/dev/null || true
  server=
done
