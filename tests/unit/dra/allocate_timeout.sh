#!/bin/sh
# allocate_timeout.sh DRASIM DATA_DIR CASE: `drasim allocate` under the
# DynamicResources filter timeout (docs/allocator.md, "Filter timeout").
# The inputs in tests/data/alloc-budget/ run against the DGX H100 that
# `drasim publish` prints. Each case states what it expects; expectations are
# production's text and the budget of 1 allocateOne step per microsecond
# (a budget of N steps stops at the N+1st, which upstream counts too).
set -u
drasim=$1
data=$2
case_name=$3
test_name="allocate_timeout $case_name"
. "$(dirname "$0")/../../scratch_fail.sh"
expect() { grep -q -- "$1" "$tmp/err" || fail "expected '$1' on stderr"; }

case $case_name in
mig)
	# 5 slices + a whole GPU on an all-1g.10gb DGX: minutes unbounded; the
	# default 10s = 10,000,000 steps answers with production's message.
	"$drasim" publish --shape dgx-h100 --mig all-1g.10gb >"$tmp/node.yaml" || fail publish
	"$drasim" allocate --stats "$tmp/node.yaml" "$data/mig-slices-and-gpu.yaml" \
		>/dev/null 2>"$tmp/err" || fail "exit status $?"
	expect "pod default/mixed is unschedulable on node dgx-h100-0: timed out trying to allocate devices"
	expect "1 Allocate calls, 10000001 search steps"
	;;
first-available)
	# 11,743,411 steps unbounded, over the default budget: a timeout.
	"$drasim" publish --shape dgx-h100 >"$tmp/node.yaml" || fail publish
	"$drasim" allocate --stats "$tmp/node.yaml" "$data/first-available.yaml" \
		>/dev/null 2>"$tmp/err" || fail "exit status $?"
	expect "pod default/pairs is unschedulable on node dgx-h100-0: timed out trying to allocate devices"
	expect "10000001 search steps"
	# --filter-timeout 1ms: 1,000 steps
	"$drasim" allocate --stats --filter-timeout 1ms "$tmp/node.yaml" \
		"$data/first-available.yaml" >/dev/null 2>"$tmp/err" || fail "exit status $?"
	expect "timed out trying to allocate devices"
	expect "1 Allocate calls, 1001 search steps"
	# the gate off: no timeout, the whole search and the allocator's own reason
	"$drasim" allocate --stats --feature DRASchedulerFilterTimeout=false "$tmp/node.yaml" \
		"$data/first-available.yaml" >/dev/null 2>"$tmp/err" || fail "exit status $?"
	expect "11743411 search steps"
	grep -q "timed out" "$tmp/err" && fail "timed out with the gate off"
	# filterTimeout: 0s disables it too (upstream "Setting it to zero completely
	# disables the timeout")
	"$drasim" allocate --stats --filter-timeout 0 "$tmp/node.yaml" \
		"$data/first-available.yaml" >/dev/null 2>"$tmp/err" || fail "exit status $?"
	expect "11743411 search steps"
	;;
flag)
	# bad values are usage errors (exit 2) that say what is valid
	for bad in -1s 10x 1.5 ""; do
		"$drasim" allocate --filter-timeout "$bad" "$data/first-available.yaml" \
			>/dev/null 2>"$tmp/err"
		[ $? -eq 2 ] || fail "--filter-timeout '$bad': exit status not 2"
		expect "drasim allocate: --filter-timeout"
	done
	"$drasim" allocate --filter-timeout -1s "$data/first-available.yaml" 2>"$tmp/err"
	expect "must be zero or positive"
	"$drasim" allocate --filter-timeout 10x "$data/first-available.yaml" 2>"$tmp/err"
	expect "expected a duration like 10s, 250ms or 0 (no timeout)"
	# upstream's ValidateDynamicResourcesArgs: setting it with the gate off
	"$drasim" allocate --filter-timeout 5s --feature DRASchedulerFilterTimeout=false \
		"$data/first-available.yaml" >/dev/null 2>"$tmp/err"
	[ $? -eq 2 ] || fail "filterTimeout with the gate off: exit status not 2"
	expect "Forbidden: the DRASchedulerFilterTimeout feature gate is disabled"
	;;
*)
	fail "unknown case"
	;;
esac
exit 0
