# shellcheck shell=sh
# shellcheck disable=SC2154 # $tool, say and fail come from the sourcing script
# tests/slurm/slurm-lib.sh: what the Slurm tests share, sourced by
# slurm_smoke.sh and sweep_slurm.sh after they set $tool (tools/slurm-local)
# and define say() and fail() (which exits 1).
#
# slurm_prereqs: exit 77 (skipped, with the reason) when this machine cannot
#   run the cluster: not root, or not Debian. With CI=true the same reasons
#   fail (exit 1): CI is where the real Slurm path must run. Then it waits
#   for the machine's Slurm test lock: the tests share one cluster on fixed
#   ports, so one stopping it must not pull it from under another.
# slurm_up: starts the cluster unless one runs (then it is used and left
#   running); sets $started when this test started it.
# slurm_down: stops the cluster this test started and checks that no Slurm
#   or munge process is left. Call it from the EXIT trap too (it is a no-op
#   once done).
# slurm_pids: pid:name of every Slurm or munge process on the machine.

# Client commands (sbatch, sinfo ...) read the cluster's config from here.
export SLURM_CONF="${DRASIM_SLURM_DIR:-/var/tmp/drasim-slurm}/slurm.conf"
started=""

slurm_cannot() {
	if [ "${CI:-}" = true ]; then
		fail "$1, and CI=true: the real Slurm test must run in CI"
	fi
	say "SKIP: $1"
	exit 77
}

slurm_prereqs() {
	if [ "$(id -u)" -ne 0 ]; then
		slurm_cannot "needs root (slurm-local installs packages and runs the daemons as root)"
	fi
	if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
		slurm_cannot "not a Debian machine (no dpkg-query/apt-get to install slurm-wlm and munge)"
	fi
	lock=/var/tmp/drasim-slurm-test.lock
	exec 9>"$lock"
	flock -w 600 9 || fail "another Slurm test has held $lock for 10 minutes"
}

slurm_pids() {
	for f in /proc/[0-9]*/comm; do
		read -r name 2>/dev/null <"$f" || continue
		case $name in
		munged | slurmctld | slurmd | slurmscriptd | slurmstepd)
			pid=${f#/proc/}
			echo "${pid%/comm}:$name"
			;;
		esac
	done
}

slurm_up() {
	if "$tool" status >/dev/null 2>&1; then
		say "a slurm-local cluster already runs: using it, leaving it running"
		return 0
	fi
	t0=$(date +%s)
	started=1
	# The daemons must not inherit the lock's descriptor (they would hold
	# the lock after the test ends).
	"$tool" start 9>&- || fail "tools/slurm-local start exited with $?"
	say "start took $(($(date +%s) - t0))s"
}

slurm_down() {
	[ -n "$started" ] || return 0
	started=""
	t0=$(date +%s)
	"$tool" stop 9>&- || fail "tools/slurm-local stop exited with $?"
	say "stop took $(($(date +%s) - t0))s"
	left=$(slurm_pids)
	[ -z "$left" ] || fail "processes left after stop: $left"
	say "no munged, slurmctld, slurmd, slurmscriptd or slurmstepd process is left"
}
