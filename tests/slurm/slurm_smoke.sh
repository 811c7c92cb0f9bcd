#!/bin/sh
# tests/slurm/slurm_smoke.sh [SOURCE_ROOT]: tools/slurm-local against a real
# Slurm. Starts the one-node cluster (installing slurm-wlm and munge when
# missing), checks that a second start is a no-op, submits a job array of four
# tasks with `sbatch --wait` whose task i writes i to out.i, checks the four
# files, stops the cluster, and checks that no munged, slurmctld, slurmd,
# slurmscriptd or slurmstepd process is left and that a second stop is a no-op.
#
# Exit status: 0 passed; 1 failed; 77 skipped (printed why): not root, or not
# a Debian machine with dpkg and apt-get (with CI=true these fail instead).
# When a slurm-local cluster already runs, the job array runs on it and the
# cluster is left running (start/stop are then not what is tested; the test
# says so).
set -u

root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
tool=$root/tools/slurm-local
say() { echo "slurm_smoke: $*"; }
fail() {
	echo "slurm_smoke: FAIL: $*" >&2
	exit 1
}

# shellcheck source=tests/slurm/slurm-lib.sh
. "$root/tests/slurm/slurm-lib.sh"
slurm_prereqs

work=$(mktemp -d)
cleanup() {
	slurm_down >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

slurm_up
if [ -n "$started" ]; then
	out=$("$tool" start) || fail "second start exited with $?"
	echo "$out"
	case $out in
	*"already running"*) ;;
	*) fail "a second start did not say the cluster is already running" ;;
	esac
fi
"$tool" status || fail "status exited with $? on a started cluster"

# The job array. Its tasks run on this machine, in this folder (sbatch's
# working directory is the submitter's). --wait returns when every task has
# ended, with a non-zero status when any failed; timeout bounds a hang.
cd "$work" || fail "cannot enter $work"
t0=$(date +%s)
# shellcheck disable=SC2016 # $SLURM_ARRAY_TASK_ID is for the task's shell
timeout 180 sbatch --array=0-3 --wait --output=/dev/null \
	--wrap 'echo $SLURM_ARRAY_TASK_ID > out.$SLURM_ARRAY_TASK_ID' ||
	fail "sbatch --array=0-3 --wait exited with $?"
say "job array took $(($(date +%s) - t0))s"
for i in 0 1 2 3; do
	[ -f "out.$i" ] || fail "task $i wrote no out.$i"
	got=$(cat "out.$i")
	[ "$got" = "$i" ] || fail "out.$i holds '$got', expected '$i'"
	say "out.$i: $got"
done
count=$(find . -name 'out.*' | wc -l)
[ "$count" -eq 4 ] || fail "$count out.* files, expected 4"

if [ -z "$started" ]; then
	say "PASS (job array only; the cluster that was running is left running)"
	exit 0
fi

slurm_down
"$tool" stop || fail "second stop exited with $?"
if "$tool" status; then
	fail "status exited 0 after stop"
fi
say "PASS"
