#!/bin/sh
# write_errors.sh DRASIM ROOT WORKDIR SHARED: every subcommand whose standard output
# cannot be written (/dev/full: ENOSPC on every write) must say so and exit 1,
# not 0 with the output lost (issue 12, item 6). Each line below is a command
# that prints something on stdout when it succeeds; --help covers the
# commands whose normal output goes elsewhere (lint: stderr; bench: a file or
# a long run) and GOption's help, which leaves through exit(). The last case
# is a long output cut off mid-way: a reader that stops after 10 bytes, with
# SIGPIPE ignored, so the writes after that fail with EPIPE. TAP output.
set -u
drasim=$1 root=$2 work=$3 shared=$4
rm -rf "$work" && mkdir -p "$work"
scenario=$root/scenarios/seed-tutorial/scenario.yaml
golden=$root/tests/unit/reports/golden/fake-small.json
n=0 status=0

# verdict DESCRIPTION WANT_MESSAGE GOT: the next TAP line; GOT (an exit status) must be 1
# and $work/err must hold "drasim: error writing standard output: WANT_MESSAGE".
verdict() {
	what=$1 want=$2 got=$3
	n=$((n + 1))
	if [ "$got" -eq 1 ] && grep -q "^drasim: error writing standard output: $want\$" "$work/err"; then
		echo "ok $n - $what: exit 1, \"error writing standard output: $want\""
	else
		echo "not ok $n - $what: exit $got (expected 1 and the message)"
		sed 's/^/# /' "$work/err"
		status=1
	fi
}

# check DESCRIPTION WANT_MESSAGE ARGS...: drasim ARGS >/dev/full must exit 1 with the message.
check() {
	what=$1 want=$2
	shift 2
	"$drasim" "$@" >/dev/full 2>"$work/err"
	verdict "$what" "$want" $?
}

full="No space left on device"
echo "1..17"
check "version" "$full" version
check "help" "$full" help
check "run --format json" "$full" run "$scenario" --format json
check "run (text)" "$full" run "$scenario"
check "compare" "$full" compare "$scenario"
check "explain" "$full" explain "$scenario" --pod ml-training
check "publish" "$full" publish --shape dgx-h100
check "publish --list-shapes" "$full" publish --list-shapes
check "convert" "$full" convert --to v1 "$root/scenarios/seed-tutorial"
check "allocate" "$full" allocate "$root/tests/unit/dra/data/allocate-two-nodes.yaml"
check "cel" "$full" cel 'device.driver == "gpu.nvidia.com"'
check "diff" "$full" diff --all "$golden" "$golden"
check "lint --help" "$full" lint --help
check "bench --help" "$full" bench --help
check "run --help" "$full" run --help
check "plan" "$full" plan "$root/scenarios/plan-one-gpu/scenario.yaml" --pool dgx \
	--slo 'pods_pending == 0' -o "$work/plan"

# A 2 MB output cut off after 10 bytes: the error in the middle is remembered to the end.
(
	trap '' PIPE
	"$drasim" publish --shape dgx-h100 --count 200 2>"$work/err"
	echo $? >"$work/rc"
) | head -c 10 >/dev/null
verdict "a long output cut off mid-way (EPIPE)" "Broken pipe" "$(cat "$work/rc")"
exit $status
