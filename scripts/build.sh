#!/usr/bin/env bash
# Configures and builds Sibyl into ./build (the server is build/sibyl).
#   SIBYL_BUILD_TYPE   CMake build type (default RelWithDebInfo)
#   SIBYL_BUILD_DIR    where to build (default: build/ in the repository)
#   SIBYL_JOBS         parallel jobs (default: number of cores)
#   SIBYL_TARGETS      space-separated targets to build (default: all)
# Extra arguments go to the CMake configure step, e.g. -DSIBYL_TESTS=OFF.
# CXX picks the compiler, as CMake reads it (CXX=clang++).
#
# Ninja builds when it is installed (scripts/install-deps.sh installs it): it
# starts the next compile sooner than make and links less often. A build
# directory made with the other generator is configured again from scratch
# (its objects are rebuilt; ccache, when installed, has them).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${SIBYL_BUILD_DIR:-$repo/build}"

generator="Unix Makefiles"
if command -v ninja >/dev/null 2>&1; then
  generator="Ninja"
fi
cache="$build_dir/CMakeCache.txt"
if [[ -f "$cache" ]] && ! grep -qx "CMAKE_GENERATOR:INTERNAL=$generator" "$cache"; then
  echo "build.sh: $build_dir was made by another generator; configuring it again for $generator"
  rm -rf "$cache" "$build_dir/CMakeFiles"
fi

cmake -S "$repo" -B "$build_dir" -G "$generator" \
  -DCMAKE_BUILD_TYPE="${SIBYL_BUILD_TYPE:-RelWithDebInfo}" "$@"
read -r -a targets <<<"${SIBYL_TARGETS:-}"
target_args=()
if ((${#targets[@]} > 0)); then
  target_args=(--target "${targets[@]}")
fi
cmake --build "$build_dir" -j "${SIBYL_JOBS:-$(nproc)}" "${target_args[@]}"
