#!/usr/bin/env bash
# Runs the "Read path" measurements through the whole stack of
# docs/performance.md: starts a fresh node pinned to core 0 on a temporary
# data directory, loads a partition of 1,000 rows and one of ROWS rows and
# times prepared SELECTs of each (bench/read_select_bench.py, Debian's Python
# driver, pinned to core 1), then stops the node and removes the directory.
#
#   bench/run_read_bench.sh [build-dir]      (default: build-release)
# Environment: ROWS (1000000), READS (200 per query), SECONDS_PER_QUERY (10),
# PORT (9143), DATA_DIR (a new directory under /tmp).
set -euo pipefail

build=${1:-build-release}
rows=${ROWS:-1000000}
reads=${READS:-200}
seconds=${SECONDS_PER_QUERY:-10}
port=${PORT:-9143}
data_dir=${DATA_DIR:-$(mktemp -d /tmp/sibyl-read-bench.XXXXXX)}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if [[ ! -x "$build/sibyl" ]]; then
  echo "run_read_bench: no $build/sibyl; build it: cmake --build $build --target sibyl" >&2
  exit 2
fi
rm -rf "$data_dir"
mkdir -p "$data_dir"
taskset -c 0 "$build/sibyl" start --data-dir "$data_dir/data" --native-transport-port "$port" --prometheus-port 0 \
  >"$data_dir/sibyl.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$data_dir"
}
trap cleanup EXIT

for _ in $(seq 50); do  # wait up to 10 s for the port
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then
    echo "run_read_bench: the node exited; its log:" >&2
    cat "$data_dir/sibyl.log" >&2
    exit 1
  fi
  sleep 0.2
done

taskset -c 1 /usr/bin/python3 "$here/read_select_bench.py" --port "$port" --rows "$rows" \
  --reads "$reads" --seconds "$seconds" --server-pid "$server"
