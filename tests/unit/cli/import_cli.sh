#!/bin/sh
# import_cli.sh DRASIM ROOT WORKDIR: `drasim import` of kubectl dumps (issue 16,
# docs/import.md). Inputs are in tests/unit/cli/data/import; every expected figure
# is worked out from them in the comments. TAP output.
set -u
drasim=$1 root=$2 work=$3
data=$root/tests/unit/cli/data/import
subcommand=import
rm -rf "$work" && mkdir -p "$work"
n=0 status=0
. "$(dirname "$0")/tap-lib.sh"

echo "1..24"

# 1. mixed.yaml: a Node, two slices (v1; v1beta1), a DeviceClass, a claim, two Pods,
# a Secret, a ConfigMap, an Event. Files: nodes, slices, classes, the claim, the pods
# (no templates' or controllers' files: none in the dump), scenario, README, marker.
out=$work/mixed
"$drasim" import "$data/mixed.yaml" -o "$out" >"$work/out" 2>"$work/err"
got=$?
files=$(cd "$out" 2>/dev/null && find . -type f | sort | tr '\n' ' ')
[ "$got" -eq 0 ] && [ "$files" = "./.drasim-import ./README.md ./cluster/deviceclasses.yaml \
./cluster/nodes.yaml ./cluster/resourceslices.yaml ./scenario.yaml ./workload/claims.yaml \
./workload/pods.yaml " ]
result $? "mixed dump: exit 0 and exactly the expected files (got: $files)"

# 2. Counts per kind in the README: 1 Node, 2 ResourceSlices (one per version), 1
# DeviceClass, 1 ResourceClaim, 2 Pods; train-0 has nodeName (bound), web-1 not
# (pending); the claim has status.allocation and one reservedFor entry.
grep -q '^| Node | 1 | cluster/nodes.yaml |$' "$out/README.md" &&
	grep -q '^| ResourceSlice | 2 | cluster/resourceslices.yaml |$' "$out/README.md" &&
	grep -q '^| DeviceClass | 1 | cluster/deviceclasses.yaml |$' "$out/README.md" &&
	grep -q '^| ResourceClaim | 1 | workload/claims.yaml |$' "$out/README.md" &&
	grep -q '^| Pod | 2 | workload/pods.yaml |$' "$out/README.md" &&
	grep -q '^Pods: 1 bound to a node .*, 1 pending' "$out/README.md" &&
	grep -q '^ResourceClaims: 1 allocated .*, 1 reserved' "$out/README.md"
result $? "mixed dump: README counts per kind, pods bound/pending, claims allocated"

# 3. Skipped kinds, once each, in the README and in one warning (not one per object).
grep -q 'skipped unread: ConfigMap 1, Event 1, Secret 1\.' "$out/README.md" &&
	grep -q '^drasim import: warning: .*skipped unread: ConfigMap 1, Event 1, Secret 1$' \
	        "$work/err" && [ "$(grep -c 'not modelled' "$work/err")" -eq 0 ]
result $? "mixed dump: skipped {ConfigMap: 1, Event: 1, Secret: 1} in README and one warning"

# 4. The Secret's and ConfigMap's values (plain and base64) are nowhere in the output.
! grep -rq -e SECRET-MARKER -e CONFIGMAP-MARKER -e U0VDUkVULU1BUktFUi0xMjM0 "$out" "$work/out" \
	"$work/err"
result $? "mixed dump: no Secret or ConfigMap data in the output, stdout or stderr"

# 5. Nodes: gpu-node-a is a Node (1 device); gpu-node-b only a slice's nodeName
# (1 device, inferred, unlimited without --node-defaults); pools keep generation
# 3 and 1 and resourceSliceCount 1.
grep -q '^| gpu-node-a | Node | 1 | gpu.nvidia.com |$' "$out/README.md" &&
	grep -q '^| gpu-node-b | inferred | 1 | gpu.nvidia.com |$' "$out/README.md" &&
	grep -q '^| gpu.nvidia.com | gpu-node-a | gpu-node-a | 3 | 1 | 1 | 1 |$' "$out/README.md" &&
	grep -q '^| gpu.nvidia.com | gpu-node-b | gpu-node-b | 1 | 1 | 1 | 1 |$' "$out/README.md" &&
	grep -q 'inferred with unlimited CPU, memory and pods' "$out/README.md"
result $? "mixed dump: nodes (one inferred) and pools with generation and resourceSliceCount"

