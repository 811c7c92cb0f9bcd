#!/bin/sh
# scenario_list.sh SRCROOT NAME...: every scenarios/**/scenario.yaml in the
# tree is one of the NAMEs tests/scenario/meson.build runs (with its baseline),
# and every NAME exists. meson lists the scenarios by hand (no globbing at
# configure time), so a new scenario directory without a test fails here.
set -u
root=$1
shift
fail=0
n=0
listed=" $* "
for f in $(cd "$root/scenarios" && find . -name scenario.yaml | sort); do
	name=${f#./}
	name=${name%/scenario.yaml}
	n=$((n + 1))
	case "$listed" in
	*" $name "*) ;;
	*) echo "not ok: scenarios/$name/scenario.yaml is not in tests/scenario/meson.build's list"
	   fail=$((fail + 1)) ;;
	esac
done
for name in "$@"; do
	[ -f "$root/scenarios/$name/scenario.yaml" ] || {
		echo "not ok: $name is listed but scenarios/$name/scenario.yaml does not exist"
		fail=$((fail + 1))
	}
done
echo "$n scenarios found, $# listed, $fail problems"
[ "$fail" -eq 0 ]
