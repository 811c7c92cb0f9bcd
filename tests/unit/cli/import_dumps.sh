#!/bin/sh
# import_dumps.sh DRASIM SOURCE_ROOT WORK: the real kubectl dumps of tests/data/import
# (their sources are in SOURCES.md there) through `drasim lint`, `drasim convert --to v1`
# and `drasim cel --slices`. For every dump:
#  - lint exits as expected: 0 for the complete dumps (warnings allowed), 1 with the true
#    error for the ones their posters trimmed;
#  - the published devices per node (tools/import/devices_of.py --counts) are the counts
#    written below, read off the dump by hand;
#  - convert keeps every device: devices_of.py lists the same lines (node, driver, pool,
#    name, attributes, capacities) for the dump and for convert's v1 output.
#  - `drasim import` of every complete dump writes a scenario that `drasim compare` runs
#    (every mode it wrote), whose cluster/resourceslices.yaml lists the same devices as
#    the dump (devices_of.py again), and that `drasim lint` accepts; a dump of claims
#    alone is refused (no cluster), and the claim allocated in a real dump keeps its
#    device when the same cluster's slices come with it.
# Then cel selectors on the dumps, with the matching devices worked out by hand.
set -u
drasim=$1 root=$2 work=$3
n=0 status=0
. "$(dirname "$0")/tap-lib.sh"
rm -rf "$work" && mkdir -p "$work" || exit 1
data=$root/tests/data/import
devices_of="python3 $root/tools/import/devices_of.py"

# check_lint DUMP STATUS PATTERN: lint exits STATUS and its stderr matches PATTERN.
check_lint() {
	"$drasim" lint "$data/$1" >/dev/null 2>"$work/err"
	got=$?
	[ "$got" -eq "$2" ] && grep -q -- "$3" "$work/err"
	result $? "$1: lint exits $2 with '$3' (exit $got)"
}

# check_counts DUMP "NODE N;NODE N;...": devices per node as read by hand.
check_counts() {
	$devices_of --counts "$data/$1" >"$work/counts" 2>"$work/err"
	printf '%s' "$2" | tr ';' '\n' | sed '/^$/d' | tr ' ' '\t' >"$work/want"
	diff "$work/want" "$work/counts" >"$work/err" 2>&1
	result $? "$1: devices per node are $2"
}

# check_round_trip DUMP: convert --to v1 succeeds and keeps every device as published.
check_round_trip() {
	"$drasim" convert --to v1 "$data/$1" >"$work/v1.yaml" 2>"$work/err"
	got=$?
	$devices_of "$data/$1" >"$work/in" && $devices_of "$work/v1.yaml" >"$work/out" &&
		[ "$got" -eq 0 ] && diff "$work/in" "$work/out" >"$work/err" 2>&1
	result $? "$1: convert --to v1 keeps $(wc -l <"$work/in") devices (exit $got)"
}

# check_import DUMP...: `drasim import` writes a scenario that `drasim compare` runs (all
# its modes) and `drasim lint` accepts, and whose cluster/resourceslices.yaml publishes
# the devices of the dumps, line for line (devices_of.py). Leaves the scenario in $out.
check_import() {
	out=$work/import-$(echo "$*" | sed 's/\.yaml//g; s/ /+/g')
	args=""
	for f in "$@"; do args="$args $data/$f"; done
	# shellcheck disable=SC2086
	"$drasim" import $args -o "$out" >/dev/null 2>"$work/err"
	got=$?
	[ "$got" -eq 0 ] && "$drasim" compare "$out/scenario.yaml" --format json >"$out.json" 2>"$work/err"
	ran=$?
	# shellcheck disable=SC2086
	$devices_of $args >"$work/in" && $devices_of "$out/cluster/resourceslices.yaml" >"$work/out" &&
		[ "$ran" -eq 0 ] && diff "$work/in" "$work/out" >"$work/err" 2>&1 &&
		"$drasim" lint "$out/scenario.yaml" >/dev/null 2>"$work/err"
	result $? "$*: import (exit $got) runs, lints and keeps $(wc -l <"$work/in") devices"
}

