#!/bin/sh
# experiment_fgd.sh DRASIM ROOT WORKDIR: `drasim experiment fgd` (issue 15
# items 3 and 4) as a user runs it: tiny traces worked by hand in four worlds,
# the bad-input errors (unknown trace, world and policy names list the valid
# ones, a refused pair named on both sides, bad seeds: exit 2; a malformed row
# names file:line:col, a pod list without GPU pods is refused: exit 1), refused
# pairs from defaults recorded, and equal bytes whatever --jobs is. TAP.
#
# Hand case 1 (data/fgd/three.csv): one node with one GPU (1,000 milli, 8
# CPUs), three pods of 1 CPU and 0.4 GPU. The pod list asks 1,200 milli;
# tuning to 130 % (1,300) appends no draw (1,200 + 400 > 1,300), so every seed
# offers the three pods, in an order that does not matter (they are equal).
# After each:
#   pod 1: arrived 40 %, allocated 40 %: unallocated 60; 600 free, the only
#          task (1 CPU, 400) fits: fragment 0, amount 0, ratio 0;
#   pod 2: arrived 80 %, allocated 80 %: unallocated 20; 200 free, the task
#          does not fit: fragment 200 = 20 % of capacity, 100 % of idle;
#   pod 3: fails (400 > 200); arrived 120 %, still 80 % allocated: the same.
# An integer with no row takes its ±1 window: 39 and 41 copy 40, and so on.
# Over seeds 1-3: mean as above, sd 0, n 3; 0 % and 60 % have n 0 (empty).
#
# Hand case 2 (half.csv, written below): the same node, two pods of 1 CPU and
# 0.5 GPU (1,000 milli asked; 1,000 + 500 > 1,300: no draw). Arrival reaches
# 100 % at pod 2, where the figures at 100 % are taken:
#   gpushare, dra-capacity (both halves share the GPU), time-slicing (10
#   replicas a GPU: 5 each): both placed, unallocated 0, nothing stranded,
#   2 co-tenants on the one GPU (mean 2, max 2);
#   whole: pod 1 takes the whole GPU (500 held beyond its share: stranded
#   500 / 1,000 = 50 %), pod 2 finds no GPU: unallocated 100 - 50 = 50,
#   1 co-tenant.
set -u
drasim=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
data=$root/tests/unit/cli/data/fgd
n=0 status=0

subcommand=experiment
# shellcheck source=tests/unit/cli/tap-lib.sh
. "$root/tests/unit/cli/tap-lib.sh"

echo "1..23"

"$drasim" experiment fgd --trace "$data/three.csv" --nodes "$data/nodes.csv" --policy BestFit \
	--seeds 1-3 -o "$work/hand" >/dev/null 2>"$work/err"
result $? "the hand case runs"
cat >"$work/want" <<'WANT'
three,gpushare,BestFit,40,unallocated_pct,60.000000,0.000000,3
three,gpushare,BestFit,40,frag_amount_pct,0.000000,0.000000,3
three,gpushare,BestFit,40,frag_ratio_pct,0.000000,0.000000,3
three,gpushare,BestFit,41,unallocated_pct,60.000000,0.000000,3
three,gpushare,BestFit,80,unallocated_pct,20.000000,0.000000,3
three,gpushare,BestFit,80,frag_amount_pct,20.000000,0.000000,3
three,gpushare,BestFit,80,frag_ratio_pct,100.000000,0.000000,3
three,gpushare,BestFit,120,unallocated_pct,20.000000,0.000000,3
three,gpushare,BestFit,120,frag_ratio_pct,100.000000,0.000000,3
three,gpushare,BestFit,0,unallocated_pct,,,0
three,gpushare,BestFit,60,frag_amount_pct,,,0
WANT
missing=0
while read -r line; do
	grep -qx -- "$line" "$work/hand/fgd.csv" || { echo "# missing: $line"; missing=1; }
done <"$work/want"
[ "$missing" -eq 0 ] && [ "$(wc -l <"$work/hand/fgd.csv")" -eq $((1 + 131 * 3 + 3)) ] &&
	head -1 "$work/hand/fgd.csv" | grep -qx "trace,world,policy,arrived_pct,metric,mean,sd,n"
result $? "fgd.csv holds the hand-worked means, sd 0 and n 3, one row per point and metric"

