#!/bin/sh
# fgd_reproduce.sh: the FGD paper's `default` trace, six policies, seeds 42-51,
# run by `drasim experiment fgd` and checked against the published figures
# (tools/research/fgd_check.py: within max(0.5 pp, 2 SD) at 100 %, ordering,
# knee). The test `research-fgd-published` runs it; by hand:
#   tools/research/fgd_reproduce.sh build/sim/cli/drasim ../shared/traces/alibaba-gpu-v2023/csv none
# Args: DRASIM CSV_DIR SANITIZE [TRACES]. Under a sanitizer the 60 runs take
# many minutes, so it skips (77) with the reason; the release suite runs it.
set -eu
drasim=$1 csv_dir=$2 sanitize=$3 traces=${4:-default}
here=$(dirname "$0")
if [ "$sanitize" != none ]; then
	echo "skipped: 60 protocol runs under -Db_sanitize=$sanitize take too long; the release suite checks the reproduction"
	exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
set --
for t in $(echo "$traces" | tr , ' '); do set -- "$@" --trace "$t"; done
"$drasim" experiment fgd "$@" --csv-dir "$csv_dir" --seeds 42-51 --jobs 2 -o "$out" 2>/dev/null
python3 "$here/fgd_check.py" "$out/fgd.json" --traces "$traces"