# Complete dumps: lint clean, devices counted by hand, round trip.
# H100: per node one gpu.nvidia.com slice of gpu-0..gpu-7 and one compute-domain slice of
# daemon-0 and channel-0: 8 + 2 = 10 devices on each of the 2 nodes.
check_lint nvidia-h100-2node-v1.yaml 0 "4 objects, 0 errors, 0 warnings"
check_counts nvidia-h100-2node-v1.yaml "gpu-node-1 10;gpu-node-2 10;"
check_round_trip nvidia-h100-2node-v1.yaml
check_import nvidia-h100-2node-v1.yaml
# vGPU: 4 nodes, each gpu-0 (one GRID A100 vGPU) + channel-0 + daemon-0 = 3 devices.
check_lint nvidia-a100-vgpu-4node-v1.yaml 0 "8 objects, 0 errors, 0 warnings"
check_counts nvidia-a100-vgpu-4node-v1.yaml "test-ai-0-node-pool-40c-kn48j-7n6h9-gvhpn 3;\
test-ai-0-node-pool-4c-zdfrn-rnkzj-gcxqf 3;test-ai-0-node-pool-4c-zdfrn-rnkzj-lrj4k 3;\
test-ai-0-node-pool-4c-zdfrn-rnkzj-w78x4 3;"
check_round_trip nvidia-a100-vgpu-4node-v1.yaml
check_import nvidia-a100-vgpu-4node-v1.yaml
# P100, v1beta1 with `basic:`: one GPU; the only warning is the beta version.
check_lint nvidia-p100-v1beta1.yaml 0 "0 errors, 1 warning"
check_counts nvidia-p100-v1beta1.yaml "192.168.140.59 1;"
check_round_trip nvidia-p100-v1beta1.yaml
check_import nvidia-p100-v1beta1.yaml
# Intel v1: two GPUs on rpl-s (0000-00-02-0-0x7d67 and 0000-04-00-0-0xe211).
check_lint intel-gpu-v1.yaml 0 "1 object, 0 errors, 0 warnings"
check_counts intel-gpu-v1.yaml "rpl-s 2;"
check_round_trip intel-gpu-v1.yaml
check_import intel-gpu-v1.yaml
# Intel Gaudi2 (gaudi.intel.com), v1: 0000-a0-00-0-0x1020 and 0000-b0-00-0-0x1020 on rpl-s.
check_lint intel-gaudi2-v1.yaml 0 "1 object, 0 errors, 0 warnings"
check_counts intel-gaudi2-v1.yaml "rpl-s 2;"
check_round_trip intel-gaudi2-v1.yaml
check_import intel-gaudi2-v1.yaml
# The same page in 2024, v1beta1 with `basic:`: three Gaudi2 (-a0-, -b0-, -c0-).
check_lint intel-gaudi2-v1beta1.yaml 0 "0 errors, 1 warning"
check_counts intel-gaudi2-v1beta1.yaml "rpl-s 3;"
check_round_trip intel-gaudi2-v1beta1.yaml
check_import intel-gaudi2-v1beta1.yaml
# VKS v1.36: two nodes, one GRID A100-10C vGPU (gpu-0) each; the poster left out the
# compute-domain slices (said so on the page), so 1 device per node.
check_lint nvidia-a100-10c-vgpu-2node-v1.yaml 0 "2 objects, 0 errors, 0 warnings"
check_counts nvidia-a100-10c-vgpu-2node-v1.yaml \
	"conformance-test-np1-qcqc8-bpdtl-rcj8j 1;conformance-test-np1-qcqc8-bpdtl-wv2gs 1;"
check_round_trip nvidia-a100-10c-vgpu-2node-v1.yaml
check_import nvidia-a100-10c-vgpu-2node-v1.yaml

