#!/bin/sh
# sharing.sh DRASIM SRCDIR WORK: issue 17's sharing parts as a user runs them:
# `drasim convert --to dra` on device-plugin manifests (the shipped scenarios'
# and tests/data/sharing/convert), lint of what it writes, and placements of the
# original in the extended world equal to the converted in the DRA world; the
# shared-claim lint warning; every YAML snippet of docs/sharing.md through lint.
set -u
drasim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") src=$2 work=$3
n=0 status=0
rm -rf "$work" && mkdir -p "$work" || exit 1
. "$src/tests/unit/cli/tap-lib.sh"
cd "$src" || exit 1

# pod, arrival_s, node of a run's pods.csv (the columns before it hold no quoted commas)
placements() { cut -d, -f2,5,8 "$1/pods.csv"; }

# 1. Every shipped scenario's manifests convert, and lint accepts the output on the
# scenario's own shapes. node-events is the one with a device-plugin pod template
# (notebook: nvidia.com/mig-1g.10gb: 1), so it alone gets one template.
for dir in scenarios/*/; do
	name=$(basename "$dir")
	[ -f "$dir/manifests.yaml" ] || continue
	shapes=$(sed -n 's/.*shape: \([a-z0-9.-]*\).*/--shape \1/p' "$dir/scenario.yaml" | sort -u)
	if [ -z "$shapes" ]; then
		# A cluster given as objects (imported-cluster): no catalog shape to lint on.
		n=$((n + 1))
		echo "ok $n - convert --to dra $name # SKIP no catalog shapes (its cluster is given as objects)"
		continue
	fi
	"$drasim" convert --to dra "$dir/manifests.yaml" -o "$work/$name.yaml" \
		--report "$work/$name.report" 2>"$work/err" &&
		"$drasim" lint $shapes "$work/$name.yaml" 2>"$work/err" &&
		grep -q ', 0 errors, 0 warnings$' "$work/err"
	result $? "convert --to dra $name: lint $shapes accepts the output"
done
grep -q '^translation report (device plugin -> DRA): 1 object rewritten, 1 ResourceClaimTemplate added$' \
	"$work/node-events.report" &&
	grep -q 'Deployment default/notebook: container jupyter nvidia.com/mig-1g.10gb: 1 -> claim mig-1g-10gb from ResourceClaimTemplate notebook-mig-1g-10gb (mig.nvidia.com, count 1, profile == "1g.10gb")' \
		"$work/node-events.report"
result $? "node-events: the report names what the notebook became"

# 2. node-events, the original in its extended mode and the converted in its DRA mode
# without taints (the extended world has none): the 14 notebooks (the converted
# Deployment) arrive at 7h and land on dgx-3 (mig-manager splits it into 56 1g.10gb
# at 8h) at the same times in both. The train pods are DRA claims in both files and
# are not compared: after the 3h restore the two worlds break ties between dgx-0
# and dgx-2 differently (train-67, -68, -83), which is no part of the conversion.
mkdir -p "$work/ne" && cp scenarios/node-events/manifests.yaml "$work/ne/orig.yaml" &&
	cp "$work/node-events.yaml" "$work/ne/dra.yaml" &&
	sed 's/manifests: \[manifests.yaml\]/manifests: [orig.yaml]/' scenarios/node-events/scenario.yaml \
		>"$work/ne/ext.yaml" &&
	sed 's/manifests: \[manifests.yaml\]/manifests: [dra.yaml]/' scenarios/node-events/scenario.yaml \
		>"$work/ne/dra-sc.yaml" &&
	"$drasim" run "$work/ne/ext.yaml" --mode extended -o "$work/ne/ext" --format csv 2>"$work/err" &&
	"$drasim" run "$work/ne/dra-sc.yaml" --mode dra-no-taints -o "$work/ne/dra" --format csv 2>"$work/err" &&
	placements "$work/ne/ext" | grep '^notebook-' >"$work/ne/a" &&
	placements "$work/ne/dra" | grep '^notebook-' >"$work/ne/b" &&
	[ "$(grep -c ',dgx-3$' "$work/ne/a")" -eq 14 ] && cmp -s "$work/ne/a" "$work/ne/b" &&
	[ "$(grep -c '^dra-no-taints,notebook-.*,dgx-3,mig:dgx-3/gpu-[01]/mig-1g.10gb' "$work/ne/dra/pods.csv")" -eq 14 ]
result $? "node-events: the 14 converted notebooks are placed alike, on 1g.10gb devices in DRA"

# 3. tests/data/sharing/convert: GFD product selectors and affinity become CEL
# selectors. Trainers (2 x H100 each) land on h100-*, workers (1 x A100) on a100-0, in
# both worlds, every pod: same pod, arrival and node. shared-notebook asks
# nvidia.com/gpu.shared, which no node offers in either world: kept, unrunnable.
mkdir -p "$work/c" && cp tests/data/sharing/convert/scenario.yaml tests/data/sharing/convert/manifests.yaml "$work/c/" &&
	"$drasim" convert --to dra "$work/c/manifests.yaml" -o "$work/c/dra.yaml" 2>"$work/c/report" &&
	sed 's/manifests: \[manifests.yaml\]/manifests: [dra.yaml]/' "$work/c/scenario.yaml" >"$work/c/dra-sc.yaml" &&
	"$drasim" lint --shape dgx-h100 --shape dgx-a100-640gb "$work/c/dra.yaml" 2>"$work/err" &&
	"$drasim" run "$work/c/scenario.yaml" --mode extended -o "$work/c/ext" --format csv 2>"$work/err" &&
	"$drasim" run "$work/c/dra-sc.yaml" --mode dra -o "$work/c/dra" --format csv 2>"$work/err" &&
	placements "$work/c/ext" >"$work/c/a" && placements "$work/c/dra" >"$work/c/b" &&
	cmp -s "$work/c/a" "$work/c/b" &&
	[ "$(grep -c '^trainer-.*,h100-[01]$' "$work/c/a")" -eq 12 ] &&
	[ "$(grep -c '^worker-.*,a100-0$' "$work/c/a")" -eq 30 ]