python3 - "$work/hand/fgd.json" <<'PY' >"$work/err" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["apiVersion"] == "drasim.io/fgd/v1" and d["tune_ratio"] == 1.3, d
assert d["seeds"] == {"from": 1, "to": 3}, d["seeds"]
t = d["traces"][0]
assert t["name"] == "three" and len(t["worlds"]) == 1
w = t["worlds"][0]
assert w["name"] == "gpushare" and w["device_pick"] == "policy", w
assert isinstance(w["title"], str) and w["beyond_production"] is True and w["memory_isolation"] is False
p = w["policies"][0]
assert p["name"] == "BestFit" and p["beyond_production"] is True and "refused" not in p
assert sorted(p["at_100"]) == ["cotenants_max", "cotenants_mean", "stranded_pct", "unallocated_pct"]
assert [q["arrived_pct"] for q in p["points"]] == list(range(131))
q = p["points"][80]
assert q["unallocated_pct"] == {"mean": 20.0, "sd": 0.0, "n": 3}, q
assert q["frag_amount_pct"] == {"mean": 20.0, "sd": 0.0, "n": 3}, q
assert q["frag_ratio_pct"] == {"mean": 100.0, "sd": 0.0, "n": 3}, q
assert p["points"][60]["unallocated_pct"] == {"mean": None, "sd": None, "n": 0}
PY
result $? "fgd.json is drasim.io/fgd/v1 with worlds, at_100 and the same figures at 80 %"

printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\np0,1000,1,1,500,\np1,1000,1,1,500,\n' \
	>"$work/half.csv"
"$drasim" experiment fgd --trace "$work/half.csv" --nodes "$data/nodes.csv" --seeds 1-2 \
	--worlds gpushare,whole,time-slicing,dra-capacity --policy LeastAllocated \
	-o "$work/half" >/dev/null 2>"$work/err" &&
	python3 - "$work/half/fgd.json" <<'PY' >>"$work/err" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
want = {"gpushare": (0, 0, 2), "whole": (50, 50, 1), "time-slicing": (0, 0, 2),
        "dra-capacity": (0, 0, 2)}
got = {}
for w in d["traces"][0]["worlds"]:
    a = w["policies"][0]["at_100"]
    for k in a:
        assert a[k]["n"] == 2 and a[k]["sd"] == 0.0, (w["name"], k, a[k])
    assert a["cotenants_max"]["mean"] == a["cotenants_mean"]["mean"]
    got[w["name"]] = (a["unallocated_pct"]["mean"], a["stranded_pct"]["mean"],
                      a["cotenants_mean"]["mean"])
assert got == want, got
PY
result $? "at 100 % by hand: unallocated, stranded GPU and co-tenants in four worlds"

expect_error 2 "no such openb trace 'nope'; traces (or a path to a pod list CSV): default, cpu0, .*multigpu50" \
	"an unknown trace name lists the valid ones" -- fgd --trace nope -o "$work/x1"
expect_error 2 "no such policy 'Tetris'; policies: Random, DotProd, GpuClustering, GpuPacking, BestFit, FGD, LeastAllocated" \
	"an unknown policy lists the valid ones" -- fgd --policy Tetris -o "$work/x2"
expect_error 2 "no such world 'flat'; worlds (or all, alone): gpushare, whole, time-slicing, dra-capacity, dra-capacity-pick, dra-mig" \
	"an unknown world lists the valid ones" -- fgd --worlds gpushare,flat -o "$work/x2"
expect_error 2 "world time-slicing, policy FGD: the paper's policies" \
	"a refused pair named on both sides is a usage error with the reason" -- \
	fgd --worlds time-slicing --policy FGD -o "$work/x2"
expect_error 2 "seeds: the range A-B needs A <= B" "seeds out of order" -- \
	fgd --seeds 51-42 -o "$work/x2"
expect_error 2 "seeds wants A-B or A (e.g. 42-51)" "seeds that are not numbers" -- \
	fgd --seeds 42-x -o "$work/x2"
expect_error 2 "200000 runs (traces x worlds x policies x seeds); at most 100000" \
	"a grid too large to hold is refused before it runs" -- \
	fgd --worlds whole,dra-capacity --seeds 1-10000 -o "$work/x2"
expect_error 2 "--replicas sets the time-slicing world, which --worlds does not include" \
	"a world's option without its world" -- fgd --replicas 4 -o "$work/x2"
expect_error 2 "dra-mig: GPU model \"t4-16gb\" has no MIG (MIG-capable models: a100-sxm4-40gb" \
	"a MIG model without MIG is a usage error, before any run" -- \
	fgd --worlds dra-mig --mig-model t4-16gb -o "$work/x2"
expect_error 2 "time-slicing replicas 5000: expected 1..1000 replicas per GPU" \
	"replicas out of range are a usage error, before any run" -- \
	fgd --worlds time-slicing --replicas 5000 -o "$work/x2"