# dra-example-driver in kind: 8 mock GPUs gpu-0..gpu-7 (gpu.example.com) on one worker.
check_lint example-driver-8gpu-v1.yaml 0 "1 object, 0 errors, 0 warnings"
check_counts example-driver-8gpu-v1.yaml "dra-example-driver-cluster-worker 8;"
check_round_trip example-driver-8gpu-v1.yaml
check_import example-driver-8gpu-v1.yaml

# Claims with status.allocation and no DeviceClass in the dump: a warning, not an error
# (the allocator never sees an allocated claim again); no devices are published.
check_lint nvidia-claims-allocated-v1.yaml 0 "the claim is allocated (status.allocation)"
check_lint amd-mi300x-claim-allocated-v1.yaml 0 "device class gpu.amd.com is not known"
check_counts nvidia-claims-allocated-v1.yaml ""
check_round_trip nvidia-claims-allocated-v1.yaml
check_round_trip amd-mi300x-claim-allocated-v1.yaml

# A dump of claims alone has no cluster: import refuses it and writes nothing.
for dump in nvidia-claims-allocated-v1.yaml amd-mi300x-claim-allocated-v1.yaml; do
	"$drasim" import "$data/$dump" -o "$work/claims-only" >/dev/null 2>"$work/err"
	got=$?
	[ "$got" -eq 1 ] && grep -q "no Node and no ResourceSlice was imported, so no cluster" "$work/err" &&
		[ ! -e "$work/claims-only" ]
	result $? "$dump: import refuses claims without a cluster, nothing written (exit $got)"
done

# The VKS claim with the same cluster's slices (both from v1.36/vks/dra_support.md): it
# is allocated conformance-test-np1-qcqc8-bpdtl-wv2gs/gpu-0 and reserved for the pod
# dra-gpu-example-798fccd4d-sfl2p, which the page shows Running but does not dump.
check_import nvidia-a100-10c-vgpu-2node-v1.yaml nvidia-a100-10c-claim-allocated-v1.yaml
held=$out
grep -q '^ResourceClaims: 1 allocated .*, 1 reserved' "$held/README.md"
result $? "VKS slices + claim: README counts the claim allocated and reserved"
# On top, a DeviceClass and two pending pods asking one gpu.nvidia.com device each, and
# the page's ResourceClaimTemplate gpu-claim-template (its Deployment's).
cat >"$work/held-workload.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.nvidia.com}
spec:
  selectors:
  - cel: {expression: device.driver == "gpu.nvidia.com"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu}
spec:
  spec:
    devices:
      requests:
      - {name: gpu, exactly: {deviceClassName: gpu.nvidia.com}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu-claim-template, namespace: gpu-test1}
spec:
  spec:
    devices:
      requests:
      - name: single-gpu
        exactly: {deviceClassName: gpu.nvidia.com, allocationMode: ExactCount, count: 1}
YAML
for i in 0 1; do cat >>"$work/held-pods.yaml" <<YAML
---
apiVersion: v1
kind: Pod
metadata: {name: want-$i}
spec:
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
  containers: [{name: main, image: cuda, resources: {claims: [{name: gpu}]}}]
status: {phase: Pending}
YAML
done
# The running pod, written here (not a dump) from the page's Deployment, the claim's
# allocation (its node) and its name (the claim's owner and reservedFor).
cp "$work/held-pods.yaml" "$work/held-pods-running.yaml"
cat >>"$work/held-pods-running.yaml" <<'YAML'
---
apiVersion: v1
kind: Pod
metadata: {name: dra-gpu-example-798fccd4d-sfl2p, namespace: gpu-test1}
spec:
  nodeName: conformance-test-np1-qcqc8-bpdtl-wv2gs
  resourceClaims: [{name: single-gpu, resourceClaimTemplateName: gpu-claim-template}]
  containers: [{name: ctr, image: ubuntu:22.04, resources: {claims: [{name: single-gpu}]}}]
