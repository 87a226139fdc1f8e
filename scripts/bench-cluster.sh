#!/usr/bin/env bash
# Server CPU per committed move with several cluster nodes on this one machine (BENCHMARKS.md
# "Cluster", docs/SCALING.md): every node and the NATS server pinned to core 0, the load
# generator to core 1 (`taskset`); each game's seats and spectator spread over the nodes; the
# committed turns counted in Postgres; the CPU of the nodes (summed), of NATS and of Postgres read
# from /proc.
# On one machine this measures what the cluster path costs per move, not what nodes add.
#
#   scripts/bench-cluster.sh NODES [runs] [-- loadgen options…]
#   scripts/bench-cluster.sh 3 3 -- --games 200 --seconds 20
#   scripts/bench-cluster.sh 0 3 -- --games 200 --seconds 20   # 0: one server alone, no NATS
#
# DJAMBI_BENCH_SERVER runs another server binary (an A/B against another build).
# NATS: DJAMBI_BENCH_NATS (default nats://127.0.0.1:4222), a running nats-server. Postgres:
# DJAMBI_BENCH_PG (default postgres://postgres@127.0.0.1:5432/djambi_bench), dropped and created
# for each run. Everything listens on 127.0.0.1 and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=${1:?usage: $0 NODES [runs] [-- loadgen options]}
runs=${2:-3}
shift $(( $# >= 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
cargo build --release -q -p djambi-server --bin djambi-server --example loadgen
nats=${DJAMBI_BENCH_NATS:-nats://127.0.0.1:4222}
db=${DJAMBI_BENCH_PG:-postgres://postgres@127.0.0.1:5432/djambi_bench}
base=${db%/*}
name=${db##*/}
port0=${DJAMBI_BENCH_PORT:-18180}
server_bin=${DJAMBI_BENCH_SERVER:-target/release/djambi-server}
nats_pid=$(pgrep -o -x nats-server || true)
nats_mask=""
if [ -n "$nats_pid" ]; then
  nats_mask=$(taskset -p "$nats_pid" | awk '{print $NF}')
fi
# One client address plays every game: lift the per-address budgets (not the frame limits).
limits=(--max-connections 1000000 --max-connections-per-ip 1000000
  --create-burst 1000000 --create-per-minute 1000000 --max-games-per-ip 1000000
  --max-open-games-per-ip 1000000 --ws-connect-burst 1000000 --ws-connect-per-minute 1000000
  --catchup-burst-kib 1000000 --catchup-kib-per-minute 1000000 --max-live-games 1000000)
# CPU ticks of every Postgres process (the server's backends included).
pg_ticks() {
  local total=0 pid
  for pid in $(pgrep -x postgres); do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
pids=()
stop_nodes() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}
restore_nats() {
  if [ -n "$nats_pid" ] && [ -n "$nats_mask" ]; then taskset -p "$nats_mask" "$nats_pid" >/dev/null || true; fi
}
trap 'stop_nodes; restore_nats' EXIT
for run in $(seq 1 "$runs"); do
  psql -q "$base/postgres" -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name"
  urls=()
  count=$(( nodes > 0 ? nodes : 1 ))
  for i in $(seq 1 "$count"); do
    port=$((port0 + i))
    cluster=()
    [ "$nodes" -gt 0 ] && cluster=(--nats "$nats" --node-name "bench$i")
    taskset -c 0 "$server_bin" --bind "127.0.0.1:$port" --database-url "$db" \
      --log warn "${cluster[@]}" "${limits[@]}" &
    pids+=($!)
    urls+=("http://127.0.0.1:$port")
    # One at a time: the first migrates the database.
    for _ in $(seq 1 100); do
      curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
      sleep 0.2
    done
  done
  nats_args=()
  if [ "$nodes" -gt 0 ] && [ -n "$nats_pid" ]; then
    taskset -p -c 0 "$nats_pid" >/dev/null
    nats_args=(--nats-pid "$nats_pid")
  fi
  echo "--- $( [ "$nodes" -gt 0 ] && echo "$nodes node(s) over NATS" || echo "one server alone" ), run $run of $runs"
  pg_before=$(pg_ticks)
  out=$(taskset -c 1 target/release/examples/loadgen --url "$(IFS=,; echo "${urls[*]}")" \
    --server-pid "$(IFS=,; echo "${pids[*]}")" "${nats_args[@]}" --count-db "$db" "$@")
  pg_after=$(pg_ticks)
  echo "$out"
  committed=$(echo "$out" | sed -n 's/.*the server committed \([0-9]*\) turns.*/\1/p')
  awk -v t=$((pg_after - pg_before)) -v hz="$(getconf CLK_TCK)" -v n="${committed:-1}" \
    'BEGIN { printf "Postgres CPU: %.2f s = %.0f µs per committed move\n", t / hz, t / hz * 1e6 / n }'
  stop_nodes
  restore_nats
done
