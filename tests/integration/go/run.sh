#!/usr/bin/env bash
# Runs the gocql suite (go test in this folder), offline: GOPATH mode over
# Debian's Go sources in /usr/share/gocode (golang-go and
# golang-github-gocql-gocql-dev, from scripts/install-deps.sh), no modules, no
# proxy. Arguments go to `go test`, e.g. -run 'Paging|Batches'.
# The server is $SIBYL_BIN, or build/sibyl. The build cache is $GOCACHE, or
# build/go-cache.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"

if ! command -v go >/dev/null 2>&1; then
  echo "go not found (scripts/install-deps.sh installs golang-go)" >&2
  exit 1
fi
if [[ ! -d /usr/share/gocode/src/github.com/gocql/gocql ]]; then
  echo "gocql not found in /usr/share/gocode (scripts/install-deps.sh installs golang-github-gocql-gocql-dev)" >&2
  exit 1
fi

export GO111MODULE=off GOPATH=/usr/share/gocode GOPROXY=off GOFLAGS= GOTOOLCHAIN=local
export GOCACHE="${GOCACHE:-$repo/build/go-cache}"
mkdir -p "$GOCACHE"

cd "$here"
# -count=1: never a cached result (go would not notice a rebuilt sibyl).
exec go test -count=1 -timeout 300s -v "$@" .