status:
  phase: Running
  resourceClaimStatuses:
  - {name: single-gpu, resourceClaimName: dra-gpu-example-798fccd4d-sfl2p-single-gpu-d2jzk}
YAML

# check_held PODS SUBMITTED SCHEDULED PENDING WHAT: the imported slices and claim with
# held-workload.yaml and the pods of PODS run to these counts.
check_held() {
	cat >"$work/held.yaml" <<YAML
apiVersion: drasim.io/v1alpha1
kind: Scenario
metadata: {name: held}
spec:
  horizon: 1h
  cluster:
    objects: [$held/cluster/resourceslices.yaml]
  workload:
    manifests: [$held/workload/claims.yaml, $work/held-workload.yaml]
    imported:
      manifests: [$work/$1]
  modes:
  - {name: as-is, world: dra}
YAML
	"$drasim" run "$work/held.yaml" --format json >"$work/held.json" 2>"$work/err"
	got=$?
	[ "$got" -eq 0 ] && python3 - "$work/held.json" "$2" "$3" "$4" >>"$work/err" 2>&1 <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["modes"][0]["metrics"]
got = [m[k]["value"] for k in ("pods_submitted", "pods_scheduled", "pods_pending")]
want = [int(v) for v in sys.argv[2:5]]
sys.exit(0 if got == want else f"got {got}, expected {want} (submitted, scheduled, pending)")
PY
	result $? "VKS slices + claim: $5 (exit $got)"
}
# With its pod running, the claim keeps wv2gs/gpu-0: of the two pods on top only one
# runs, on rcj8j's gpu-0 (2 devices, 1 free): submitted 3, scheduled 2, pending 1.
check_held held-pods-running.yaml 3 2 1 "with its pod running the device is kept, 1 of 2 more runs"
# The page's dumps alone: the pod the claim is reserved for is not in the snapshot. A
# partial dump cannot tell that pod is gone, so the claim stays allocated and reserved
# (world_start.c, with a note; docs/import.md): of the two pods on top only one runs:
# submitted 2, scheduled 1, pending 1.
check_held held-pods.yaml 2 1 1 "without its pod in the snapshot the claim stays allocated, 1 of 2 runs"

# A device-plugin MIG node (the real GFD labels of an H100 in all-balanced, NVIDIA's docs;
# tests/unit/scenario/data/import, see SOURCES.md) with its pods: the README lists the
# plugin's resources (mig-1g.10gb 2, mig-2g.20gb 1, mig-3g.40gb 1), and both modes
# written, as-is (extended) and dra, place the same pods: mig-run-0 bound on a 1g.10gb,
# one of the three 1g.10gb waiters on the other, mig-big on the 3g.40gb; two waiters and
# whole-gpu (no nvidia.com/gpu: the GPU is in MIG mode) pending: 3 scheduled, 3 pending.
mig=$root/tests/unit/scenario/data/import
"$drasim" import "$mig/dp-mig-node.yaml" "$mig/dp-mig-pods.yaml" -o "$work/mig" >/dev/null \
	2>"$work/err"
got=$?
[ "$got" -eq 0 ] && grep -q '^| s4124-0073 | nvidia.com/mig-1g.10gb | 2 |$' "$work/mig/README.md" &&
	grep -q '^| s4124-0073 | nvidia.com/mig-2g.20gb | 1 |$' "$work/mig/README.md" &&
	grep -q '^| s4124-0073 | nvidia.com/mig-3g.40gb | 1 |$' "$work/mig/README.md"
result $? "MIG device-plugin node: import (exit $got), README lists the plugin's resources"
"$drasim" compare "$work/mig/scenario.yaml" --format json >"$work/mig.json" 2>"$work/err"
got=$?
[ "$got" -eq 0 ] && python3 - "$work/mig.json" >>"$work/err" 2>&1 <<'PY'
import json, sys
modes = json.load(open(sys.argv[1]))["modes"]
got = [(m["name"], m["metrics"]["pods_scheduled"]["value"], m["metrics"]["pods_pending"]["value"])
       for m in modes]
