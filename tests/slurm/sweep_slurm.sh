#!/bin/sh
# tests/slurm/sweep_slurm.sh DRASIM [SOURCE_ROOT]: `drasim sweep --slurm
# --submit` against a real Slurm (issue 14, "the Slurm path, run for real in
# CI, with equal results"). Starts the one-node cluster of tools/slurm-local
# (installing slurm-wlm and munge when missing), runs a small sweep (2 node
# counts x 2 seeds of scenarios/dgx-h100-capacity over 12 h) once locally
# with --jobs 2 and once as a Slurm job array of 2 tasks through sbatch, and
# checks that sweep.json and sweep.csv are the same bytes; then it removes one
# run's report and submits the sweep again, which must run that run alone
# and merge to the same bytes. The Slurm output
# folder's name holds a space, a quote and a %, which sweep.sbatch must carry
# through sbatch's #SBATCH parser, its file name patterns and sh. Then it
# stops the cluster (also on failure, from the EXIT trap) and checks that no
# Slurm or munge process is left.
#
# Exit status: 0 passed; 1 failed; 77 skipped (printed why): not root, or not
# a Debian machine (with CI=true these fail instead: CI must run it). When a
# slurm-local cluster already runs, the sweep runs on it and it is left
# running.
set -u

drasim=${1:?usage: sweep_slurm.sh DRASIM [SOURCE_ROOT]}
root=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
tool=$root/tools/slurm-local
say() { echo "sweep_slurm: $*"; }
fail() {
	echo "sweep_slurm: FAIL: $*" >&2
	exit 1
}

# shellcheck source=tests/slurm/slurm-lib.sh
. "$root/tests/slurm/slurm-lib.sh"
slurm_prereqs
case $drasim in
/*) ;;
*) drasim=$(pwd)/$drasim ;;
esac
[ -x "$drasim" ] || fail "$drasim is not an executable drasim"

work=$(mktemp -d)
cleanup() {
	slurm_down || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

scenario=$root/scenarios/dgx-h100-capacity/scenario.yaml
local_dir=$work/local
slurm_dir="$work/slurm it's 100%"
# The sweep both runs share: 2 values x 2 seeds = 4 runs.
set -- "$scenario" --vary 'spec.cluster.nodePools[0].count=3,4' --seeds 1-2 --horizon 12h

t0=$(date +%s)
"$drasim" sweep "$@" --jobs 2 -o "$local_dir" >"$work/local.log" 2>&1 ||
	{
		status=$?
		cat "$work/local.log" >&2
		fail "the local sweep (--jobs 2) exited with $status"
	}
say "local sweep (--jobs 2) took $(($(date +%s) - t0))s"

slurm_up
t0=$(date +%s)
# --submit waits for the array (sbatch --wait) and merges; timeout bounds a
# hang of the cluster.
timeout 150 "$drasim" sweep "$@" --slurm --submit --tasks 2 -o "$slurm_dir" \
	>"$work/slurm.log" 2>&1 ||
	{
		status=$?
		cat "$work/slurm.log" >&2
		for f in "$slurm_dir"/slurm/*.out; do
			[ -f "$f" ] && { echo "== $f" && cat "$f"; } >&2
		done
		fail "the Slurm sweep (--slurm --submit --tasks 2) exited with $status"
	}
say "Slurm sweep (--slurm --submit --tasks 2) took $(($(date +%s) - t0))s"
sed 's/^/  /' "$work/slurm.log"

grep -q 'submitted .* as Slurm job [0-9]' "$work/slurm.log" ||
	fail "the Slurm sweep did not say which job it submitted"
# One output file per array task: JOBID_0.out and JOBID_1.out.
logs=$(find "$slurm_dir/slurm" -name '*_[01].out' | wc -l)
[ "$logs" -eq 2 ] || fail "$logs task logs in $slurm_dir/slurm, expected 2 (one per task)"
for f in sweep.json sweep.csv; do
	[ -s "$local_dir/$f" ] || fail "the local sweep wrote no $f"
	cmp "$local_dir/$f" "$slurm_dir/$f" || fail "$f differs between --jobs 2 and --slurm"
	say "$f: the same $(wc -c <"$local_dir/$f") bytes from --jobs 2 and from Slurm"
done

# Resume through Slurm: with one report removed, the same sweep submitted
# again runs that run alone (the other three are "already there" in the
# tasks' logs) and merges to the same bytes.
rm -f "$slurm_dir"/slurm/*.out "$slurm_dir/cells/c0001-seed2/report.json"
timeout 150 "$drasim" sweep "$@" --slurm --submit --tasks 2 -o "$slurm_dir" \
	>"$work/resume.log" 2>&1 ||
	{
		status=$?
		cat "$work/resume.log" >&2
		fail "the resumed Slurm sweep exited with $status"
	}
done_runs=$(cat "$slurm_dir"/slurm/*.out | sed -n 's/^task [0-9]* of 2: \([0-9]*\) runs done.*/\1/p' |
	awk '{ n += $1 } END { print n + 0 }')
there=$(cat "$slurm_dir"/slurm/*.out | sed -n 's/.* failed, \([0-9]*\) already there$/\1/p' |
	awk '{ n += $1 } END { print n + 0 }')
if [ "$done_runs" -ne 1 ] || [ "$there" -ne 3 ]; then
	fail "the resumed array ran $done_runs runs and found $there there, expected 1 and 3"
fi
for f in sweep.json sweep.csv; do
	cmp "$local_dir/$f" "$slurm_dir/$f" || fail "$f differs after the resumed Slurm sweep"
done
say "resumed through Slurm: 1 run run again, 3 already there; sweep.json and sweep.csv unchanged"

slurm_down
say "PASS"