result $? "convert data: every pod is placed alike in the extended and DRA worlds"
grep -q 'productName == "NVIDIA H100 80GB HBM3"' "$work/c/dra.yaml" &&
	grep -q 'Pod default/worker: node affinity nvidia.com/gpu.product In \["NVIDIA A100-SXM4-80GB"\] -> selector productName == "NVIDIA A100-SXM4-80GB"' "$work/c/report" &&
	grep -q 'Pod default/shared-notebook: container jupyter nvidia.com/gpu.shared: not carried over' "$work/c/report" &&
	grep -q '^        nvidia.com/gpu.shared: "1"$' "$work/c/dra.yaml"
result $? "convert data: the report says what each became and what was not carried over"

# 4. Usage: an unknown target lists both; --report goes with --to dra only.
subcommand=convert
expect_error 2 'v1 (normalized YAML) or dra' "convert --to v2: the valid targets" -- --to v2 x.yaml
expect_error 2 'report goes with --to dra' "convert --to v1 --report: usage" -- --to v1 --report r x.yaml

# 5. The shared-claim warning (sim/lint/lint_shared.c), worked by hand:
# 12 notebooks of 6Gi (6144 MiB) on one 3g.40gb of an H100 (40448 MiB, the catalog's
# profile): floor(40448 / 6144) = 6 (6 x 6144 = 36864, 7 x 6144 = 43008 > 40448) < 12.
d=tests/data/sharing/lint
"$drasim" lint $d/notebooks-scenario.yaml 2>"$work/err"
[ $? -eq 0 ] && grep -q "^$d/notebooks.yaml:19:51: warning: 12 pods share ResourceClaim shared-mig (workload entry 0, Pod notebook: 12 pods): its 1 device of 40448 MiB holds 6 pods of 6144 MiB; .*at most 6 pods per claim.* \[spec.resourceClaims\[0\].resourceClaimName\]$" "$work/err" &&
	grep -q ', 0 errors, 1 warning$' "$work/err"
result $? "lint: 12 notebooks of 6Gi on one shared 3g.40gb claim: room for 6"
# 3Gi each: floor(40448 / 3072) = 13 >= 12, no warning.
"$drasim" lint $d/small-notebooks-scenario.yaml 2>"$work/err" && grep -q ', 0 errors, 0 warnings$' "$work/err"
result $? "lint: 12 notebooks of 3Gi fit the 3g.40gb (room for 13)"
# 12 of 8Gi (8192 MiB) on one H100 (81559 MiB): floor(81559 / 8192) = 9 (10 x 8192 =
# 81920 > 81559). The run agrees: the 9 oldest complete, the newer ones are OOM-killed
# at each start and retry (cluster_run_oom_victims kills the newest).
"$drasim" lint $d/gpu-scenario.yaml 2>"$work/err" &&
	grep -q "^$d/gpu.yaml:16:51: warning: 12 pods share ResourceClaim shared-gpu .*its 1 device of 81559 MiB holds 9 pods of 8192 MiB" "$work/err" &&
	"$drasim" run $d/gpu-scenario.yaml >"$work/out" 2>"$work/err" &&
	grep -q '^pods_completed  *pods  *9$' "$work/out" && ! grep -q '^oom_kills  *kills  *0$' "$work/out"
result $? "lint: 12 notebooks of 8Gi on one shared H100: room for 9, as the run completes 9"
# Manifests declare no GPU memory: Deployment many (12 replicas) on one device passes
# 8 per device and is reported at its claim reference; eight (8 replicas) is not.
"$drasim" lint --shape dgx-h100 $d/deployments.yaml 2>"$work/err" &&
	grep -q "^$d/deployments.yaml:36:55: warning: 12 pods share ResourceClaim h100-a (Deployment many: 12 pods): more than 8 per device (1 device of 81559 MiB; the pods declare no GPU memory)" "$work/err" &&
	grep -q ', 0 errors, 1 warning$' "$work/err"
result $? "lint: 12 replicas on one shared claim warn, 8 do not"

# 6. Every ```yaml block of docs/sharing.md lints clean on a DGX H100 (warnings fail
# too: the cookbook shows what to write). There are 5: time-slicing, MPS, the device
# plugin's pod, MIG static, the shared MIG instance, counted so that none is lost.
mkdir -p "$work/doc"
awk -v dir="$work/doc" '/^```yaml$/ { n++; file = dir "/snippet-" n ".yaml"; next }
	/^```/ { file = ""; next } file != "" { print > file }' docs/sharing.md
count=$(ls "$work/doc" | wc -l)
[ "$count" -eq 5 ]
result $? "docs/sharing.md has 5 yaml blocks (got $count)"
for f in "$work"/doc/*.yaml; do
	"$drasim" lint --shape dgx-h100 "$f" 2>"$work/err" && grep -q ', 0 errors, 0 warnings$' "$work/err"
	result $? "docs/sharing.md $(basename "$f"): lint --shape dgx-h100 is clean"
done

echo "1..$n"
exit $status
