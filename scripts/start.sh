#!/usr/bin/env bash
# Installs what is missing, builds, and runs a Sibyl node in the foreground
# with the defaults (CQL on 127.0.0.1:9042, data in ./sibyl-data).
# Arguments go to `sibyl start`, e.g. ./scripts/start.sh --native-transport-port 9043
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

"$repo/scripts/install-deps.sh"
SIBYL_TARGETS=sibyl "$repo/scripts/build.sh"
exec "$repo/build/sibyl" start "$@"
