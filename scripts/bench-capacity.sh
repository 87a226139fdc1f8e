#!/usr/bin/env bash
# Capacity of one release server (BENCHMARKS.md "Capacity"): memory per idle socket, a move's
# event to thousands of spectators, memory per live game. The server is pinned to core 0, the
# client to core 1; each scenario gets a fresh server on a fresh SQLite file.
#
#   scripts/bench-capacity.sh [runs] [idle|fanout|games ...]   (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift $(( $# >= 1 ? 1 : 0 ))
only=" ${*:-idle fanout games} "
cargo build --release -q -p djambi-server --bin djambi-server --example capacity
port=${DJAMBI_BENCH_PORT:-18081}
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
limits=(--max-connections 1000000 --max-connections-per-ip 1000000
  --create-burst 1000000 --create-per-minute 1000000 --max-games-per-ip 1000000
  --max-open-games-per-ip 1000000 --ws-connect-burst 1000000 --ws-connect-per-minute 1000000
  --catchup-burst-kib 1000000 --catchup-kib-per-minute 1000000 --max-live-games 1000000
  --max-spectators-per-game 10000)
dir=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$dir"' EXIT
scenario() {
  taskset -c 0 target/release/djambi-server --bind "127.0.0.1:$port" \
    --database-url "sqlite:$dir/capacity-$RANDOM.db" --log warn "${limits[@]}" &
  server=$!
  for _ in $(seq 1 50); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.2
  done
  taskset -c 1 target/release/examples/capacity --url "http://127.0.0.1:$port" \
    --server-pid "$server" "$@"
  kill "$server"
  wait "$server" 2>/dev/null || true
  server=
}
for run in $(seq 1 "$runs"); do
  echo "--- run $run of $runs"
  [[ $only == *" idle "* ]] && scenario idle --sockets 10000
  [[ $only == *" fanout "* ]] && scenario fanout --spectators 5000 --moves 100 --pace-ms 250
  [[ $only == *" games "* ]] && scenario games --games 1000 --turns 8
  true
done
