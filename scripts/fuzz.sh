#!/usr/bin/env bash
# Runs the fuzz targets of fuzz/ (docs/FUZZING.md) one after the other, each for N inputs,
# under `nice -n 19` and as one libFuzzer job, and prints per target the inputs run, the time,
# the executions per second, the edges covered, the inputs this run added to the working corpus
# and that corpus's size. Needs a nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`).
#
#   scripts/fuzz.sh [--runs N] [target...]      N defaults to 10000000; targets to all five
#   scripts/fuzz.sh --runs 100000 dpn record
#
# Each target reads its committed seeds (fuzz/corpus/<target>/) and its dictionary of tokens
# (fuzz/dict/<target>.dict), and grows a working corpus in fuzz/work/<target>/ (git-ignored,
# kept between runs); libFuzzer's log is fuzz/work/<target>.log.
# A crash stops that target, leaves its input in fuzz/artifacts/<target>/, and makes the script
# exit 1 after the other targets have run.
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$self")/../fuzz"

runs=10000000
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --runs=*) runs=${1#--runs=}; shift ;;
    -h|--help) sed -n '2,15p' "$self"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(client_frame http_bodies record dpn turn_text)

# The longest input worth trying per target: a little past each parser's own limit, so the
# refusal of an input that is too long is fuzzed too (frames: 4096 bytes; DPN: 512; turn
# text: 32); bodies and records as large as a real one gets, while staying fast.
max_len() {
  case $1 in
    client_frame) echo 5000 ;;
    http_bodies) echo 4096 ;;
    record) echo 16384 ;;
    dpn) echo 600 ;;
    turn_text) echo 64 ;;
    *) echo "fuzz.sh: unknown target $1" >&2; exit 2 ;;
  esac
}
for t in "${targets[@]}"; do max_len "$t" >/dev/null; done

nice -n 19 cargo +nightly fuzz build >&2
failed=0
printf '%-13s %12s %9s %10s %7s %7s %7s\n' target inputs seconds exec/s cov new corpus
for t in "${targets[@]}"; do
  mkdir -p "work/$t"
  log="work/$t.log"
  status=0
  nice -n 19 cargo +nightly fuzz run "$t" "work/$t" "corpus/$t" -- \
    -runs="$runs" -max_len="$(max_len "$t")" -dict="dict/$t.dict" -timeout=10 \
    -print_final_stats=1 \
    >"$log" 2>&1 || status=$?
  done_line=$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 || true)
  inputs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)
  speed=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log" | tail -1)
  seconds=$(sed -nE 's/^Done [0-9]+ runs in ([0-9]+) second.*/\1/p' <<<"$done_line")
  # A crash ends the run before libFuzzer's summary line: estimate from its statistics.
  [ -n "$seconds" ] || [ -z "${speed:-}" ] || [ "$speed" -eq 0 ] || seconds="~$((inputs / speed))"
  # Runs under a second report 0 exec/s.
  [ "${speed:-0}" != 0 ] || [ "${seconds:-0}" = 0 ] || speed=$((inputs / seconds))
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  new=$(sed -nE 's/^stat::new_units_added: *([0-9]+)/\1/p' "$log" | tail -1)
  corpus=$(find "work/$t" -type f | wc -l)
  printf '%-13s %12s %9s %10s %7s %7s %7s\n' "$t" "${inputs:-?}" "${seconds:-?}" "${speed:-?}" \
    "${cov:-?}" "${new:-?}" "$corpus"
  if [ "$status" -ne 0 ]; then
    failed=1
    echo "$t: libFuzzer exited with $status; see fuzz/$log and fuzz/artifacts/$t/" >&2
  fi
done
exit "$failed"
