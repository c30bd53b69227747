#!/usr/bin/env bash
# Configures and builds Sibyl into ./build (the server is build/sibyl).
#   SIBYL_BUILD_TYPE   CMake build type (default RelWithDebInfo)
#   SIBYL_JOBS         parallel jobs (default: number of cores)
#   SIBYL_TARGETS      space-separated targets to build (default: all)
# Extra arguments go to the CMake configure step, e.g. -DSIBYL_TESTS=OFF.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$repo/build"

cmake -S "$repo" -B "$build_dir" -DCMAKE_BUILD_TYPE="${SIBYL_BUILD_TYPE:-RelWithDebInfo}" "$@"
read -r -a targets <<<"${SIBYL_TARGETS:-}"
target_args=()
if ((${#targets[@]} > 0)); then
  target_args=(--target "${targets[@]}")
fi
cmake --build "$build_dir" -j "${SIBYL_JOBS:-$(nproc)}" "${target_args[@]}"
