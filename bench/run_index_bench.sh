#!/usr/bin/env bash
# What secondary indexes and materialized views cost (docs/performance.md,
# "Secondary indexes" and "Materialized views"):
#
#  1. INSERT throughput into sibyl_stress.standard1 (pk bigint, v0..v2 blob,
#     64-byte random values) with 0, 1 and 3 indexes (on v0; on v0, v1, v2),
#     and with one materialized view keyed by v0 (selecting v1, v2):
#     `sibyl stress write --columns 3`, REPEAT runs of SECONDS_PER_RUN each,
#     the median printed per case. Every value is distinct, so each INSERT
#     reads its row (nothing there yet) and writes one entry per index, or
#     one view row.
#  2. A lookup by a unique text value through an index, against the same
#     lookup by key in a denormalized table (bench/index_lookup_bench.py).
#
# On one node pinned to core 0 (the load on core 1), or with NODES=3 on a
# local cluster (`sibyl cluster start`, replication factor 3, QUORUM, the
# load token-aware over the three nodes; everything shares the machine).
#
#   bench/run_index_bench.sh [build-dir]      (default: build-release)
# Environment: REPEAT (3), SECONDS_PER_RUN (10), NODES (1), PORT (9142),
#              DATA_DIR (/tmp/bench-index), LOOKUP_ROWS (20000), LOOKUPS (5000).
set -euo pipefail

build=${1:-build-release}
repeat=${REPEAT:-3}
seconds=${SECONDS_PER_RUN:-10}
nodes=${NODES:-1}
port=${PORT:-9142}
data_dir=${DATA_DIR:-/tmp/bench-index}
sibyl="$build/sibyl"
here=$(cd "$(dirname "$0")" && pwd)

server=""
start_database() {
  rm -rf "$data_dir"
  mkdir -p "$data_dir"
  if [[ "$nodes" == 1 ]]; then
    taskset -c 0 "$sibyl" start --data-dir "$data_dir/node" --native-transport-port "$port" --prometheus-port 0 \
      >"$data_dir/node.log" 2>&1 &
    server=$!
    hosts="127.0.0.1"
    rf=1
    consistency=ONE
  else
    "$sibyl" cluster start --nodes "$nodes" --dir "$data_dir/cluster" --native-port "$port" \
      --storage-port $((port + 100)) --etcd-port $((port + 200)) >/dev/null
    hosts=$(seq -s, -f "127.0.0.%g" 1 "$nodes")
    rf=3
    consistency=QUORUM
  fi
  for _ in $(seq 100); do  # wait up to 20 s for the port
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.2
  done
}
stop_database() {
  if [[ -n "$server" ]]; then
    kill "$server" 2>/dev/null
    wait "$server" 2>/dev/null || true
    server=""
  elif [[ -d "$data_dir/cluster" ]]; then
    "$sibyl" cluster stop --dir "$data_dir/cluster" >/dev/null 2>&1 || true
  fi
}
trap stop_database EXIT

cql() { "$sibyl" shell 127.0.0.1 "$port" -e "$1" >/dev/null; }
stress() {
  taskset -c 1 "$sibyl" stress write --host "$hosts" --port "$port" --connections 2 \
    --concurrency 32 --columns 3 --value-size 64 --partitions 100000000 \
    --replication-factor "$rf" --consistency "$consistency" "$@" 2>/dev/null
}

for indexes in 0 1 3 view; do
  label="$indexes index(es)"
  [[ "$indexes" == view ]] && label="one materialized view"
  start_database
  stress --duration 1s >/dev/null  # creates the keyspace and table
  if [[ "$indexes" == view ]]; then
    cql "CREATE MATERIALIZED VIEW sibyl_stress.standard1_by_v0 AS SELECT v1, v2 FROM sibyl_stress.standard1 WHERE v0 IS NOT NULL AND pk IS NOT NULL PRIMARY KEY (v0, pk)"
  else
    for i in $(seq 0 $((indexes - 1))); do cql "CREATE INDEX ON sibyl_stress.standard1 (v$i)"; done
  fi
  results=()
  for _ in $(seq "$repeat"); do
    out=$(stress --duration "${seconds}s" --no-schema)
    results+=("$(awk '/throughput/ {print $2}' <<<"$out")")
    echo "$label: $(grep -E 'throughput|latency' <<<"$out" | tr '\n' ' ')"
  done
  median=$(printf '%s\n' "${results[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "INSERT with $label: median $median ops/s"
  stop_database
done

start_database
/usr/bin/python3 "$here/index_lookup_bench.py" --port "$port" --replication-factor "$rf" \
  --rows "${LOOKUP_ROWS:-20000}" --lookups "${LOOKUPS:-5000}"