# 6. scenario.yaml: a DRA snapshot with NVIDIA devices gets as-is (dra) and
# device-plugin (extended); claims are manifests, pods imported.
cat >"$work/want.yaml" <<'YAML'
# Written by `drasim import`; README.md says what was imported and what was left out.
apiVersion: drasim.io/v1alpha1
kind: Scenario
metadata:
  name: mixed
spec:
  horizon: 1d
  cluster:
    objects:
    - cluster/nodes.yaml
    - cluster/resourceslices.yaml
    - cluster/deviceclasses.yaml
  workload:
    manifests:
    - workload/claims.yaml
    imported:
      manifests: [workload/pods.yaml]
    entries: []
  modes:
  - {name: as-is, world: dra}
  - {name: device-plugin, world: extended}
YAML
cmp -s "$work/want.yaml" "$out/scenario.yaml"
result $? "mixed dump: scenario.yaml as docs/import.md section 1 says"

# 7. Round trip: the slices drasim convert reads from the output equal those it reads
# from the input (names, attributes, capacities per node; v1beta1's basic: unwrapped).
slices() { # FILE: the ResourceSlice documents of `drasim convert --to v1 FILE`
	"$drasim" convert --to v1 "$1" 2>/dev/null |
		awk 'function flush() { if (doc ~ /\nkind: ResourceSlice\n/) printf "%s", doc }
		     /^---$/ { flush(); doc = "---\n"; next } { doc = doc $0 "\n" } END { flush() }'
}
slices "$data/mixed.yaml" >"$work/in-slices" && slices "$out/cluster/resourceslices.yaml" \
	>"$work/out-slices" && [ -s "$work/in-slices" ] && cmp -s "$work/in-slices" "$work/out-slices"
result $? "round trip: convert of the output's slices equals convert of the input's"

# 8. Determinism: a second import is byte-identical.
"$drasim" import "$data/mixed.yaml" -o "$work/mixed2" --name mixed >/dev/null 2>&1 &&
	diff -r "$out" "$work/mixed2" >/dev/null
result $? "the same dump imports to byte-identical files"

# 9. Slices only: node-x (3 devices in 2 slices of one pool) and node-y (1 NIC) are
# inferred with the --node-defaults; the allNodes pool makes no node. 2 nodes.
out=$work/slices
"$drasim" import "$data/slices-only.yaml" -o "$out" --node-defaults cpu=64,memory=512Gi,pods=110 \
	>/dev/null 2>"$work/err" &&
	grep -q '^## Nodes (2)$' "$out/README.md" &&
	grep -q '^| node-x | inferred | 3 | gpu.example.com |$' "$out/README.md" &&
	grep -q '^| node-y | inferred | 1 | nic.example.com |$' "$out/README.md" &&
	grep -q '^| fabric.example.com | fabric | (none) | 5 | 1 | 1 | 1 |$' "$out/README.md" &&
	grep -q '^    nodeDefaults: {cpu: "64", memory: "512Gi", pods: 110}$' "$out/scenario.yaml" &&
	grep -q 'nodeName (2) are inferred with nodeDefaults' "$out/README.md"
result $? "slices-only dump: 2 inferred nodes with the defaults, node-independent pool kept"

# 10. Slices-only round trip (3 pools, generation and count given).
slices "$data/slices-only.yaml" >"$work/in-slices" &&
	slices "$out/cluster/resourceslices.yaml" >"$work/out-slices" &&
	cmp -s "$work/in-slices" "$work/out-slices"
result $? "slices-only round trip through convert"

# 11. v1alpha3 with a trimmed generation: imported (no error), a note on the version,
# generation 0 (the API's zero value) with a note.
out=$work/alpha
"$drasim" import "$data/v1alpha3.yaml" -o "$out" >/dev/null 2>"$work/err" &&
	grep -q '^- 1 ResourceSlice in resource.k8s.io/v1alpha3, written as resource.k8s.io/v1.*no longer\|^- 1 ResourceSlice in resource.k8s.io/v1alpha3, written as resource.k8s.io/v1.*serves only DeviceTaintRule' "$out/README.md" &&
	grep -q '^- pool gpu.example.com/old-node: no generation in the dump, 0 used' "$out/README.md" &&
	grep -q '^    generation: 0$' "$out/cluster/resourceslices.yaml"
result $? "v1alpha3 slice imports with a note; trimmed generation 0 with a note"

