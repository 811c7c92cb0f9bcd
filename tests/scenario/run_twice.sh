#!/bin/sh
# run_twice.sh DRASIM SCENARIO OUTDIR [BASELINE SCHEMA]: runs every mode of
# SCENARIO twice and checks that the run succeeded, that the two JSON reports
# are byte-identical (determinism), and, when given, that the report validates
# against the JSON Schema and equals BASELINE with zero tolerance
# (tools/update-baselines changes a baseline), and that `drasim verify` passes on
# the full report (pod ledger, no device held twice at once; with a baseline
# only). TAP output, one line per check.
# RUN_TWICE_ENV_A and RUN_TWICE_ENV_B, when set, are VAR=VALUE words for the
# first and the second run alone: the memo-exact tests run DRASIM_DRA_MEMO=0
# then 1, so the allocator's Filter memo must change no outcome or counter.
set -u
drasim=$1 scenario=$2 out=$3 baseline=${4:-} schema=${5:-}
env_a=${RUN_TWICE_ENV_A:-} env_b=${RUN_TWICE_ENV_B:-}
runs="two runs${env_a:+ ($env_a, then $env_b)}"
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out" && mkdir -p "$out"
echo "1..5"
# $env_a and $env_b unquoted on purpose: each is zero or more VAR=VALUE words for env.
if env $env_a "$drasim" compare --format json -o "$out/a" "$scenario" >"$out/a.log" 2>&1 &&
   env $env_b "$drasim" compare --format json -o "$out/b" "$scenario" >"$out/b.log" 2>&1; then
	echo "ok 1 - $scenario runs"
else
	echo "not ok 1 - $scenario runs"
	sed 's/^/# /' "$out/a.log" "$out/b.log" 2>/dev/null
	echo "ok 2 # SKIP no report to compare"
	echo "ok 3 # SKIP no report to validate"
	echo "ok 4 # SKIP no report to diff"
	echo "ok 5 # SKIP no report to verify"
	exit 1
fi
if cmp -s "$out/a/report.json" "$out/b/report.json"; then
	echo "ok 2 - $runs give byte-identical JSON"
else
	echo "not ok 2 - the JSON reports of $runs differ"
	diff "$out/a/report.json" "$out/b/report.json" | head -20 | sed 's/^/# /'
	echo "ok 3 # SKIP reports differ"
	echo "ok 4 # SKIP reports differ"
	echo "ok 5 # SKIP reports differ"
	exit 1
fi
status=0
if [ -z "$schema" ]; then
	echo "ok 3 # SKIP no schema given"
elif python3 "$root/reports/schema/validate.py" "$schema" "$out/a/report.json" >"$out/schema.log" 2>&1; then
	echo "ok 3 - the report validates against $(basename "$schema")"
else
	echo "not ok 3 - the report does not validate against the schema"
	sed 's/^/# /' "$out/schema.log"
	status=1
fi
if [ -z "$baseline" ]; then
	echo "ok 4 # SKIP no baseline given"
elif "$drasim" diff --strict --tolerance "$root/reports/baselines/zero.tolerance" \
	"$baseline" "$out/a/report.json" >"$out/diff.log" 2>&1; then
	echo "ok 4 - the report equals its baseline (zero tolerance)"
else
	echo "not ok 4 - the report differs from $baseline (run tools/update-baselines if intended)"
	sed 's/^/# /' "$out/diff.log"
	status=1
fi
if [ -z "$baseline" ]; then
	echo "ok 5 # SKIP no baseline given (the scenario-* run verifies)"
elif "$drasim" verify "$out/a/report.json" >"$out/verify.log" 2>&1; then
	echo "ok 5 - drasim verify: $(tail -1 "$out/verify.log")"
else
	echo "not ok 5 - drasim verify found violations"
	sed 's/^/# /' "$out/verify.log"
	status=1
fi
exit $status