"$drasim" experiment fgd --trace "$data/three.csv" --nodes "$data/nodes.csv" --seeds 1 \
	--worlds dra-capacity-1.34 --capacity-step 100 --policy LeastAllocated \
	-o "$work/cc134" >/dev/null 2>&1 && [ -s "$work/cc134/fgd.json" ]
result $? "--capacity-step also sets dra-capacity-1.34"
expect_error 1 "bad.csv:3:[0-9]*:" "a malformed row names file:line:col" -- \
	fgd --trace "$data/bad.csv" --nodes "$data/nodes.csv" -o "$work/x3"
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\np0,1000,1,0,0,\n' >"$work/cpu.csv"
expect_error 1 "world gpushare, policy FGD, seed 1: the trace has no GPU node or no GPU pod" \
	"a pod list without GPU pods is refused, not run forever" -- \
	fgd --trace "$work/cpu.csv" --nodes "$data/nodes.csv" --policy FGD --seeds 1 -o "$work/x4"
expect_error 2 "unknown experiment 'tetris'; experiments: fgd" "an unknown experiment is a usage error" -- \
	tetris -o "$work/x5"
[ ! -e "$work/x1" ] && [ ! -e "$work/x2" ] && [ ! -e "$work/x3/fgd.json" ] &&
	[ ! -e "$work/x4/fgd.json" ] && [ ! -e "$work/x5" ]
result $? "nothing was written by an experiment refused or failed"

# Defaults: --worlds time-slicing alone runs every policy; it refuses the paper's six,
# which are recorded with the reason and said once each on stderr, not an error. The
# world option given is recorded (null: the world's default).
"$drasim" experiment fgd --trace "$data/three.csv" --nodes "$data/nodes.csv" --seeds 1 \
	--worlds time-slicing --replicas 5 -o "$work/ts" >/dev/null 2>"$work/err" &&
	[ "$(grep -c "world time-slicing, policy .*(recorded as refused)" "$work/err")" -eq 6 ] &&
	python3 - "$work/ts/fgd.json" <<'PY' >>"$work/err" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["world_options"] == {"replicas": 5, "capacity_step": None, "mig_model": None}, d
ps = d["traces"][0]["worlds"][0]["policies"]
refused = [p["name"] for p in ps if "refused" in p]
assert refused == ["Random", "DotProd", "GpuClustering", "GpuPacking", "BestFit", "FGD"], refused
assert all("points" not in p for p in ps if "refused" in p)
ran = [p for p in ps if "refused" not in p]
assert ran and all(len(p["points"]) == 131 and not p["beyond_production"] for p in ran)
PY
result $? "pairs refused by default are recorded in fgd.json and said on stderr; world options"

# The page: drawn from the json text (rpt_fgd_html), alone when only html is asked for.
"$drasim" experiment fgd --trace "$work/half.csv" --nodes "$data/nodes.csv" --seeds 1-2 \
	--worlds whole,dra-capacity --policy LeastAllocated --format html -o "$work/page" \
	>/dev/null 2>"$work/err" &&
	[ -s "$work/page/fgd.html" ] && [ ! -e "$work/page/fgd.json" ] &&
	[ ! -e "$work/page/fgd.csv" ] && grep -q "<svg" "$work/page/fgd.html" &&
	grep -q "dra-capacity" "$work/page/fgd.html" && grep -q "LeastAllocated" "$work/page/fgd.html"
result $? "--format html writes fgd.html alone, with the worlds' charts"
expect_error 2 "unknown format 'pdf'; formats: json, csv, html" "an unknown format lists the three" -- \
	fgd --format pdf -o "$work/x6"

# Equal bytes whatever --jobs is: 2 traces x 2 worlds x 6 policies x 3 seeds on three nodes.
set -- fgd --trace "$data/mixed.csv" --trace "$data/three.csv" --nodes "$data/nodes3.csv" \
	--worlds gpushare,dra-capacity --policy Random --policy DotProd --policy GpuClustering \
	--policy GpuPacking --policy BestFit --policy FGD --seeds 7-9
"$drasim" experiment "$@" --jobs 1 -o "$work/j1" >/dev/null 2>"$work/err" &&
	"$drasim" experiment "$@" --jobs 2 -o "$work/j2" >/dev/null 2>>"$work/err" &&
	cmp "$work/j1/fgd.json" "$work/j2/fgd.json" && cmp "$work/j1/fgd.csv" "$work/j2/fgd.csv" &&
	[ "$(grep -c "72/72 runs done" "$work/err")" -eq 2 ] &&
	[ "$(grep -c ',dra-capacity,FGD,' "$work/j1/fgd.csv")" -eq $((2 * (131 * 3 + 3))) ]
result $? "--jobs 1 and --jobs 2 write the same bytes, two worlds"
exit $status