# 12. Its devices survive: convert of input and output agree but for the filled-in
# generation line.
slices "$data/v1alpha3.yaml" >"$work/in-slices" &&
	slices "$out/cluster/resourceslices.yaml" | grep -v '^    generation: 0$' >"$work/out-slices" &&
	cmp -s "$work/in-slices" "$work/out-slices"
result $? "v1alpha3 round trip: same devices, attributes and capacities"

# 13-14. Errors without --keep-going: exit 1, file:line:col and field path, nothing written.
expect_error 1 'bad.yaml:21:11: error: .*\[spec.devices\[0\].name\]' \
	"bad objects: exit 1 with file:line:col and field path" -- "$data/bad.yaml" -o "$work/bad"
[ ! -e "$work/bad" ] && [ -z "$(ls -A "$work" | grep '^\.bad\.')" ]
result $? "bad objects: nothing written, no temporary folder left"

# 15. --keep-going: the two bad objects (slice 'bad', pod 'p') are left out and
# listed (3 errors), the good slice is imported.
out=$work/keep
"$drasim" import "$data/bad.yaml" -o "$out" --keep-going >/dev/null 2>"$work/err" &&
	grep -q '^- 3 errors (--keep-going); the 2 objects they are in are left out' "$out/README.md" &&
	[ "$(grep -c 'bad.yaml:[0-9]*:[0-9]*: error' "$out/README.md")" -eq 3 ] &&
	grep -q '^  name: good$' "$out/cluster/resourceslices.yaml" &&
	! grep -q 'name: bad' "$out/cluster/resourceslices.yaml" && [ ! -e "$out/workload/pods.yaml" ]
result $? "--keep-going: bad objects left out and listed, the good slice imported"

# 16-19. -o: an existing directory without --force is an error (exit 1) and stays as
# it was; --force replaces an earlier import; a stranger file blocks even --force.
expect_error 1 'already exists; .*unless --force' "-o existing without --force: exit 1" -- \
	"$data/slices-only.yaml" -o "$out"
"$drasim" import "$data/slices-only.yaml" -o "$out" --force >/dev/null 2>"$work/err" &&
	grep -q 'node-x' "$out/README.md" && [ ! -e "$out/workload" ] &&
	[ -z "$(ls -A "$work" | grep '^\.keep\.')" ]
result $? "--force replaces an earlier import as a whole (old files gone, no folders left)"
touch "$out/mine.txt"
expect_error 1 'holds files drasim import did not write' "--force refuses a foreign file" -- \
	"$data/mixed.yaml" -o "$out" --force
[ -e "$out/mine.txt" ] && grep -q 'node-x' "$out/README.md"
result $? "a refused --force leaves the directory as it was"

# 20. Usage: a bad --node-defaults is exit 2.
expect_error 2 'expected KEY=QUANTITY' "--node-defaults gpu=1: exit 2" -- \
	"$data/mixed.yaml" -o "$work/x" --node-defaults gpu=1

# 21. Errors in documents that never became objects (no kind; a misspelt kind) are
# listed, but charged to no object: the Node before them is kept (2 errors, 0 objects).
out=$work/docs
"$drasim" import "$data/bad-docs.yaml" -o "$out" --keep-going >/dev/null 2>"$work/err" &&
	grep -q '^- 2 errors (--keep-going); the 0 objects they are in' "$out/README.md" &&
	grep -q '^  name: kept-node$' "$out/cluster/nodes.yaml"
result $? "--keep-going: a document without kind does not take the object before it along"

# 22. `kubectl -o json` of the same objects (mixed.json: mixed.yaml through a YAML to
# JSON converter) imports to the same object files.
"$drasim" import "$data/mixed.json" -o "$work/json" >/dev/null 2>"$work/err" &&
	diff -r "$work/mixed/cluster" "$work/json/cluster" >/dev/null &&
	diff -r "$work/mixed/workload" "$work/json/workload" >/dev/null &&
	! grep -rq -e SECRET-MARKER -e CONFIGMAP-MARKER "$work/json"
result $? "a JSON dump imports to the same files as its YAML"

# 23. An input that is not there stops the import even with --keep-going (it leaves
# out objects, never whole inputs): exit 1, the path named, nothing written.
expect_error 1 'missing.yaml:1:1: error: cannot read: No such file or directory' \
	"a missing input: exit 1 with --keep-going too" -- "$work/missing.yaml" \
	"$data/slices-only.yaml" -o "$work/missing-out" --keep-going
[ ! -e "$work/missing-out" ]
result $? "a missing input: nothing written"

exit $status
