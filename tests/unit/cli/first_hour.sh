#!/bin/sh
# first_hour.sh DRASIM ROOT WORKDIR VERSION: what a new user meets first (issue 17,
# item 3): --version, the did-you-mean errors with the valid names (exact text,
# exit 2), help texts that say "drasim CMD" and show examples, arrival rates with
# units, and a progress line only on a terminal. TAP.
set -u
drasim=$1 root=$2 work=$3 version=$4
rm -rf "$work" && mkdir -p "$work"
n=0 status=0
# expect_error is not used here (expect_exact checks whole lines), so no $subcommand
# shellcheck source=tests/unit/cli/tap-lib.sh
. "$root/tests/unit/cli/tap-lib.sh"
notebooks=$root/scenarios/mig-notebooks/scenario.yaml

echo "1..22"

# expect_exact STATUS WANT DESCRIPTION -- ARGS...: `drasim ARGS` exits STATUS and its
# stderr's first line is exactly WANT.
expect_exact() {
	want=$1 line=$2 what=$3
	shift 4
	"$drasim" "$@" >/dev/null 2>"$work/err"
	got=$?
	[ "$got" -eq "$want" ] && [ "$(head -n 1 "$work/err")" = "$line" ]
	result $? "$what (exit $got)"
}

# --version and -V print what `drasim version` prints; the version is meson's.
want="drasim $version (Kubernetes 1.34 resource.k8s.io/v1)"
[ "$("$drasim" --version)" = "$want" ] && [ "$("$drasim" -V)" = "$want" ] &&
	[ "$("$drasim" version)" = "$want" ]
result $? "--version, -V and version print '$want'"

# comapre -> compare: one transposition (2 characters swapped), within 2 edits for 7
expect_exact 2 "drasim: unknown command 'comapre'; did you mean 'compare'?" \
	"a misspelt command gets did-you-mean" -- comapre
"$drasim" comapre 2>&1 | grep -q "^  compare  *run every mode" && "$drasim" zzz 2>&1 | head -n 1 |
	grep -qx "drasim: unknown command 'zzz'"
result $? "an unknown command lists the commands; no suggestion when nothing is close"
# --fromat -> --format (transposition); the option list is compare's (no --mode)
expect_exact 2 "drasim compare: unknown option '--fromat'; did you mean '--format'? options: --seed, --horizon, --output, --format, --baseline" \
	"a misspelt option gets did-you-mean and the command's options" -- compare --fromat json "$notebooks"
expect_exact 2 "drasim run: unknown option '--fromat'; did you mean '--format'? options: --mode, --seed, --horizon, --output, --format" \
	"--fromat=json is matched without its value" -- run --fromat=json "$notebooks"
# "dr" is 2 characters (1 edit allowed) and 4+ from every mode: no suggestion
expect_exact 2 "drasim run: no such mode 'dr'; modes: dra-static, dra-dynamic, extended" \
	"an unknown mode lists the modes" -- run --mode dr "$notebooks"
# "extendd" is one deletion from "extended"
expect_exact 2 "drasim explain: no such mode 'extendd'; did you mean 'extended'? modes: dra-static, dra-dynamic, extended" \
	"a misspelt mode gets did-you-mean" -- explain --mode extendd --pod notebook-small-0 "$notebooks"
expect_exact 2 "drasim run: --format: unknown format 'jsn'; did you mean 'json'? formats (a comma list): text, json, csv, html" \
	"an unknown format lists the formats" -- run --format text,jsn "$notebooks"
expect_exact 2 "drasim allocate: -o: unknown format 'jsn'; did you mean 'json'? formats: yaml, json" \
	"allocate -o lists its formats" -- allocate -o jsn "$notebooks"
# "DRAAdminAcess" is one deletion from DRAAdminAccess
expect_exact 2 "drasim allocate: --feature: unknown feature gate 'DRAAdminAcess'; did you mean 'DRAAdminAccess'? gates: DRAAdminAccess, DRAPrioritizedList, DRAPartitionableDevices, DRADeviceTaints, DRADeviceBindingConditions, DRAResourceClaimDeviceStatus, DRAConsumableCapacity, DRASchedulerFilterTimeout" \
	"an unknown feature gate gets did-you-mean and the gates" -- allocate --feature DRAAdminAcess=true "$root/scenarios/dra-claims/manifests.yaml"
"$drasim" publish --shape dgx-h10 >/dev/null 2>"$work/err"
got=$?
[ "$got" -eq 2 ] && head -n 1 "$work/err" | grep -q "^drasim publish: unknown node shape 'dgx-h10'; did you mean 'dgx-h100'? shapes: dgx-a100-640gb, .*, dgx-h100, .*azure-nd96isr-h100-v5$"
result $? "an unknown shape gets did-you-mean and the catalog's shapes (exit $got)"
expect_exact 2 "drasim experiment fgd: --policy: no such policy 'bestfit'; did you mean 'BestFit'? policies: Random, DotProd, GpuClustering, GpuPacking, BestFit, FGD, LeastAllocated, MostAllocated, RequestedToCapacityRatio, BalancedAllocation" \
	"an unknown policy gets did-you-mean (case does not count)" -- experiment fgd --policy bestfit -o "$work/x"

