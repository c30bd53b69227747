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
#
# The end-to-end suites wait on servers more than they compute, so the
# machine's cores are kept busy: the Python suites run on several pytest
# workers, the fuzzers two at a time, and the sanitizer build compiles in the
# background, at the lowest priority, while the normal build's suites run
# (it gets the cores they leave idle, and all of them once they are done).
# At the end the summary gives each step's seconds (a background step's
# overlap the others') and the whole run's against the budget of
# docs/testing.md.
#
# Name steps to run only those:
#   scripts/test.sh python node
# Knobs: SIBYL_FUZZ_SECONDS (per fuzzer, default 20), SIBYL_FUZZ_SEED (the
# statement fuzzer's fixed seed, default 1), SIBYL_JOBS (build jobs),
# SIBYL_TEST_WORKERS (pytest workers, default 2 per core; 1 runs the Python
# suites in one process), SIBYL_BUDGET_SECONDS (default 1800).
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo" || exit 1

# The normal build's steps first: the sanitizer build compiles meanwhile.
all_steps=(unit python node go asan-unit fuzz asan-python asan-node asan-go)
fuzz_seconds="${SIBYL_FUZZ_SECONDS:-20}"
fuzz_seed="${SIBYL_FUZZ_SEED:-1}"
asan_dir="$repo/build-asan"
# Sanitizer reports go to files here (a server a test started and stopped
# leaves its report even if the test kept no log); any file fails the step.
asan_reports="$asan_dir/sanitizer-reports"
jobs="${SIBYL_JOBS:-$(nproc)}"
test_workers="${SIBYL_TEST_WORKERS:-$((2 * $(nproc)))}"
# CI's cold run (a fresh clone, no caches) on its 2-core machine must stay
# within this; docs/testing.md has the figures per step.
budget_seconds="${SIBYL_BUDGET_SECONDS:-1800}"
export SIBYL_BIN="$repo/build/sibyl"
# Debian's Python carries python3-cassandra; a pyenv python3 earlier on PATH does not.
python=/usr/bin/python3

results=()

summary() {
  echo
  echo "==> summary"
  local entry status name seconds note
  for entry in "${results[@]}"; do
    IFS='|' read -r status name seconds note <<<"$entry"
    printf '  %-7s %-11s %4ss%s\n' "$status" "$name" "$seconds" "${note:+  ($note)}"
  done
  local verdict="within"
  ((SECONDS > budget_seconds)) && verdict="OVER"
  printf '  total               %4ss: %s the budget of %ss (docs/testing.md)\n' "$SECONDS" \
    "$verdict" "$budget_seconds"
}

fail_run() {
  summary
  echo
  echo "test.sh: FAILED in step '$1' (exit code $2); later steps did not run" >&2
  exit 1
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
    results+=("FAILED|$name|$((SECONDS - started))|")
    fail_run "$name" "$status"
  fi
  results+=("ok|$name|$((SECONDS - started))|")
}

# start_background_step NAME COMMAND...: runs a step in the background at the
# lowest CPU priority, its output in build-NAME.log; join_background_step
# NAME waits for it, shows its output and records it as run_step does.
declare -A background_pid background_start
start_background_step() {
  local name=$1
  shift
  echo
  echo "==> $name: started in the background (log: build-$name.log)"
  background_start[$name]=$SECONDS
  (
    renice -n 19 -p "$BASHPID" >/dev/null
    "$@"
  ) >"$repo/build-$name.log" 2>&1 &
  background_pid[$name]=$!
}

join_background_step() {
  local name=$1 status=0
  echo
  echo "==> $name (in the background since ${background_start[$name]}s)"
  wait "${background_pid[$name]}" || status=$?
  local seconds=$((SECONDS - background_start[$name]))
  if ((status != 0)); then
    tail -n 200 "$repo/build-$name.log"
    results+=("FAILED|$name|$seconds|in the background")
    fail_run "$name" "$status"
  fi
  tail -n 3 "$repo/build-$name.log"
  results+=("ok|$name|$seconds|in the background from ${background_start[$name]}s")
}

step_build() {
  SIBYL_JOBS="$jobs" scripts/build.sh -DSIBYL_TESTS=ON
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
  CXX=clang++ SIBYL_BUILD_DIR="$asan_dir" SIBYL_JOBS="$jobs" scripts/build.sh -DSIBYL_FUZZ=ON \
    -DSIBYL_TESTS=ON
}

# with_sanitizers REPORTS COMMAND...: runs a command with the sanitizers'
# options, their reports going to the folder REPORTS (cleared first, one per
# command running at once); fails if the command fails or any sanitizer
# wrote a report.
with_sanitizers() {
  local reports_dir=$1
  shift
  rm -rf "$reports_dir"
  mkdir -p "$reports_dir"
  local status=0
  ASAN_OPTIONS="detect_leaks=1:log_path=$reports_dir/asan:${ASAN_OPTIONS:-}" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports_dir/ubsan:${UBSAN_OPTIONS:-}" \
    "$@" || status=$?
  local reports
  mapfile -t reports < <(find "$reports_dir" -type f 2>/dev/null)
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
  with_sanitizers "$asan_reports/unit" ctest --test-dir "$asan_dir" --output-on-failure \
    --no-tests=error --timeout 600 -j "$jobs"
}

