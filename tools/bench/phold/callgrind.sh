#!/bin/sh
# callgrind.sh: instructions per PHOLD event, measured with valgrind's callgrind.
#
#   tools/bench/phold/callgrind.sh PHOLD_BINARY [N ...]
#
# For each N it counts instructions (Ir) for a run of E1 and one of E2 events
# and prints (Ir(E2) - Ir(E1)) / (E2 - E1): set-up (building the N initial
# events, loading libraries) cancels out. One JSON record per N on stdout.
set -eu
bin=$1
shift
[ $# -gt 0 ] || set -- 1000 100000 1000000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ir() { # N EVENTS -> total Ir
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$bin" --lps "$1" --events "$2" \
		--runs 1 --quiet >/dev/null 2>"$tmp/log"
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log"
}

for n in "$@"; do
	e1=200000
	e2=1200000
	a=$(ir "$n" $e1)
	b=$(ir "$n" $e2)
	awk -v a="$a" -v b="$b" -v e1=$e1 -v e2=$e2 -v n="$n" 'BEGIN {
		printf "{\"name\": \"phold.n%d.instructions_per_event\", \"unit\": \"instructions\", \"value\": %.1f}\n",
			n, (b - a) / (e2 - e1) }'
done
