#!/usr/bin/env python3
"""check_bench.py DRASIM BASELINE TOLERANCE WORKDIR: `drasim bench` and the
benchmark regression gate, end to end.

1. `drasim bench --quick -o FILE` exits 0 and FILE is scheduler_perf's DataItems
   shape (`drasim.io/bench/v2`): every item has labels Name/Metric/Family, a
   unit and numeric data; all five families are there, each benchmark with a
   wall_time item (Value, Average, Perc50/90/99) and, when valgrind can run this
   build, an instructions item.
2. `drasim diff --tolerance TOLERANCE` on the committed BASELINE against copies
   of it: every instruction count 6% higher fails (exit 1), 4% higher passes
   (exit 0), a benchmark removed fails, wall times 1000x slower pass.
"""
import copy
import json
import os
import shutil
import subprocess
import sys

FAMILIES = {"cel", "alloc", "phold", "e2e"}
failures = 0


def expect(ok, what):
    global failures
    print("%s %s" % ("ok" if ok else "FAIL", what))
    failures += not ok


def check_shape(document, instructions):
    expect(document.get("schema") == "drasim.io/bench/v2" and document.get("version") == "v1",
           "schema drasim.io/bench/v2, DataItems version v1")
    metrics = {}
    for item in document.get("dataItems", []):
        labels = item.get("labels", {})
        data = item.get("data", {})
        good = (isinstance(labels.get("Name"), str) and isinstance(labels.get("Metric"), str)
                and isinstance(item.get("unit"), str) and data
                and all(isinstance(v, (int, float)) for v in data.values()) and "Value" in data)
        if not good:
            expect(False, "well-formed DataItem %s" % json.dumps(item))
        metrics.setdefault(labels.get("Name"), {})[labels.get("Metric")] = item
    families = {m["wall_time"]["labels"].get("Family") for m in metrics.values() if "wall_time" in m}
    expect(FAMILIES <= families, "families %s present (got %s)" % (sorted(FAMILIES), sorted(families)))
    for name, by_metric in sorted(metrics.items()):
        wall = by_metric.get("wall_time", {})
        expect(wall.get("unit") == "ns" and
               {"Value", "Average", "Perc50", "Perc90", "Perc99"} <= set(wall.get("data", {})),
               "%s: wall_time in ns with Value, Average, Perc50/90/99" % name)
        if instructions:
            count = by_metric.get("instructions", {}).get("data", {}).get("Value", 0)
            expect(count > 0, "%s: instructions counted (%s)" % (name, count))


def scaled(baseline, metric, factor):
    document = copy.deepcopy(baseline)
    for item in document["dataItems"]:
        if item["labels"]["Metric"] == metric:
            item["data"] = {k: v * factor for k, v in item["data"].items()}
    return document


def diff_status(drasim, tolerance, old, new, workdir):
    path = os.path.join(workdir, "changed.json")
    with open(path, "w") as f:
        json.dump(new, f)
    return subprocess.run([drasim, "diff", "--tolerance", tolerance, old, path],
                          stdout=subprocess.DEVNULL).returncode


def main():
    drasim, baseline_path, tolerance, workdir = sys.argv[1:5]
    os.makedirs(workdir, exist_ok=True)
    out = os.path.join(workdir, "bench-quick.json")
    status = subprocess.run([drasim, "bench", "--quick", "-o", out]).returncode
    expect(status == 0, "drasim bench --quick exits 0 (got %d)" % status)
    if status == 0:
        with open(out) as f:
            document = json.load(f)
        sanitized = document.get("build", {}).get("b_sanitize") not in (None, "none")
        check_shape(document, shutil.which("valgrind") is not None and not sanitized)

    with open(baseline_path) as f:
        baseline = json.load(f)
    cases = [
        ("instructions +6%", scaled(baseline, "instructions", 1.06), 1),
        ("instructions +4%", scaled(baseline, "instructions", 1.04), 0),
        ("wall time 1000x (a descheduled pass)", scaled(baseline, "wall_time", 1000.0), 0),
    ]
    removed = copy.deepcopy(baseline)
    removed["dataItems"] = removed["dataItems"][1:]
    cases.append(("a benchmark's item removed", removed, 1))
    for what, document, want in cases:
        got = diff_status(drasim, tolerance, baseline_path, document, workdir)
        expect(got == want, "drasim diff, %s: exit %d (expected %d)" % (what, got, want))
    check_family(drasim)
    return 1 if failures else 0


def check_family(drasim):
    """--family: an unknown name lists the families (exit 2); one family runs only its own."""
    done = subprocess.run([drasim, "bench", "--family", "nope"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    expect(done.returncode == 2 and "the families are alloc, api," in done.stderr,
           "drasim bench --family nope: exit 2 listing the families (got %d: %s)"
           % (done.returncode, done.stderr.strip()))
    done = subprocess.run([drasim, "bench", "--quick", "--family", "alloc", "--runs", "1"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    names = [i["labels"]["Name"] for i in json.loads(done.stdout or "{}").get("dataItems", [])]
    expect(done.returncode == 0 and names and all(n.startswith("alloc_") for n in names),
           "drasim bench --quick --family alloc: only alloc_* (got %s)" % sorted(set(names)))


if __name__ == "__main__":
    sys.exit(main())
