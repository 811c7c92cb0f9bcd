#!/bin/sh
# sweep_cli.sh DRASIM ROOT WORKDIR: `drasim sweep` as a user runs it
# (issue 14): the errors made before anything runs (an unknown path, a value
# of the wrong type, an empty seed range, another sweep's folder), equal
# results whatever --jobs is, and resuming: a sweep whose folder lost runs
# (a run killed before its report was renamed into place leaves at most a
# temporary file) runs exactly those again and gives the same bytes as a
# sweep that was never interrupted; so does a sweep killed with SIGKILL. TAP.
set -u
drasim=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
tiny=$root/tests/unit/sweep/data/tiny.yaml
pool='spec.cluster.nodePools[name=gpu].count'
n=0 status=0

subcommand=sweep
# shellcheck source=tests/unit/cli/tap-lib.sh
. "$root/tests/unit/cli/tap-lib.sh"

echo "1..13"

expect_error 1 "^--vary 1: error: spec.cluster.nodePools\[name=dgx\]: no item named dgx; the items are named gpu" \
	"an unknown pool in a path names the pool the scenario has" -- \
	"$tiny" --vary 'spec.cluster.nodePools[name=dgx].count=1,2' --seeds 1-2 -o "$work/x1"
expect_error 1 "spec.cluster.nodePools\[name=gpu\].cont" \
	"an unknown key at the end of a path is the decoder's unknown-field error" -- \
	"$tiny" --vary 'spec.cluster.nodePools[name=gpu].cont=1' --seeds 1-2 -o "$work/x2"
expect_error 1 "tiny.yaml:[0-9]*:[0-9]*: expected an integer" \
	"a value of the wrong type quotes the scenario's error at its file:line:col" -- \
	"$tiny" --vary "$pool=1,two" --seeds 1-2 -o "$work/x3"
expect_error 2 "the range 5-1 is empty" "the seed range 5-1 is a usage error" -- \
	"$tiny" --vary "$pool=1,2" --seeds 5-1 -o "$work/x4"
expect_error 2 "newline or backslash cannot be written in an #SBATCH line" \
	"a --partition Slurm cannot carry is a usage error before anything is written" -- \
	"$tiny" --vary "$pool=1,2" --seeds 1-2 --slurm --partition "$(printf 'a\nb')" -o "$work/x5"
expect_error 2 "are options of --slurm" "--submit without --slurm is a usage error" -- \
	"$tiny" --vary "$pool=1,2" --seeds 1-2 --submit -o "$work/x6"
[ ! -e "$work/x1" ] && [ ! -e "$work/x3" ] && [ ! -e "$work/x4" ] && [ ! -e "$work/x5" ]
result $? "nothing was written by a sweep refused before it ran"

# Equal bytes whatever --jobs is.
set -- "$tiny" --vary "$pool=1,2,3" --seeds 1-4
"$drasim" sweep "$@" --jobs 1 -o "$work/j1" >/dev/null 2>"$work/err" &&
	"$drasim" sweep "$@" --jobs 2 -o "$work/j2" >/dev/null 2>"$work/err" &&
	cmp "$work/j1/sweep.json" "$work/j2/sweep.json" && cmp "$work/j1/sweep.csv" "$work/j2/sweep.csv"
result $? "--jobs 1 and --jobs 2 give byte-identical sweep.json and sweep.csv"
# stderr is a file here: a progress line at each tenth of the 12 runs (after runs 2, 3, 4, 5,
# 6, 8, 9, 10, 11 and 12: the tenth, floor(10 k / 12), grows at those k), the last one final.
[ "$(grep -c ' runs done, ' "$work/err")" -eq 10 ] &&
	grep -q '^sweep: 12/12 runs done, 0 running, 0 failed, ETA -$' "$work/err"
result $? "a sweep logging to a file prints 10 progress lines, one per tenth of the runs"

# Another sweep into the same folder is refused; the folder is left as it was.
cp "$work/j1/sweep.csv" "$work/before.csv"
expect_error 1 "holds another sweep" "a different sweep into a sweep's folder is refused" -- \
	"$tiny" --vary "$pool=1,2" --seeds 1-4 -o "$work/j1"

# Runs lost, a temporary file left mid-rename: exactly those run again, same bytes.
cp -r "$work/j1" "$work/lost"
rm "$work/lost/cells/c0001-seed3/report.json" "$work/lost/cells/c0002-seed1/report.json"
echo '{"half": ' >"$work/lost/cells/c0001-seed3/report.json.tmp-ABCDEF"
"$drasim" sweep "$@" --jobs 2 -o "$work/lost" >/dev/null 2>"$work/err" &&
	grep -q "2 runs now (0 failed), 10 already done" "$work/err" &&
	cmp "$work/j1/sweep.csv" "$work/lost/sweep.csv" && cmp "$work/j1/sweep.json" "$work/lost/sweep.json"
result $? "a resumed sweep runs only the 2 missing runs and gives the same bytes"

# SIGKILL mid-sweep (the parent and its children), then the same command again.
set -- "$root/scenarios/dgx-capacity-sweep/sweep.yaml" --seeds 1-40
"$drasim" sweep "$@" --jobs 1 -o "$work/whole" >/dev/null 2>"$work/err"
setsid "$drasim" sweep "$@" --jobs 1 -o "$work/killed" >/dev/null 2>&1 &
pid=$!
i=0
while [ "$(find "$work/killed/cells" -name report.json 2>/dev/null | wc -l)" -lt 3 ] && [ $i -lt 600 ]; do
	sleep 0.02
	i=$((i + 1))
done
/bin/kill -KILL -- "-$pid" || echo "# could not kill the sweep's process group $pid"
wait $pid 2>/dev/null
done_before=$(find "$work/killed/cells" -name report.json | wc -l)
"$drasim" sweep "$@" --jobs 2 -o "$work/killed" >/dev/null 2>"$work/err" &&
	cmp "$work/whole/sweep.csv" "$work/killed/sweep.csv" &&
	cmp "$work/whole/sweep.json" "$work/killed/sweep.json"
got=$?
if [ "$done_before" -ge 160 ]; then
	n=$((n + 1))
	echo "ok $n # SKIP the sweep finished all 160 runs before SIGKILL reached it"
else
	result $got "killed with SIGKILL after $done_before of 160 runs, then resumed: the same bytes as a whole sweep"
fi

# merge on a folder that is not a sweep's.
mkdir -p "$work/notasweep"
"$drasim" sweep merge "$work/notasweep" >/dev/null 2>"$work/err"
got=$?
[ "$got" -eq 1 ] && grep -q "is not a sweep folder" "$work/err"
result $? "drasim sweep merge on a folder without a manifest: exit $got, says so"
exit $status
