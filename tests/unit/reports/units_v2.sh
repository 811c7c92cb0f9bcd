#!/bin/sh
# units_v2.sh DRASIM SRC WORK: report schema v2 as a user reads it (issue 17, item 2).
# tests/unit/reports/data/two-trainers.yaml: one H100, two 1 h trainers created at
# t = 0 in both worlds. Worked by hand: train-0 runs 0-3600 s; train-1 waits 3600 s
# for the GPU and runs 3600-7200 s; the horizon is 3 h = 10800 s. Latencies {0, 3600}
# and JCTs {3600, 7200} give, by linear interpolation (sim/measure), p50 1800 s and
# 5400 s; the GPU is busy 7200 of 10800 s = 0.666666667 of the time.
drasim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # absolute: the script cds to SRC
src=$2
work=$3
n=0
status=0
. "$src/tests/unit/cli/tap-lib.sh"
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$src" || exit 1
scenario=tests/unit/reports/data/two-trainers.yaml
out=$work/out

echo "1..10"
"$drasim" compare "$scenario" --format csv,json -o "$out" 2>"$work/err"
result $? "compare writes csv and json"

# summary.csv: long form, one metric a row, counts named for what they count
grep -qx 'mode,metric,unit,value' "$out/summary.csv" &&
	grep -qx 'dra,pods_scheduled,pods,2' "$out/summary.csv" &&
	grep -qx 'extended,pods_completed,pods,2' "$out/summary.csv" &&
	grep -qx 'dra,scheduling_latency_p50,s,1800' "$out/summary.csv" &&
	grep -qx 'extended,jct_p50,s,5400' "$out/summary.csv" &&
	grep -qx 'dra,gpu_allocation_ratio_time_weighted,ratio,0.666666667' "$out/summary.csv" &&
	grep -qx 'dra,oom_kills,kills,0' "$out/summary.csv" &&
	grep -qx 'extended,evictions,evictions,0' "$out/summary.csv" &&
	! grep -q 'pods_oom_killed\|pods_evicted' "$out/summary.csv"
result $? "summary.csv: hand-worked rows in seconds, oom_kills in kills"

# timeseries.csv: long form; 3 series x 181 samples (0..10800 s every 60 s) x 2 modes + header
[ "$(head -1 "$out/timeseries.csv")" = "mode,t_s,metric,unit,value" ] &&
	[ "$(wc -l <"$out/timeseries.csv")" -eq 1087 ] &&
	grep -qx 'dra,1800,pending_pods,pods,1' "$out/timeseries.csv" &&
	grep -qx 'extended,5400,pending_pods,pods,0' "$out/timeseries.csv" &&
	grep -qx 'dra,9000,gpu_allocation_ratio,ratio,0' "$out/timeseries.csv"
result $? "timeseries.csv: long form, t_s in seconds, train-1 pending at 1800 s"

# pods.csv: workload, request (the manifest's claim), times in seconds, pending_reason
head -1 "$out/pods.csv" | grep -qx 'mode,pod,workload,request,arrival_s,start_s,end_s,node,devices,slowdown,outcome,attempts,oom_kills,pending_reason' &&
	grep -qx 'dra,train-0,train,claim=one-gpu\[gpu.nvidia.com x1\],0,0,3600,gpu-0,gpu:gpu-0/gpu-0,1,completed,1,0,' "$out/pods.csv" &&
	grep -q '^dra,train-1,train,claim=one-gpu\[gpu.nvidia.com x1\],0,3600,7200,gpu-0,gpu:gpu-0/gpu-0,2,completed,[0-9]*,0,"0/1 nodes are available: 1 cannot allocate all claims\.' "$out/pods.csv" &&
	grep -q '^extended,train-1,train,[^,]*,0,3600,7200,gpu-0,gpu:gpu-0/gpu-0,2,completed,[0-9]*,0,"0/1 nodes are available: 1 Insufficient nvidia.com/gpu\.' "$out/pods.csv"
result $? "pods.csv: workload, request and kube-scheduler's pending_reason for the pod that waited"

# the same physical GPU has the same id in both worlds (pod,devices of each mode)
cut -d, -f2,9 "$out/pods.csv" | sed -n '2,3p' >"$work/dra" &&
	cut -d, -f2,9 "$out/pods.csv" | sed -n '4,5p' >"$work/ext" &&
	[ "$(cut -d, -f1 "$out/pods.csv" | sed -n '2,5p' | tr '\n' ' ')" = "dra dra extended extended " ] &&
	cmp -s "$work/dra" "$work/ext" && grep -qx 'train-1,gpu:gpu-0/gpu-0' "$work/ext"
result $? "pods.csv: train-0 and train-1 name the same device id in dra and extended"

"$drasim" explain "$scenario" --pod train-1 >"$work/explain" 2>"$work/err" &&
	[ "$(grep -c '3600.000s  started on gpu-0, device gpu:gpu-0/gpu-0$' "$work/explain")" -eq 2 ]
result $? "explain: the same device id in both modes, as in pods.csv"

# report.json: seconds under *_s keys, numbers and booleans typed
python3 - "$out/report.json" >"$work/err" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "drasim.io/report/v2", d["schema"]
assert d["scenario"]["horizon_s"] == 10800
m = d["modes"][0]
assert m["info"]["gpu_devices"] == 1 and m["info"]["simulated_end_s"] == 10800, m["info"]
assert m["timeseries"]["interval_s"] == 60
p = [p for p in m["pods"] if p["name"] == "train-1"][0]
assert (p["arrival_s"], p["start_s"], p["end_s"]) == (0, 3600, 7200), p
assert p["workload"] == "train" and p["request"] == "claim=one-gpu[gpu.nvidia.com x1]", p
assert "_us" not in json.dumps(d)
PY
result $? "report.json: times in seconds, gpu_devices a number"

# a v1 report: drasim diff says what it is, what this drasim reads and how to regenerate
"$drasim" diff tests/unit/reports/golden/fake-small-v1.json "$out/report.json" >/dev/null 2>"$work/err"
[ $? -eq 1 ] && grep -q 'this report is drasim.io/report/v1; this drasim reads drasim.io/report/v2' "$work/err" &&
	grep -q 'Regenerate it with this drasim' "$work/err"
result $? "diff of a v1 report: exit 1, schema v1 named, how to regenerate"

subcommand=plan
expect_error 2 "metric 'pods_oom_killed' was renamed to 'oom_kills'" \
	"plan --slo with a v1 metric name names the new one" -- \
	scenarios/plan-one-gpu/scenario.yaml --pool dgx --slo 'pods_oom_killed <= 3' -o "$work/plan"
expect_error 2 "write 'evictions == 0'" "plan --slo pods_evicted: renamed to evictions" -- \
	scenarios/plan-one-gpu/scenario.yaml --pool dgx --slo 'pods_evicted == 0' -o "$work/plan"
exit $status
