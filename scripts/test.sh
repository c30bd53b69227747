#!/usr/bin/env bash
# Runs every test: installs what is missing, builds, then
#   unit         GoogleTest suites through ctest
#   asan-unit    the same, built with AddressSanitizer and UBSan (clang, build-asan/)
#   fuzz         the fuzzers of the sanitizer build: libFuzzer targets, and the
#                statement fuzzer with a fixed seed and a fresh one
#   python       end-to-end tests through the DataStax Python driver (pytest)
#   node         end-to-end tests through the DataStax Node.js driver (node --test)
#   go           end-to-end tests through gocql (go test, offline, Debian's Go sources)
#   asan-python  the Python suite against the sanitizer build's sibyl
#   asan-node    the Node.js suite against the sanitizer build's sibyl
#   asan-go      the Go suite against the sanitizer build's sibyl
# and stops at the first failure. Any sanitizer report fails its step.
# Name steps to run only those:
#   scripts/test.sh python node
# Knobs: SIBYL_FUZZ_SECONDS (per fuzzer, default 20), SIBYL_FUZZ_SEED (the
# statement fuzzer's fixed seed, default 1), SIBYL_JOBS (build jobs).
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo" || exit 1

all_steps=(unit asan-unit fuzz python node go asan-python asan-node asan-go)
fuzz_seconds="${SIBYL_FUZZ_SECONDS:-20}"
fuzz_seed="${SIBYL_FUZZ_SEED:-1}"
asan_dir="$repo/build-asan"
# Sanitizer reports go to files here (a server a test started and stopped
# leaves its report even if the test kept no log); any file fails the step.
asan_reports="$asan_dir/sanitizer-reports"
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
    printf '  %-7s %-11s %4ss\n' "$status" "$name" "$seconds"
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

# The sanitizer build: clang with AddressSanitizer, UndefinedBehaviorSanitizer
# (no recovery) and _GLIBCXX_ASSERTIONS, every library instrumented for
# libFuzzer too (SIBYL_FUZZ=ON). It builds the server, the unit tests and the
# fuzzers: everything in it runs.
step_asan_build() {
  if ! command -v clang++ >/dev/null 2>&1; then
    echo "clang++ not found (scripts/install-deps.sh installs it)" >&2
    return 1
  fi
  CXX=clang++ cmake -S . -B "$asan_dir" -DSIBYL_FUZZ=ON -DSIBYL_TESTS=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo || return 1
  cmake --build "$asan_dir" -j "$jobs"
}

