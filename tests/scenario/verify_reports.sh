#!/bin/sh
# verify_reports.sh DRASIM ROOT OUTDIR: `drasim verify` (reports/rpt_verify.c)
#  1. passes on every golden report in reports/baselines and baselines/faults
#     (their ledgers; the baselines keep no pod rows). Every shipped scenario's
#     full report is verified by its scenario-* test (run_twice.sh, check 5);
#  2. can fail: a fresh node-events report passes, and the same report with an
#     overlap injected (pod B given pod A's device over A's own times) or with
#     its ledger's completed count raised by one fails, naming the device or
#     the ledger; a file that is not a report is an error naming it.
# TAP output, one line per check.
set -u
drasim=$1 root=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
n=0 status=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; sed 's/^/# /' "$2"; status=1; }

for f in "$root"/reports/baselines/*.json "$root"/reports/baselines/faults/*.json; do
	case $(basename "$f") in bench.json) continue ;; esac
	if "$drasim" verify "$f" >"$out/v.log" 2>&1; then
		ok "baseline ${f#"$root"/reports/baselines/}: $(tail -1 "$out/v.log")"
	else
		not_ok "baseline ${f#"$root"/reports/baselines/} fails drasim verify" "$out/v.log"
	fi
done

fresh=$out/node-events/report.json
"$drasim" compare --format json -o "$out/node-events" "$root/scenarios/node-events/scenario.yaml" \
	>"$out/ne.log" 2>&1
if "$drasim" verify "$fresh" >"$out/v.log" 2>&1; then
	ok "node-events fresh report passes: $(tail -1 "$out/v.log")"
else
	not_ok "node-events fresh report fails" "$out/v.log"
fi
# pod A: the first exclusive pod with a device and an end; pod B: the next
# exclusive pod placed once; B is moved onto A's first device over A's times
device=$(python3 - "$fresh" "$out/overlap.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
pods = report["modes"][0]["pods"]
held = [p for p in pods if p["devices"] and p["start_s"] is not None and p["end_s"] is not None
        and not p.get("shared") and "placements" not in p]
a, b = held[0], held[1]
b["node"], b["devices"] = a["node"], a["devices"].split(",")[0]
b["start_s"], b["end_s"] = a["start_s"], a["end_s"]
json.dump(report, open(sys.argv[2], "w"), indent="\t")
print(b["devices"])
PY
)
if ! "$drasim" verify "$out/overlap.json" >"$out/v.log" 2>&1 &&
	grep -q "device $device held by" "$out/v.log" && grep -q " 1 violations$" "$out/v.log"; then
	ok "an injected overlap on $device fails drasim verify, naming it"
else
	not_ok "an injected overlap on $device was not found" "$out/v.log"
fi
python3 - "$fresh" "$out/ledger.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
report["modes"][0]["ledger"]["completed"] += 1
json.dump(report, open(sys.argv[2], "w"), indent="\t")
PY
# the identity breaks, holds (still true) disagrees, and the rows' completed count differs: 3
if ! "$drasim" verify "$out/ledger.json" >"$out/v.log" 2>&1 && grep -q "ledger:" "$out/v.log" &&
	grep -q " 3 violations$" "$out/v.log"; then
	ok "a ledger off by one fails drasim verify (3 violations)"
else
	not_ok "a ledger off by one was not caught" "$out/v.log"
fi
echo '{"schema": "x"}' >"$out/not-a-report.json"
if ! "$drasim" verify "$out/not-a-report.json" >"$out/v.log" 2>&1 &&
	grep -q "not-a-report.json: expected a drasim.io/report/v2 report" "$out/v.log"; then
	ok "a file that is not a report is an error naming it"
else
	not_ok "a file that is not a report was not refused" "$out/v.log"
fi
echo "1..$n"
exit $status
