#!/bin/sh
# memo_exact.sh DRASIM SCENARIO OUTDIR: runs every mode of SCENARIO with the
# allocator's Filter memo off (DRASIM_DRA_MEMO=0) and on, and checks that the
# JSON reports are byte-identical: the memo must not change any outcome or
# counter (filter, allocator, CEL evaluations, backtracks). TAP output.
set -u
drasim=$1 scenario=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
echo "1..2"
if DRASIM_DRA_MEMO=0 "$drasim" compare --format json -o "$out/off" "$scenario" >"$out/off.log" 2>&1 &&
   DRASIM_DRA_MEMO=1 "$drasim" compare --format json -o "$out/on" "$scenario" >"$out/on.log" 2>&1; then
	echo "ok 1 - $scenario runs with the memo off and on"
else
	echo "not ok 1 - $scenario runs with the memo off and on"
	sed 's/^/# /' "$out/off.log" "$out/on.log" 2>/dev/null
	echo "ok 2 # SKIP no report to compare"
	exit 1
fi
if cmp -s "$out/off/report.json" "$out/on/report.json"; then
	echo "ok 2 - byte-identical JSON with and without the memo"
else
	echo "not ok 2 - the memo changed the report"
	diff "$out/off/report.json" "$out/on/report.json" | head -20 | sed 's/^/# /'
	exit 1
fi
