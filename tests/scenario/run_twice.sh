#!/bin/sh
# run_twice.sh DRASIM SCENARIO OUTDIR: runs every mode of SCENARIO twice and
# checks that the two JSON reports are byte-identical (determinism), and that
# the run succeeded. TAP output, one line per check.
set -u
drasim=$1 scenario=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
echo "1..2"
if "$drasim" compare --format json -o "$out/a" "$scenario" >"$out/a.log" 2>&1 &&
   "$drasim" compare --format json -o "$out/b" "$scenario" >"$out/b.log" 2>&1; then
	echo "ok 1 - $scenario runs"
else
	echo "not ok 1 - $scenario runs"
	sed 's/^/# /' "$out/a.log" "$out/b.log" 2>/dev/null
	echo "ok 2 # SKIP no report to compare"
	exit 1
fi
if cmp -s "$out/a/report.json" "$out/b/report.json"; then
	echo "ok 2 - two runs give byte-identical JSON"
else
	echo "not ok 2 - the two JSON reports differ"
	diff "$out/a/report.json" "$out/b/report.json" | head -20 | sed 's/^/# /'
	exit 1
fi
