#!/bin/sh
# sched_exact.sh DRASIM OUTDIR ROOT: runs every mode of each scenario (ROOT's
# scenarios/*/scenario.yaml, tests/scenario/bench/e2e-100.yaml,
# e2e-1000-extended-12h.yaml (1,000 nodes, no claims: the window over the
# classes decides every cycle, cluster_sched_window.c), e2e-1000-12h.yaml (the
# same in DRA mode: the window asks DynamicResources class by class) and every
# kind: Scenario file under scenarios/faults, tests/unit and tests/data)
# twice, with DRASIM_SCHED_REFERENCE=1 (the straightforward scheduling cycle,
# one Filter and Score call per node) and =0 (the equivalence-class path,
# docs/cluster.md "Equivalence classes"), and requires the same exit status,
# the same output and byte-identical JSON reports. Scenarios that are meant to
# fail must fail alike. TAP output, one line per scenario.
set -u
drasim=$1 out=$2 root=$3
# sorted, so the numbering is stable; no test file name has a space
set -- $(ls "$root"/scenarios/*/scenario.yaml) "$root/tests/scenario/bench/e2e-100.yaml" \
	"$root/tests/scenario/bench/e2e-1000-extended-12h.yaml" \
	"$root/tests/scenario/bench/e2e-1000-12h.yaml" \
	$(grep -rl --include='*.yaml' '^kind: Scenario' "$root/scenarios/faults" "$root/tests/unit" \
		"$root/tests/data" | sort)
rm -rf "$out" && mkdir -p "$out"
echo "1..$#"
i=0 failed=0
# one mode's run in $out/run (the same path both times: messages may name it)
run() { # ENV_VALUE SCENARIO DEST
	rm -rf "$out/run"
	DRASIM_SCHED_REFERENCE=$1 "$drasim" compare --format json -o "$out/run" "$2" >"$3.log" 2>&1
	echo "exit $?" >>"$3.log"
	if [ -f "$out/run/report.json" ]; then mv "$out/run/report.json" "$3.json"; else : >"$3.json"; fi
}
for scenario in "$@"; do
	i=$((i + 1))
	run 1 "$scenario" "$out/$i-reference"
	run 0 "$scenario" "$out/$i-classes"
	if cmp -s "$out/$i-reference.log" "$out/$i-classes.log" &&
	   cmp -s "$out/$i-reference.json" "$out/$i-classes.json"; then
		echo "ok $i - $scenario: the same under both scheduling paths ($(tail -1 "$out/$i-reference.log"))"
	else
		echo "not ok $i - $scenario: the reference and class paths differ"
		diff "$out/$i-reference.log" "$out/$i-classes.log" | head -10 | sed 's/^/# /'
		diff "$out/$i-reference.json" "$out/$i-classes.json" | head -20 | sed 's/^/# /'
		failed=$((failed + 1))
	fi
done
echo "# $((i - failed)) passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
