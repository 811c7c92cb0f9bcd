#!/bin/sh
# experiment_fgd.sh DRASIM ROOT WORKDIR: `drasim experiment fgd` (issue 15
# item 3) as a user runs it: a tiny trace worked by hand, the bad-input
# errors (unknown trace and policy names list the valid ones, exit 2; a
# malformed row names file:line:col, exit 1), and equal bytes whatever --jobs is. TAP.
#
# The hand case (data/fgd): one node with one GPU (1,000 milli, 8 CPUs), three
# pods of 1 CPU and 0.4 GPU. The pod list asks 1,200 milli; tuning to 130 %
# (1,300) appends no draw (1,200 + 400 > 1,300), so every seed offers the
# three pods, in an order that does not matter (they are equal). After each:
#   pod 1: arrived 40 %, allocated 40 %: unallocated 60; 600 free, the only
#          task (1 CPU, 400) fits: fragment 0, amount 0, ratio 0;
#   pod 2: arrived 80 %, allocated 80 %: unallocated 20; 200 free, the task
#          does not fit: fragment 200 = 20 % of capacity, 100 % of idle;
#   pod 3: fails (400 > 200); arrived 120 %, still 80 % allocated: the same.
# An integer with no row takes its ±1 window: 39 and 41 copy 40, and so on.
# Over seeds 1-3: mean as above, sd 0, n 3; 0 % and 60 % have n 0 (empty).
set -u
drasim=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
data=$root/tests/unit/cli/data/fgd
n=0 status=0

subcommand=experiment
# shellcheck source=tests/unit/cli/tap-lib.sh
. "$root/tests/unit/cli/tap-lib.sh"

echo "1..9"

"$drasim" experiment fgd --trace "$data/three.csv" --nodes "$data/nodes.csv" --policy BestFit \
	--seeds 1-3 -o "$work/hand" >/dev/null 2>"$work/err"
result $? "the hand case runs"
cat >"$work/want" <<'WANT'
three,BestFit,40,unallocated_pct,60.000000,0.000000,3
three,BestFit,40,frag_amount_pct,0.000000,0.000000,3
three,BestFit,40,frag_ratio_pct,0.000000,0.000000,3
three,BestFit,41,unallocated_pct,60.000000,0.000000,3
three,BestFit,80,unallocated_pct,20.000000,0.000000,3
three,BestFit,80,frag_amount_pct,20.000000,0.000000,3
three,BestFit,80,frag_ratio_pct,100.000000,0.000000,3
three,BestFit,120,unallocated_pct,20.000000,0.000000,3
three,BestFit,120,frag_ratio_pct,100.000000,0.000000,3
three,BestFit,0,unallocated_pct,,,0
three,BestFit,60,frag_amount_pct,,,0
WANT
missing=0
while read -r line; do
	grep -qx -- "$line" "$work/hand/fgd.csv" || { echo "# missing: $line"; missing=1; }
done <"$work/want"
[ "$missing" -eq 0 ] && [ "$(wc -l <"$work/hand/fgd.csv")" -eq $((1 + 131 * 3)) ]
result $? "fgd.csv holds the hand-worked means, sd 0 and n 3, one row per point and metric"
grep -q '"apiVersion": "drasim.io/fgd/v1"' "$work/hand/fgd.json" &&
	grep -q '{"arrived_pct": 80, "unallocated_pct": {"mean": 20.000000, "sd": 0.000000, "n": 3}, "frag_amount_pct": {"mean": 20.000000, "sd": 0.000000, "n": 3}, "frag_ratio_pct": {"mean": 100.000000, "sd": 0.000000, "n": 3}}' "$work/hand/fgd.json" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["traces"][0]["policies"][0]["points"]) == 131' "$work/hand/fgd.json"
result $? "fgd.json is valid JSON of drasim.io/fgd/v1 with the same figures at 80 %"

expect_error 2 "no such openb trace; the names are default, cpu0, .*multigpu50" \
	"an unknown trace name lists the valid ones" -- fgd --trace nope -o "$work/x1"
expect_error 2 "the policies are Random, DotProd, GpuClustering, GpuPacking, BestFit, FGD" \
	"an unknown policy lists the six" -- fgd --policy Tetris -o "$work/x2"
expect_error 1 "bad.csv:3:[0-9]*:" "a malformed row names file:line:col" -- \
	fgd --trace "$data/bad.csv" --nodes "$data/nodes.csv" -o "$work/x3"
expect_error 2 "the experiments are: fgd" "an unknown experiment is a usage error" -- \
	tetris -o "$work/x4"
[ ! -e "$work/x1" ] && [ ! -e "$work/x2" ] && [ ! -e "$work/x3/fgd.json" ]
result $? "nothing was written by an experiment refused before it ran"

# Equal bytes whatever --jobs is: 2 traces x 6 policies x 3 seeds on three nodes.
set -- fgd --trace "$data/mixed.csv" --trace "$data/three.csv" --nodes "$data/nodes3.csv" --seeds 7-9
"$drasim" experiment "$@" --jobs 1 -o "$work/j1" >/dev/null 2>"$work/err" &&
	"$drasim" experiment "$@" --jobs 2 -o "$work/j2" >/dev/null 2>>"$work/err" &&
	cmp "$work/j1/fgd.json" "$work/j2/fgd.json" && cmp "$work/j1/fgd.csv" "$work/j2/fgd.csv" &&
	grep -q "36/36 runs done" "$work/err"
result $? "--jobs 1 and --jobs 2 write the same bytes"
exit $status
