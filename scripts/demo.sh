#!/usr/bin/env bash
# Installs what is missing, builds, and runs `sibyl demo`: a throwaway node
# loaded with the KillrVideo and user-activity data models, and a CQL shell
# on it. Nothing is left behind when the shell ends.
# Arguments go to the shell, e.g. ./scripts/demo.sh -e "DESCRIBE KEYSPACES"
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

"$repo/scripts/install-deps.sh"
SIBYL_TARGETS=sibyl "$repo/scripts/build.sh"
exec "$repo/build/sibyl" demo "$@"
