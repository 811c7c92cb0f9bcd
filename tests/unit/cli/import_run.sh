#!/bin/sh
# import_run.sh DRASIM ROOT WORKDIR: the scenario `drasim import` writes runs as is
# (docs/import.md, section 1). Needs spec.cluster.objects and spec.workload.imported
# in sim/scenario (helper `objects`, session 8): it fails until that is merged.
#
# mixed.yaml, mode as-is (DRA world): train-0 is bound to gpu-node-a and runs from
# t = 0 on the gpu-0 its claim's status.allocation names; web-1 (no nodeName, no
# claims, no toleration) arrives at t = 0, cannot go to gpu-node-a (taint
# nvidia.com/gpu:NoSchedule) and goes to gpu-node-b, inferred from its slice with
# unlimited CPU and memory. Both run to the horizon (no duration given): submitted 2,
# scheduled 2, pending 0, completed 0.
set -u
drasim=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
"$drasim" import "$root/tests/unit/cli/data/import/mixed.yaml" -o "$work/mixed" >/dev/null ||
	exit 1
"$drasim" run "$work/mixed/scenario.yaml" --mode as-is --format json >"$work/report.json" ||
	exit 1
python3 - "$work/report.json" <<'PY' || exit 1
import json, sys
m = json.load(open(sys.argv[1]))["modes"][0]["metrics"]
got = {k: m[k]["value"] for k in ("pods_submitted", "pods_scheduled", "pods_pending",
                                  "pods_completed")}
want = {"pods_submitted": 2, "pods_scheduled": 2, "pods_pending": 0, "pods_completed": 0}
if got != want:
    sys.exit(f"import_run: as-is metrics {got}, expected {want}")
PY
