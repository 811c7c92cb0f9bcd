#!/usr/bin/env bash
# tools/bench/cel/run.sh [BUILD_DIR] [N_DEVICES]: the CEL selector benchmark.
#
# Builds bench_cel against BUILD_DIR's libraries (default: build), installs the Node.js peers
# (@marcbachmann/cel-js, @bufbuild/cel; pinned in package.json) into node_modules/, runs
# drasim and the peers over the same N synthetic devices (default 100000) and prints a
# markdown table: ns per evaluation, heap allocations per evaluation, and the ratio to the
# fastest peer. Timings vary with machine load: compare numbers from the same run only.
# BENCH_CEL=path uses an already built bench_cel. Exits 77 (skipped) when node or the npm
# packages are missing and cannot be installed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
n=${2:-100000}

# Exit 77 (what meson counts as "skipped") when the peers cannot run, saying why.
skip() {
  echo "cel-peers skipped: $*" >&2
  exit 77
}

bench="${BENCH_CEL:-}" # meson's benchmark() passes the bench_cel it built
if [ -z "$bench" ]; then
  bench="$build/bench_cel"
  # shellcheck disable=SC2046
  cc -O2 -g -std=gnu11 -I"$root/model/cel" -I"$root/model/api" -I"$build" \
    $(pkg-config --cflags glib-2.0) "$here/bench_cel.c" \
    "$build/model/cel/libdrasim-cel.a" "$build/model/api/libdrasim-api.a" \
    $(pkg-config --libs glib-2.0 re2 libcjson yaml-0.1) -lstdc++ -lm -o "$bench"
fi

command -v node > /dev/null || skip "node is not installed"
if [ ! -d "$here/node_modules/@bufbuild/cel" ] || [ ! -d "$here/node_modules/@marcbachmann/cel-js" ]; then
  command -v npm > /dev/null || skip "npm is not installed and $here/node_modules lacks the peers"
  (cd "$here" && npm install --no-audit --no-fund --silent) ||
    skip "npm install failed in $here (no registry access?)"
fi

drasim_out=$("$bench" "$n")
peers_out=$(cd "$here" && node peers.mjs "$n")
node "$here/report.mjs" "$n" <(printf '%s\n' "$drasim_out") <(printf '%s\n' "$peers_out")
