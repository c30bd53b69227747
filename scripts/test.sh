#!/usr/bin/env bash
# Runs every test: installs what is missing, builds, then
#   unit     GoogleTest suites through ctest
#   fuzz     each libFuzzer target briefly (clang build in build-fuzz)
#   python   end-to-end tests through the DataStax Python driver (pytest)
#   node     end-to-end tests through the DataStax Node.js driver (node --test)
# and stops at the first failure. Name steps to run only those:
#   scripts/test.sh python node
# Knobs: SIBYL_FUZZ_SECONDS (per fuzzer, default 20), SIBYL_JOBS (build jobs).
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo" || exit 1

all_steps=(unit fuzz python node)
fuzz_seconds="${SIBYL_FUZZ_SECONDS:-20}"
jobs="${SIBYL_JOBS:-$(nproc)}"
export SIBYL_BIN="$repo/build/sibyl"
# Debian's Python carries python3-cassandra; a pyenv python3 earlier on PATH does not.
python=/usr/bin/python3

results=()

summary() {
  echo
  echo "==> summary"
  local entry status name seconds
  for entry in "${results[@]}"; do
    IFS='|' read -r status name seconds <<<"$entry"
    printf '  %-7s %-8s %4ss\n' "$status" "$name" "$seconds"
  done
}

# run_step NAME COMMAND...: runs one step, records it, and stops everything on failure.
run_step() {
  local name=$1
  shift
  echo
  echo "==> $name"
  local started=$SECONDS status=0
  "$@" || status=$?
  if ((status != 0)); then
    results+=("FAILED|$name|$((SECONDS - started))")
    summary
    echo
    echo "test.sh: FAILED in step '$name' (exit code $status); later steps did not run" >&2
    exit 1
  fi
  results+=("ok|$name|$((SECONDS - started))")
}

step_unit() {
  ctest --test-dir build --output-on-failure --no-tests=error --timeout 300 -j "$jobs"
}

# Every fuzz_* target of a clang build with SIBYL_FUZZ=ON runs for
# $fuzz_seconds from the seeds in fuzz/corpus/<target>/ (or without the
# fuzz_ prefix). New inputs go to build-fuzz/corpus/, so the seeds in the
# repository stay as they are; crashes land in build-fuzz/artifacts/.
step_fuzz() {
  if [[ ! -f fuzz/CMakeLists.txt ]]; then
    echo "no fuzz/CMakeLists.txt: nothing to fuzz"
    return 0
  fi
  if ! command -v clang++ >/dev/null 2>&1; then
    echo "clang++ not found (scripts/install-deps.sh installs it)" >&2
    return 1
  fi
  CXX=clang++ cmake -S . -B build-fuzz -DSIBYL_FUZZ=ON -DSIBYL_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo || return 1
  local targets
  mapfile -t targets < <(cmake --build build-fuzz --target help |
    sed -n 's/^\.\.\. \(fuzz_[A-Za-z0-9_]*\).*/\1/p' | sort -u)
  if ((${#targets[@]} == 0)); then
    echo "fuzz/CMakeLists.txt defines no fuzz_* target" >&2
    return 1
  fi
  cmake --build build-fuzz -j "$jobs" --target "${targets[@]}" || return 1
  mkdir -p build-fuzz/artifacts build-fuzz/logs
  local target binary seeds dir
  for target in "${targets[@]}"; do
    binary=$(find build-fuzz -type f -name "$target" -perm -u+x -print -quit)
    if [[ -z "$binary" ]]; then
      echo "built $target but cannot find its binary under build-fuzz" >&2
      return 1
    fi
    seeds=()
    for dir in "fuzz/corpus/$target" "fuzz/corpus/${target#fuzz_}"; do
      if [[ -d "$dir" ]]; then
        seeds+=("$dir")
      fi
    done
    mkdir -p "build-fuzz/corpus/$target"
    echo "--- $target for ${fuzz_seconds}s (seeds: ${seeds[*]:-none})"
    if ! "$binary" -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$target-" \
      "build-fuzz/corpus/$target" "${seeds[@]}" >"build-fuzz/logs/$target.log" 2>&1; then
      tail -n 60 "build-fuzz/logs/$target.log"
      echo "$target failed: the input is in build-fuzz/artifacts/, the log in build-fuzz/logs/$target.log" >&2
      return 1
    fi
    grep -E '^(Done|stat::number_of_executed_units)' "build-fuzz/logs/$target.log" || true
  done
}

step_python() {
  timeout --kill-after=30 1200 "$python" -m pytest tests/integration/python
}

step_node() {
  local files=(tests/integration/node/*.test.js)
  timeout --kill-after=30 900 node --test "${files[@]}"
}

selected=("$@")
if ((${#selected[@]} == 0)); then
  selected=("${all_steps[@]}")
fi
for step in "${selected[@]}"; do
  if ! declare -F "step_$step" >/dev/null; then
    echo "test.sh: unknown step '$step' (steps: ${all_steps[*]})" >&2
    exit 2
  fi
done

run_step deps scripts/install-deps.sh
run_step build env SIBYL_JOBS="$jobs" scripts/build.sh -DSIBYL_TESTS=ON
for step in "${selected[@]}"; do
  run_step "$step" "step_$step"
done

summary
echo
echo "test.sh: all ${#results[@]} steps passed"
