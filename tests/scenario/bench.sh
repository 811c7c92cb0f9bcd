#!/bin/sh
# bench.sh DRASIM SCENARIO: runs one scenario once and prints simulated pods
# per second of CPU time, the wall time and the peak resident memory (GNU time,
# if present).
set -u
drasim=$1 scenario=$2
tmp=$(mktemp -d)
# the report directory is drasim's alone (-o replaces it as a whole): time's log goes beside it
out=$tmp/report
if [ -x /usr/bin/time ]; then
	/usr/bin/time -v "$drasim" run --format json -o "$out" "$scenario" 2>"$tmp/time" >/dev/null || exit 1
	user=$(sed -n 's/.*User time (seconds): //p' "$tmp/time")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time")
else
	"$drasim" run --format json -o "$out" "$scenario" >/dev/null || exit 1
	user="" rss="" wall=""
fi
pods=$(grep -A1 '"pods_submitted"' "$out/report.json" | grep -o '[0-9][0-9]*' | head -1)
echo "$(basename "$scenario"): pods $pods, user ${user:-?} s, wall ${wall:-?}, peak RSS ${rss:-?} kB" \
     "($(awk -v p="${pods:-0}" -v u="${user:-0}" 'BEGIN { if (u > 0) printf "%.0f", p / u; else print "?" }') pods/s)"
rm -rf "$tmp"