# Help: the usage line names the program; every command has a summary and examples.
"$drasim" compare --help | sed -n 2p | grep -q "^  drasim compare \[OPTION…\] SCENARIO"
result $? "compare --help: 'drasim compare [OPTION…] SCENARIO'"
missing=""
for cmd in $("$drasim" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'); do
	"$drasim" "$cmd" --help >"$work/help" 2>&1 &&
		grep -q "^  drasim $cmd \[OPTION…\]" "$work/help" &&
		sed -n '/^Examples:/,$p' "$work/help" | grep -q "^  drasim $cmd" &&
		sed -n 4p "$work/help" | grep -q . || missing="$missing $cmd"
done
[ -z "$missing" ]
result $? "every command's --help: usage with drasim, a summary, an example (missing:$missing)"
"$drasim" help compare >"$work/help1" && "$drasim" compare --help >"$work/help2" &&
	cmp -s "$work/help1" "$work/help2"
result $? "drasim help compare is drasim compare --help"
"$drasim" sweep merge --help | sed -n 2p | grep -q "^  drasim sweep merge \[OPTION…\] DIR"
result $? "sweep merge --help names 'drasim sweep merge'"

# Rates with units: 30/min = 30 / 60 s = 0.5/s exactly, so the runs are byte-identical
# to rate: 0.5 (but for the scenario file's hash); 1800/h = 1800 / 3,600 s and
# 43200/d = 43,200 / 86,400 s are 0.5/s too.
mkdir -p "$work/rates"
cp "$root/scenarios/mig-notebooks/manifests.yaml" "$work/rates/"
for rate in 0.5 30/min 1800/h 43200/d; do
	sed -e "s|rate: 0.008}|rate: $rate}|" -e "s|count: 800|count: 40|" -e "s|count: 100|count: 5|" \
		"$notebooks" >"$work/rates/s.yaml"
	"$drasim" run --mode dra-static --format json "$work/rates/s.yaml" >"$work/rates/$(echo "$rate" | tr / _).json" 2>"$work/err" ||
		echo "run failed: $rate" >>"$work/err"
done
for f in 0.5 30_min 1800_h 43200_d; do
	grep -v '"hash":' "$work/rates/$f.json" >"$work/rates/$f.nohash"
done
cmp -s "$work/rates/0.5.nohash" "$work/rates/30_min.nohash" &&
	cmp -s "$work/rates/0.5.nohash" "$work/rates/1800_h.nohash" &&
	cmp -s "$work/rates/0.5.nohash" "$work/rates/43200_d.nohash" &&
	[ "$(grep -c '"hash":' "$work/rates/0.5.json")" -eq 1 ] && grep -q '"pods_submitted"' "$work/rates/0.5.json"
result $? "rate: 30/min, 1800/h and 43200/d run byte-identically to rate: 0.5"
sed -e "s|rate: 0.008}|rate: 7.2/hour}|" "$notebooks" >"$work/rates/s.yaml"
"$drasim" run "$work/rates/s.yaml" >/dev/null 2>"$work/err"
got=$?
[ "$got" -eq 1 ] && grep -q "s.yaml:21:41: error: expected a rate: a number per second, or NUMBER/UNIT like 7.2/h, 30/min, 0.5/s or 2/d, got \"7.2/hour\": unknown unit 'hour' (us, ms, s, m or min, h, d or w) \[spec.workload.entries\[0\].arrival.rate\]" "$work/err"
result $? "a bad rate names file:line:col, the field and the accepted forms (exit $got)"

# Progress: never in a pipe or a file; on a terminal, time of the horizon and percent.
"$drasim" run --mode dra-static "$work/rates/s.yaml" >/dev/null 2>"$work/err"
"$drasim" run --mode dra-static "$notebooks" >/dev/null 2>"$work/err"
! grep -q "events/s" "$work/err"
result $? "no progress line when stderr is not a terminal"
if command -v script >/dev/null 2>&1; then
	script -qec "\"$drasim\" run --mode dra-static \"$notebooks\" >/dev/null" "$work/tty" >/dev/null 2>&1
	tr '\r' '\n' <"$work/tty" | grep -q "^dra-static: t=[0-9a-z]* of 1d ([0-9]*%)  pods=[0-9,]*  events/s=[0-9,]*"
	result $? "on a terminal: 'dra-static: t=... of 1d (N%)  pods=...  events/s=...'"
else
	n=$((n + 1))
	echo "ok $n # SKIP script(1) is not installed"
fi
"$drasim" --version extra >/dev/null 2>&1
[ $? -eq 2 ]
result $? "--version with an argument is a usage error"
"$drasim" >/dev/null 2>&1
[ $? -eq 2 ]
result $? "no command is a usage error"
exit $status
