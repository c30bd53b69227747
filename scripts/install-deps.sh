#!/usr/bin/env bash
# Installs what building and testing Sibyl needs on Debian bookworm: Debian
# packages (as root, or through sudo) and the Node.js driver for the
# integration tests (npm ci from the committed package-lock.json). The Go
# suite needs nothing beyond Debian's packages: it builds offline from their
# sources in /usr/share/gocode.
#
# When everything is already there it touches neither apt nor the network, so
# reruns are fast and work offline.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

packages=(
  # toolchain; Ninja, lld and ccache make builds faster (scripts/build.sh, CMakeLists.txt)
  build-essential cmake pkg-config clang libclang-rt-14-dev ninja-build lld ccache
  # libraries
  libboost-dev librocksdb-dev liblz4-dev libsnappy-dev zlib1g-dev libssl-dev
  libyaml-cpp-dev libspdlog-dev libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev
  # symbolized backtraces in the log when a node dies (src/server/crash_handler.h)
  libbackward-cpp-dev libdw-dev
  # `sibyl shell`: line editing, history and completion
  libedit-dev
  # integration tests: the DataStax Python driver with its compressors
  python3 python3-cassandra python3-pytest python3-lz4 python3-snappy
  # ... spread over several workers (scripts/test.sh)
  python3-pytest-xdist
  # integration tests: Prometheus' own parser of the /metrics text (test_metrics.py)
  python3-prometheus-client
  # integration tests: gocql 1.3.2 (its dependencies come with it) and Go 1.19
  golang-go golang-github-gocql-gocql-dev
  # cluster tests: etcd (the metadata store) and nftables (network partitions)
  etcd-server nftables
  # the LWT adversary's clock skew (tests/adversary/lwt_adversary.py)
  faketime
)

is_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=()
for package in "${packages[@]}"; do
  is_installed "$package" || missing+=("$package")
done

# Node.js may come from elsewhere than Debian (NodeSource's nodejs bundles npm
# and conflicts with Debian's npm): only a node or npm that does not run is
# installed from Debian.
if ! node --version >/dev/null 2>&1; then
  missing+=(nodejs)
fi
if ! npm --version >/dev/null 2>&1; then
  missing+=(npm)
fi

if ((${#missing[@]} > 0)); then
  echo "install-deps: installing ${missing[*]}"
  if ((EUID == 0)); then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "install-deps: Debian packages present"
fi

# The Node.js driver, pinned by package-lock.json. node_modules is rebuilt when
# missing or older than the lock file.
node_dir="$repo/tests/integration/node"
installed_lock="$node_dir/node_modules/.package-lock.json"
if [[ ! -f "$installed_lock" || "$node_dir/package-lock.json" -nt "$installed_lock" ]]; then
  echo "install-deps: npm ci in tests/integration/node"
  (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error)
else
  echo "install-deps: node modules present"
fi
