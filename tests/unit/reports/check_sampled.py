#!/usr/bin/env python3
"""What simulated runs sample, checked on real runs (docs/reports.md, "What
simulated runs sample"): for each scenario given, `drasim compare --format
json` and, in every mode,
  - the fragmentation series has one value per sample, each in [0, 1] or
    null, and the fragmentation metric is the mean of the defined values;
  - the heat map has one row per node (at most 64), one value per sample,
    each between 0 and the node's GPUs;
  - every pod that is running or completed has devices, and in every world
    they name its node (kind:node/device, the same id in every mode);
  - GPU pictures, when present, name pods of the run, and MIG slices held by
    pods do not overlap.
With EXPECT_PICTURES, every mode of that scenario must have pictures.
Usage: check_sampled.py DRASIM SCENARIO[:pictures]...
"""
import json
import math
import os
import subprocess
import sys
import tempfile


def check_mode(mode, pictures):
    errors = []
    name = mode["name"]
    series = mode["timeseries"]["series"]
    samples = len(series["pending_pods"]["values"])
    frag = series.get("fragmentation", {}).get("values")
    if frag is None or len(frag) != samples:
        errors.append("%s: fragmentation series has %s values for %d samples"
                      % (name, None if frag is None else len(frag), samples))
        frag = []
    defined = [v for v in frag if v is not None]
    if any(v < 0 or v > 1 for v in defined):
        errors.append("%s: fragmentation outside [0, 1]" % name)
    metric = mode["metrics"].get("fragmentation", {}).get("value")
    if defined and (metric is None or not math.isclose(metric, sum(defined) / len(defined),
                                                        rel_tol=1e-6, abs_tol=1e-9)):
        errors.append("%s: fragmentation metric %s is not the mean of the series" % (name, metric))
    rows = mode["timeseries"]["node_gpu_occupancy"]
    if not rows or len(rows) > 64:
        errors.append("%s: %d heat-map rows" % (name, len(rows)))
    for row in rows:
        if len(row["busy"]) != samples or any(v < 0 or v > row["gpus"] + 1e-9 for v in row["busy"]):
            errors.append("%s: heat-map row %s out of shape or range" % (name, row["node"]))
    pods = {p["name"]: p for p in mode["pods"]}
    held = [p for p in mode["pods"] if p["outcome"] in ("running", "completed")]
    for p in held:
        if not p["devices"]:
            errors.append("%s: pod %s (%s) has no devices" % (name, p["name"], p["outcome"]))
        elif any(d.split(":", 1)[1].split("/")[0] != p["node"] for d in p["devices"].split(",")):
            errors.append("%s: pod %s devices %s not on %s" % (name, p["name"], p["devices"], p["node"]))
    if pictures and not mode["gpu_slices"]:
        errors.append("%s: no GPU pictures" % name)
    for gpu in mode["gpu_slices"]:
        taken = []
        for s in gpu["slices"]:
            if s["pod"] is not None and s["pod"] not in pods:
                errors.append("%s: picture names unknown pod %s" % (name, s["pod"]))
            if gpu["sharing"] == "mig" and s["pod"] is not None:
                span = set(range(s["start"], s["start"] + s["size"]))
                if any(span & t for t in taken):
                    errors.append("%s: overlapping MIG slices on %s/%s" % (name, gpu["node"], gpu["device"]))
                taken.append(span)
    return errors, len(held)


def main():
    drasim = sys.argv[1]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for arg in sys.argv[2:]:
            path, _, flag = arg.partition(":")
            scenario = os.path.basename(os.path.dirname(path))
            out = os.path.join(tmp, scenario)
            subprocess.run([drasim, "compare", "--format", "json", "-o", out, path], check=True,
                           stdout=subprocess.DEVNULL)
            report = json.load(open(os.path.join(out, "report.json")))
            for mode in report["modes"]:
                errors, held = check_mode(mode, flag == "pictures")
                for e in errors:
                    print("FAIL: %s: %s" % (scenario, e))
                print("%s: %s %s (%d pods with devices, %d pictures)"
                      % ("ok" if not errors else "FAIL", scenario, mode["name"], held,
                         len(mode["gpu_slices"])))
                failed += bool(errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