# One libFuzzer target for $fuzz_seconds from the seeds in
# fuzz/corpus/<target without fuzz_>/; libFuzzer prints the seed it drew. New
# inputs go to build-asan/corpus/, so the seeds in the repository stay as
# they are; crashes land in build-asan/artifacts/.
run_libfuzzer_target() {
  local target=$1 seeds=()
  if [[ -d "fuzz/corpus/${target#fuzz_}" ]]; then
    seeds+=("fuzz/corpus/${target#fuzz_}")
  fi
  mkdir -p "$asan_dir/corpus/$target"
  with_sanitizers "$asan_reports/$target" "$asan_dir/fuzz/$target" -max_total_time="$fuzz_seconds" -timeout=30 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$asan_dir/artifacts/$target-" \
    "$asan_dir/corpus/$target" "${seeds[@]}"
}

# The statement fuzzer: its corpus and 300 inputs of a fixed seed (the same
# every run), then fresh inputs for 3 x $fuzz_seconds from a new seed,
# printed so that a failure can be replayed (the failing input's transcript
# is printed too). It finds the most, and runs the slowest: three times as
# long as a libFuzzer target.
run_statement_fuzzer() {
  local statement_fuzz="$asan_dir/fuzz/statement_fuzz"
  echo "statement_fuzz: the corpus and 300 inputs of seed $fuzz_seed"
  with_sanitizers "$asan_reports/statement_fuzz" "$statement_fuzz" --seed "$fuzz_seed" --runs 300 \
    --artifacts "$asan_dir/artifacts" fuzz/corpus/statements/* || return 1
  echo "statement_fuzz: a fresh seed for $((3 * fuzz_seconds))s"
  with_sanitizers "$asan_reports/statement_fuzz" "$statement_fuzz" --seed fresh --runs 1000000 \
    --seconds "$((3 * fuzz_seconds))" --artifacts "$asan_dir/artifacts"
}

# Every fuzzer, one per core at a time (each is single-threaded), each
# with its log in build-asan/logs/; a failing one's log is printed.
step_fuzz() {
  local targets
  mapfile -t targets < <(find "$asan_dir/fuzz" -maxdepth 1 -type f -name 'fuzz_*' -perm -u+x \
    -printf '%f\n' | sort)
  if ((${#targets[@]} == 0)); then
    echo "the sanitizer build has no fuzz_* target" >&2
    return 1
  fi
  mkdir -p "$asan_dir/artifacts" "$asan_dir/logs"
  local runs=(statement_fuzz "${targets[@]}") run status=0
  local -A pids
  for run in "${runs[@]}"; do
    while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || true; done
    echo "--- $run (log: $asan_dir/logs/$run.log)"
    if [[ $run == statement_fuzz ]]; then
      run_statement_fuzzer >"$asan_dir/logs/$run.log" 2>&1 &
    else
      run_libfuzzer_target "$run" >"$asan_dir/logs/$run.log" 2>&1 &
    fi
    pids[$run]=$!
  done
  for run in "${runs[@]}"; do
    if wait "${pids[$run]}"; then
      grep -E '^(INFO: Seed|Done|stat::number_of_executed_units|statement_fuzz)' \
        "$asan_dir/logs/$run.log" | sed "s/^/$run: /" || true
    else
      tail -n 100 "$asan_dir/logs/$run.log"
      echo "$run failed: the input is in $asan_dir/artifacts/, the log in" \
        "$asan_dir/logs/$run.log" >&2
      status=1
    fi
  done
  return "$status"
}

# pytest over the Python suite: $test_workers workers (pytest-xdist; every
# test picks its own ports, addresses and directories), the ten slowest
# tests listed at the end.
pytest_suite() {
  local parallel=()
  if ((test_workers > 1)); then
    parallel=(-p xdist -n "$test_workers" --dist loadfile)
  fi
  # The adversary first: its one long test then runs beside the others
  # instead of after them.
  "$python" -m pytest "${parallel[@]}" --durations=10 tests/adversary tests/integration/python
}

step_python() {
  timeout --kill-after=30 1200 bash -c pytest_suite
}

step_node() {
  local files=(tests/integration/node/*.test.js)
  timeout --kill-after=30 900 node --test "${files[@]}"
}

# tests/integration/go/run.sh: GOPATH mode over /usr/share/gocode, no network.
step_go() {
  timeout --kill-after=30 600 tests/integration/go/run.sh
}

step_asan_python() {
  SIBYL_BIN="$asan_dir/sibyl" SIBYL_SANITIZED=1 with_sanitizers "$asan_reports/python" \
    timeout --kill-after=30 1800 bash -c pytest_suite
}

step_asan_node() {
  local files=(tests/integration/node/*.test.js)
  SIBYL_BIN="$asan_dir/sibyl" with_sanitizers "$asan_reports/node" timeout --kill-after=30 900 \
    node --test "${files[@]}"
}

step_asan_go() {
  SIBYL_BIN="$asan_dir/sibyl" with_sanitizers "$asan_reports/go" timeout --kill-after=30 900 \
    tests/integration/go/run.sh
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
# `timeout` runs programs, not shell functions.
export -f pytest_suite
export python test_workers

run_step deps scripts/install-deps.sh
run_step build step_build
asan_built=0
if ((needs_asan)); then
  start_background_step asan-build step_asan_build
fi
for step in "${selected[@]}"; do
  if [[ ($step == asan-* || $step == fuzz) && $asan_built == 0 ]]; then
    join_background_step asan-build
    asan_built=1
  fi
  run_step "$step" "step_${step//-/_}"
done
if ((needs_asan && !asan_built)); then
  join_background_step asan-build
fi

summary
echo
echo "test.sh: all ${#results[@]} steps passed"