# Runs a command with the sanitizers' options; fails if it fails or if any
# sanitizer wrote a report.
with_sanitizers() {
  rm -rf "$asan_reports"
  mkdir -p "$asan_reports"
  local status=0
  ASAN_OPTIONS="detect_leaks=1:log_path=$asan_reports/asan:${ASAN_OPTIONS:-}" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$asan_reports/ubsan:${UBSAN_OPTIONS:-}" \
    "$@" || status=$?
  local reports
  mapfile -t reports < <(find "$asan_reports" -type f 2>/dev/null)
  if ((${#reports[@]} > 0)); then
    echo "sanitizer reports (${#reports[@]}):" >&2
    local report
    for report in "${reports[@]}"; do
      echo "--- $report" >&2
      head -n 80 "$report" >&2
    done
    return 1
  fi
  return "$status"
}

step_asan_unit() {
  with_sanitizers ctest --test-dir "$asan_dir" --output-on-failure --no-tests=error --timeout 600 \
    -j "$jobs"
}

# Each libFuzzer target runs for $fuzz_seconds from the seeds in
# fuzz/corpus/<target without fuzz_>/; libFuzzer prints the seed it drew. New
# inputs go to build-asan/corpus/, so the seeds in the repository stay as
# they are; crashes land in build-asan/artifacts/. Then the statement fuzzer
# runs its corpus and 300 inputs of a fixed seed (the same every run), and
# fresh inputs for 3 x $fuzz_seconds from a new seed, printed so that a
# failure can be replayed (the failing input's transcript is printed too).
step_fuzz() {
  local targets
  mapfile -t targets < <(cmake --build "$asan_dir" --target help |
    sed -n 's/^\.\.\. \(fuzz_[A-Za-z0-9_]*\).*/\1/p' | sort -u)
  if ((${#targets[@]} == 0)); then
    echo "the sanitizer build has no fuzz_* target" >&2
    return 1
  fi
  mkdir -p "$asan_dir/artifacts" "$asan_dir/logs"
  local target binary seeds
  for target in "${targets[@]}"; do
    binary=$(find "$asan_dir" -type f -name "$target" -perm -u+x -print -quit)
    if [[ -z "$binary" ]]; then
      echo "cannot find the binary of $target under $asan_dir" >&2
      return 1
    fi
    seeds=()
    if [[ -d "fuzz/corpus/${target#fuzz_}" ]]; then
      seeds+=("fuzz/corpus/${target#fuzz_}")
    fi
    mkdir -p "$asan_dir/corpus/$target"
    echo "--- $target for ${fuzz_seconds}s (seeds: ${seeds[*]:-none})"
    if ! with_sanitizers "$binary" -max_total_time="$fuzz_seconds" -timeout=30 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$asan_dir/artifacts/$target-" \
      "$asan_dir/corpus/$target" "${seeds[@]}" >"$asan_dir/logs/$target.log" 2>&1; then
      tail -n 100 "$asan_dir/logs/$target.log"
      echo "$target failed: the input is in $asan_dir/artifacts/, the log in $asan_dir/logs/$target.log" >&2
      return 1
    fi
    grep -E '^(INFO: Seed|Done|stat::number_of_executed_units)' "$asan_dir/logs/$target.log" || true
  done
  local statement_fuzz="$asan_dir/fuzz/statement_fuzz"
  echo "--- statement_fuzz: the corpus and 300 inputs of seed $fuzz_seed"
  with_sanitizers "$statement_fuzz" --seed "$fuzz_seed" --runs 300 \
    --artifacts "$asan_dir/artifacts" fuzz/corpus/statements/* || return 1
  # The statement fuzzer finds the most, and runs the slowest: three times as long.
  echo "--- statement_fuzz: a fresh seed for $((3 * fuzz_seconds))s"
  with_sanitizers "$statement_fuzz" --seed fresh --runs 1000000 --seconds "$((3 * fuzz_seconds))" \
    --artifacts "$asan_dir/artifacts"
}

step_python() {
  timeout --kill-after=30 1200 "$python" -m pytest tests/integration/python
}

step_node() {
  local files=(tests/integration/node/*.test.js)
  timeout --kill-after=30 900 node --test "${files[@]}"
}

# tests/integration/go/run.sh: GOPATH mode over /usr/share/gocode, no network;
# the Go build cache goes to build/go-cache unless GOCACHE says otherwise.
step_go() {
  timeout --kill-after=30 600 tests/integration/go/run.sh
}

step_asan_python() {
  SIBYL_BIN="$asan_dir/sibyl" SIBYL_SANITIZED=1 with_sanitizers timeout --kill-after=30 1800 \
    "$python" -m pytest tests/integration/python
}

step_asan_node() {
  local files=(tests/integration/node/*.test.js)
  SIBYL_BIN="$asan_dir/sibyl" with_sanitizers timeout --kill-after=30 900 node --test "${files[@]}"
}

step_asan_go() {
  SIBYL_BIN="$asan_dir/sibyl" with_sanitizers timeout --kill-after=30 900 tests/integration/go/run.sh
}

selected=("$@")
if ((${#selected[@]} == 0)); then
  selected=("${all_steps[@]}")
fi
needs_asan=0
for step in "${selected[@]}"; do
  if ! declare -F "step_${step//-/_}" >/dev/null; then
    echo "test.sh: unknown step '$step' (steps: ${all_steps[*]})" >&2
    exit 2
  fi
  if [[ $step == asan-* || $step == fuzz ]]; then
    needs_asan=1
  fi
done

run_step deps scripts/install-deps.sh
run_step build env SIBYL_JOBS="$jobs" scripts/build.sh -DSIBYL_TESTS=ON
if ((needs_asan)); then
  run_step asan-build step_asan_build
fi
for step in "${selected[@]}"; do
  run_step "$step" "step_${step//-/_}"
done

summary
echo
echo "test.sh: all ${#results[@]} steps passed"