sys.exit(0 if got == [("as-is", 3, 3), ("dra", 3, 3)] else f"got {got}")
PY
result $? "MIG device-plugin node: as-is and dra each schedule 3, 3 pending (exit $got)"

# Dumps in a version 1.34 no longer serves, or trimmed by their posters: true errors.
# Intel v1alpha3 (1.31): not served, but convert writes it as v1 with its one A770.
check_lint intel-gpu-v1alpha3.yaml 1 'no matches for kind "ResourceSlice" in version "resource.k8s.io/v1alpha3"'
check_counts intel-gpu-v1alpha3.yaml "rpl-s 1;"
check_round_trip intel-gpu-v1alpha3.yaml
# import converts it too (a note says so), and the result runs.
check_import intel-gpu-v1alpha3.yaml
# AMD blog slice: the poster left out spec.pool, which Kubernetes requires.
check_lint amd-mi300x-gpu-blog-v1.yaml 1 "Required value \[spec.pool.name\]"
check_counts amd-mi300x-gpu-blog-v1.yaml "gpu-worker-2 1;"
# dranet: cut with `...` after eth1..eth3, so no spec.driver and no node.
check_lint dranet-gke-v1beta1.yaml 1 "Required value \[spec.driver\]"
check_counts dranet-gke-v1beta1.yaml "(nodeSelector) 3;"
# OpenShift T4: the poster condensed it, `metadata` elided with an indented `...`, which
# is no YAML: lint and import report it where it is (line 6, the key begun at 5:3), and
# with --keep-going nothing is left to import.
check_lint nvidia-t4-openshift-v1-condensed.yaml 1 "condensed.yaml:6:1: error: invalid YAML"
"$drasim" import --keep-going "$data/nvidia-t4-openshift-v1-condensed.yaml" -o "$work/t4" \
	>/dev/null 2>"$work/err"
got=$?
[ "$got" -eq 1 ] && grep -q "no Node and no ResourceSlice was imported" "$work/err" &&
	[ ! -e "$work/t4" ]
result $? "nvidia-t4-openshift-v1-condensed.yaml: import --keep-going writes nothing (exit $got)"
# MIG: cut with `...` after the first MIG device, so the List has no kind.
check_lint nvidia-a100-mig-v1alpha3.yaml 1 "missing 'kind'"
"$drasim" convert --to v1 "$data/nvidia-a100-mig-v1alpha3.yaml" >/dev/null 2>"$work/err"
got=$?
[ "$got" -eq 1 ] && grep -q "missing 'kind'" "$work/err"
result $? "nvidia-a100-mig-v1alpha3.yaml: convert refuses the trimmed List (exit $got)"

# check_cel DUMP EXPR STATUS SUMMARY MATCHES: `drasim cel EXPR --slices DUMP` exits STATUS,
# prints SUMMARY on stderr and exactly the devices MATCHES (sorted, space-separated) true.
check_cel() {
	"$drasim" cel "$2" --slices "$data/$1" >"$work/cel" 2>"$work/err"
	got=$?
	sed -n 's/: true$//p' "$work/cel" | sort | tr '\n' ' ' | sed 's/ $//' >"$work/match"
	[ "$got" -eq "$3" ] && grep -qF -- "$4" "$work/err" && [ "$(cat "$work/match")" = "$5" ]
	result $? "$1: cel '$2' matches $5 (exit $got)"
}

# H100: the 16 gpu.nvidia.com devices are all "NVIDIA H100 80GB HBM3"; the driver test
# keeps the 4 compute-domain devices (no productName) false rather than errors.
h100=""
for node in gpu-node-1 gpu-node-2; do
	for i in 0 1 2 3 4 5 6 7; do h100="$h100 gpu.nvidia.com/$node/gpu-$i"; done
