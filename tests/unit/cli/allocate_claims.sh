#!/bin/sh
# allocate_claims.sh DRASIM: `drasim allocate` places pods through the
# cluster's claim controller (sim/cluster/cluster_claims.c), so it names
# template claims and fills reservedFor as sim/cluster and production do.
set -u
drasim=$1
test_name=allocate_claims
. "$(dirname "$0")/../../scratch_fail.sh"

inventory() {
	cat <<'YAML'
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: device.driver == "gpu.example.com"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a-gpus}
spec:
  driver: gpu.example.com
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  nodeName: node-a
  devices:
  - name: gpu-0
YAML
}

pod() { # NAME CLAIM-REFERENCE
	printf -- '---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s, namespace: default}\n' "$1"
	printf 'spec:\n  containers:\n  - {name: c, image: x}\n  resourceClaims:\n  - %s\n' "$2"
}

# 1. A long pod name: handleClaim's generateName base "<pod>-<podClaim>-" is
# 63 characters, over 57, so both parts are cut in proportion: 60*57/63 = 54
# characters of the pod, 1*57/63 = 0 of "c", joined by one '-' (the trailing
# '-' is lost as upstream loses it), then the apiserver's 5 characters:
# 54 + 1 + 5 = 60 characters.
long=$(printf 'q%.0s' $(seq 60))
{
	inventory
	printf -- '---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\n'
	printf 'metadata: {name: one, namespace: default}\n'
	printf 'spec:\n  spec:\n    devices:\n      requests:\n'
	printf '      - {name: g, exactly: {deviceClassName: gpu}}\n'
	pod "$long" '{name: c, resourceClaimTemplateName: one}'
} >"$tmp/long.yaml"
"$drasim" allocate "$tmp/long.yaml" >"$tmp/out" 2>"$tmp/err" || fail "long: exit status $?"
name=$(sed -n 's/^  name: //p' "$tmp/out")
echo "$name" | grep -Eq "^q{54}-[bcdfghjklmnpqrstvwxz2456789]{5}$" ||
	fail "long: generated name '$name', expected 54 q, '-' and 5 characters"

# 2. reservedFor holds at most 256 consumers (ResourceClaimReservedForMaxSize):
# 257 pods share one claim; the first allocates it, pods 1..256 reserve it,
# the 257th is unschedulable because the claim is in use.
{
	inventory
	printf -- '---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n'
	printf 'metadata: {name: shared, namespace: default}\n'
	printf 'spec:\n  devices:\n    requests:\n    - {name: g, exactly: {deviceClassName: gpu}}\n'
	for i in $(seq 1 257); do
		pod "p$i" '{name: c, resourceClaimName: shared}'
	done
} >"$tmp/shared.yaml"
"$drasim" allocate "$tmp/shared.yaml" >"$tmp/out" 2>"$tmp/err" || fail "shared: exit status $?"
n=$(grep -c "^    name: p" "$tmp/out")
[ "$n" -eq 256 ] || fail "shared: $n pods in reservedFor, expected 256"
grep -q "name: p256$" "$tmp/out" || fail "shared: p256 not in reservedFor"
grep -q "name: p257$" "$tmp/out" && fail "shared: p257 in reservedFor"
grep -q "pod default/p257 is unschedulable: resourceclaim shared is in use" "$tmp/err" ||
	fail "shared: p257 not reported as unschedulable"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "shared: other pods reported"
# 3. Objects the API server would reject are no input: a Node without a name
# (tests/fuzz found it crashing the node index) stops the run with exit 1 and
# validation's error at the Node's metadata (line 3 of the file, column 11),
# before anything is allocated.
{
	printf 'apiVersion: v1\nkind: Node\nmetadata: {labels: {a: b}}\n---\n'
	inventory
	pod p1 '{name: c, resourceClaimName: nameless}'
} >"$tmp/nameless.yaml"
"$drasim" allocate "$tmp/nameless.yaml" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 1 ] || fail "nameless: exit status $status, expected 1"
grep -q "nameless.yaml:3:11: error: Required value: name or generateName is required \[metadata.name\]" \
	"$tmp/err" || fail "nameless: no error for the Node's missing name"
[ -s "$tmp/out" ] && fail "nameless: something was printed as allocated"
# 4. A claim whose status.allocation result names no device (no driver, no
# pool: the API server would have rejected it) is not silently dropped: a
# warning at the result (line 12 of the file, column 7: the "- request" item)
# says it is skipped; the pod that uses the claim then allocates gpu-0 itself
# (nothing else holds it) and the run succeeds.
{
	inventory
	printf -- '---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n'
	printf 'metadata: {name: odd, namespace: default}\n'
	printf 'spec:\n  devices:\n    requests:\n    - {name: g, exactly: {deviceClassName: gpu}}\n'
	printf 'status:\n  allocation:\n    devices:\n      results:\n      - {request: g, device: gpu-0}\n'
} >"$tmp/odd.yaml"
line=$(grep -n -- '- {request: g, device: gpu-0}' "$tmp/odd.yaml" | cut -d: -f1)
"$drasim" allocate "$tmp/odd.yaml" >"$tmp/out" 2>"$tmp/err" || fail "odd: exit status $?"
grep -q "odd.yaml:$line:9: warning: claim default/odd: the result names no device (driver, pool and device are required); it is skipped \[status.allocation.devices.results\[0\]\]" \
	"$tmp/err" || fail "odd: no warning for the nameless result: $(cat "$tmp/err")"
echo "allocate_claims: ok"
