#!/bin/sh
# run.sh BUILDDIR: instructions (callgrind) of setting up the 1,000-node DGX H100
# world of dgx-h100-1000.yaml: publish -> api objects -> allocator view, plus one pod.
# Prints the total instruction count ("Ir"). Use a release build.
set -eu
build=${1:-build-release}
here=$(dirname "$0")
tmp=$(mktemp -d)
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
	"${DRASIM:-$build/sim/cli/drasim}" run --format json -o "$tmp/report" "$here/dgx-h100-1000.yaml" \
	>/dev/null 2>"$tmp/log" || { cat "$tmp/log" >&2; rm -rf "$tmp"; exit 1; }
sed -n 's/^summary: //p' "$tmp/cg.out"
rm -rf "$tmp"