done
check_cel nvidia-h100-2node-v1.yaml \
	'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA H100")' \
	0 "drasim cel: 16 of 20 devices match, 0 errors, in 4 ResourceSlices" "${h100# }"
# vGPU: GRID A100-4C is the vGPU of the three "4c" nodes, not of the "40c" node's
# GRID A100-40C; 12 devices, 3 match.
check_cel nvidia-a100-vgpu-4node-v1.yaml \
	'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].productName == "GRID A100-4C"' \
	0 "drasim cel: 3 of 12 devices match, 0 errors, in 8 ResourceSlices" \
	"gpu.nvidia.com/test-ai-0-node-pool-4c-zdfrn-rnkzj-gcxqf/gpu-0 gpu.nvidia.com/test-ai-0-node-pool-4c-zdfrn-rnkzj-lrj4k/gpu-0 gpu.nvidia.com/test-ai-0-node-pool-4c-zdfrn-rnkzj-w78x4/gpu-0"
# Without the driver test the compute-domain devices have no productName: errors, exit 1,
# as the allocator fails a claim on a CEL runtime error.
check_cel nvidia-a100-vgpu-4node-v1.yaml \
	'device.attributes["gpu.nvidia.com"].productName == "GRID A100-40C"' \
	1 "drasim cel: 1 of 12 devices match, 8 errors, in 8 ResourceSlices" \
	"gpu.nvidia.com/test-ai-0-node-pool-40c-kn48j-7n6h9-gvhpn/gpu-0"
# Gaudi2 v1: both are Gaudi2; only 0000-b0-00-0-0x1020 sits under PCIe root pci0000:02.
check_cel intel-gaudi2-v1.yaml \
	'device.attributes["gaudi.intel.com"].model == "Gaudi2" && device.attributes["resource.kubernetes.io"].pcieRoot == "pci0000:02"' \
	0 "drasim cel: 1 of 2 devices match, 0 errors, in 1 ResourceSlices" \
	"gaudi.intel.com/rpl-s/0000-b0-00-0-0x1020"
# Gaudi2 v1beta1: the attribute inside `basic:` is read as in v1; all three match.
check_cel intel-gaudi2-v1beta1.yaml 'device.attributes["gaudi.intel.com"].model == "Gaudi2"' \
	0 "drasim cel: 3 of 3 devices match, 0 errors, in 1 ResourceSlices" \
	"gaudi.intel.com/rpl-s/0000-a0-00-0-0x1020 gaudi.intel.com/rpl-s/0000-b0-00-0-0x1020 gaudi.intel.com/rpl-s/0000-c0-00-0-0x1020"
# VKS A100-10C: both nodes' gpu-0 are GRID A100-10C.
check_cel nvidia-a100-10c-vgpu-2node-v1.yaml \
	'device.attributes["gpu.nvidia.com"].productName == "GRID A100-10C"' \
	0 "drasim cel: 2 of 2 devices match, 0 errors, in 2 ResourceSlices" \
	"gpu.nvidia.com/conformance-test-np1-qcqc8-bpdtl-rcj8j/gpu-0 gpu.nvidia.com/conformance-test-np1-qcqc8-bpdtl-wv2gs/gpu-0"
# Example driver: the int attribute index is 0..7 in device order; >= 6 is gpu-6, gpu-7.
check_cel example-driver-8gpu-v1.yaml 'device.attributes["gpu.example.com"].index >= 6' \
	0 "drasim cel: 2 of 8 devices match, 0 errors, in 1 ResourceSlices" \
	"gpu.example.com/dra-example-driver-cluster-worker/gpu-6 gpu.example.com/dra-example-driver-cluster-worker/gpu-7"
# A dump of claims only: nothing to evaluate, the claim skipped and counted.
check_cel nvidia-claims-allocated-v1.yaml 'true' 0 \
	"0 of 0 devices match, 0 errors, in 0 ResourceSlices; 1 object that is not a ResourceSlice skipped (1 ResourceClaim)" ""

echo "1..$n"
exit $status
