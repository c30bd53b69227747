#!/usr/bin/env bash
# Runs the "Single-row prepared INSERT" measurements of docs/performance.md:
# starts a fresh node pinned to core 0, runs `sibyl stress write` pinned to
# core 1 for three shapes (1x1, 1x32, 4x32 connections x in-flight), REPEAT
# times each, and prints every run and the median ops/s of each shape.
#
#   bench/run_insert_bench.sh [build-dir]      (default: build-release)
# Environment: REPEAT (3), SECONDS_PER_RUN (10), PORT (9142), DATA_DIR (/tmp/bench-data).
set -euo pipefail

build=${1:-build-release}
repeat=${REPEAT:-3}
seconds=${SECONDS_PER_RUN:-10}
port=${PORT:-9142}
data_dir=${DATA_DIR:-/tmp/bench-data}

rm -rf "$data_dir"
taskset -c 0 "$build/sibyl" start --data-dir "$data_dir" --native-transport-port "$port" --prometheus-port 0 \
  >"$data_dir.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT

for _ in $(seq 50); do  # wait up to 10 s for the port
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  sleep 0.2
done

schema_flag=""
for shape in "1 1" "1 32" "4 32"; do
  set -- $shape
  results=()
  for run in $(seq "$repeat"); do
    out=$(taskset -c 1 "$build/sibyl" stress write --port "$port" --connections "$1" \
      --concurrency "$2" --duration "${seconds}s" --value-size 64 --partitions 100000000 \
      $schema_flag 2>/dev/null)
    schema_flag="--no-schema"
    echo "$out"
    results+=("$(awk '/throughput/ {print $2}' <<<"$out")")
  done
  median=$(printf '%s\n' "${results[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "== $1 connection(s) x $2 in flight: median ${median} ops/s of ${results[*]}"
done
