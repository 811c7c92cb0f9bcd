#!/usr/bin/env python3
"""check_plan.py DRASIM SCENARIOS WORKDIR: `drasim plan` end to end.

The two analytic plans give the answers worked out in their READMEs, after
exactly the points the search must evaluate (worked out below). The same plan
gives the same plan.json again (resumed from its points) and with other
--jobs. A cheapest mix is found on a two-pool copy of plan-one-gpu. Bad input
gives the documented exit status and a message naming what is valid. Every
plan.json validates against reports/schema/plan.schema.json.
"""
import json
import os
import re
import shutil
import subprocess
import sys

DRASIM, SCENARIOS, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def plan(args, out):
    cmd = [DRASIM, "plan"] + args + ["-o", out]
    return subprocess.run(cmd, capture_output=True, text=True)


def answers(doc):
    return [(a["mode"], a["pool"], a["count"]) for a in doc["answers"]]


def point_counts(doc, pool):
    return [p["counts"][pool] for p in doc["points"]]


def load(out):
    with open(os.path.join(out, "plan.json"), encoding="utf-8") as f:
        return json.load(f)


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
one_gpu = os.path.join(SCENARIOS, "plan-one-gpu", "scenario.yaml")
vs_plugin = os.path.join(SCENARIOS, "plan-dra-vs-plugin", "scenario.yaml")

# plan-one-gpu: 20 - 8n pending. 64 holds; bisect [1, 64]: 32 16 8 4 hold,
# 2 fails (4 pending), 3 holds: 3 in both worlds, seven points.
out = os.path.join(WORK, "one-gpu")
r = plan([one_gpu, "--pool", "dgx", "--slo", "pods_pending == 0"], out)
check(r.returncode == 0, f"plan-one-gpu exit {r.returncode}: {r.stderr}")
doc = load(out)
check(answers(doc) == [("dra", "dgx", 3), ("extended", "dgx", 3)], f"one-gpu answers {answers(doc)}")
check(point_counts(doc, "dgx") == [64, 32, 16, 8, 4, 2, 3], f"one-gpu points {point_counts(doc, 'dgx')}")
check(all(m["monotone"] and m["met"] for m in doc["modes"]), "one-gpu monotone and met")
check("dra: 3 x dgx-h100 (pool dgx)\nextended: 3 x dgx-h100 (pool dgx)\n" in r.stdout, "one-gpu text")
# at 2 nodes, 4 pods pending in every world (the one seed is its own bound)
two = doc["points"][5]["modes"][0]["slos"][0]
check((two["mean"], two["bound"], two["verdict"]) == (4, 4, "fails"), f"one-gpu at 2: {two}")
first = open(os.path.join(out, "plan.json"), encoding="utf-8").read()

# plan.html in headless Chromium (when installed): the page's own check says every chart
# (one per mode and SLO) has data and no script failed
browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
if browser:
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          "--user-data-dir=" + os.path.join(WORK, "chromium"), "--dump-dom",
                          "file://" + os.path.abspath(os.path.join(out, "plan.html"))],
                         capture_output=True, text=True, timeout=120).stdout
    body = re.search(r"<body([^>]*)>", dom)
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', body.group(1))) if body else {}
    check(attrs.get("data-check") == "ok" and attrs.get("data-charts") == "2", f"plan.html check: {attrs}")
else:
    print("# chromium not installed: plan.html not checked in a browser")

# the same plan again into the same folder: resumed from points/, the same bytes
r = plan([one_gpu, "--pool", "dgx", "--slo", "pods_pending == 0", "--jobs", "1"], out)
check(r.returncode == 0, f"resumed plan exit {r.returncode}: {r.stderr}")
check(open(os.path.join(out, "plan.json"), encoding="utf-8").read() == first, "resumed plan.json differs")

# three seeds: every seed leaves 0 pending from 3 nodes on, so [0, 0] holds
out = os.path.join(WORK, "one-gpu-seeds")
r = plan([one_gpu, "--pool", "dgx", "--slo", "pods_pending == 0", "--seeds", "1-3", "--jobs", "2"], out)
check(r.returncode == 0, f"seeds exit {r.returncode}: {r.stderr}")
doc = load(out)
check(answers(doc) == [("dra", "dgx", 3), ("extended", "dgx", 3)], f"seeds answers {answers(doc)}")
at3 = doc["points"][6]["modes"][1]["slos"][0]
check((at3["runs"], at3["n"], at3["ci_low"], at3["ci_high"]) == (3, 3, 0, 0), f"seeds at 3: {at3}")

# --max 2: 2 nodes leave 4 pending, so nothing up to 2 holds; the min (1, 12 pending) is
# evaluated to tell an SLO more nodes make worse, and fails too: two points, a clear answer
out = os.path.join(WORK, "one-gpu-max2")
r = plan([one_gpu, "--pool", "dgx", "--slo", "pods_pending == 0", "--max", "2"], out)
check(r.returncode == 0, f"max 2 exit {r.returncode}: {r.stderr}")
doc = load(out)
check(answers(doc) == [] and point_counts(doc, "dgx") == [2, 1], f"max 2: {answers(doc)} {point_counts(doc, 'dgx')}")
check(not doc["modes"][0]["met"] and doc["modes"][0]["reason"].startswith(
    "no count of pool dgx up to 2 meets the SLOs; at the max pods_pending is 4"), f"max 2 reason {doc['modes'][0]}")
check("dra: not met: no count of pool dgx up to 2 meets the SLOs" in r.stdout, "max 2 text")

# plan-dra-vs-plugin: dynamic MIG 32 - 16n pending, the fixed layout 32 - 8n.
# dra-dynamic: 64 32 16 8 4 hold, [1, 4]: 2 holds, 1 fails: 2.
# dra-static: the cache up to 4 holds, 2 fails (lo 3), 3 is new and fails (lo 4): 4.
# extended: as dra-static, all from the cache.
out = os.path.join(WORK, "vs-plugin")
r = plan([vs_plugin, "--pool", "dgx", "--slo", "pods_pending == 0"], out)
check(r.returncode == 0, f"vs-plugin exit {r.returncode}: {r.stderr}")
doc = load(out)
check(answers(doc) == [("dra-dynamic", "dgx", 2), ("dra-static", "dgx", 4), ("extended", "dgx", 4)],
      f"vs-plugin answers {answers(doc)}")
check(point_counts(doc, "dgx") == [64, 32, 16, 8, 4, 2, 1, 3], f"vs-plugin points {point_counts(doc, 'dgx')}")

# a cheapest mix: plan-one-gpu's 20 pods on dgx ($98.32/h) and dgx-a100-320gb ($40/h) pools, 0..3 each.
# dgx=0: (0,3) holds (24 GPUs); a100 bisected: (0,1) fails, (0,2) fails: 3 x a100 = $120.
# dgx=1: at least $98.32 < $120: (1,3) holds, (1,1) fails, (1,2) holds: $178.32, dearer.
# dgx=2 ($196.64 at least) and dgx=3 are skipped. Answer 0 x dgx + 3 x a100, $120.00/h.
mix_dir = os.path.join(WORK, "mix-scenario")
os.makedirs(mix_dir)
shutil.copy(os.path.join(SCENARIOS, "plan-one-gpu", "manifests.yaml"), mix_dir)
text = open(one_gpu, encoding="utf-8").read().replace(
    "    - {name: dgx, shape: dgx-h100, count: 1}\n",
    "    - {name: dgx, shape: dgx-h100, count: 1}\n    - {name: a100, shape: dgx-a100-320gb, count: 1}\n")
mix = os.path.join(mix_dir, "scenario.yaml")
open(mix, "w", encoding="utf-8").write(text)
out = os.path.join(WORK, "mix")
r = plan([mix, "--pool", "dgx", "--pool", "a100", "--cost", "dgx=98.32", "--cost", "a100=40",
          "--slo", "pods_pending == 0", "--max", "3"], out)
check(r.returncode == 0, f"mix exit {r.returncode}: {r.stderr}")
doc = load(out)
check(answers(doc) == [("dra", "dgx", 0), ("dra", "a100", 3), ("extended", "dgx", 0), ("extended", "a100", 3)],
      f"mix answers {answers(doc)}")
check([(p["counts"]["dgx"], p["counts"]["a100"]) for p in doc["points"]] ==
      [(0, 3), (0, 1), (0, 2), (1, 3), (1, 1), (1, 2)], f"mix points {doc['points']}")
check("dra: 0 x dgx + 3 x a100, $120.00/h" in r.stdout, "mix text")

# bad input: exit status and the message
bad = [
    (2, [one_gpu, "--pool", "dgx", "--slo", "pod_pending == 0"],
     ["unknown metric 'pod_pending'; the metrics are: pods_submitted,", "scheduling_latency_p99"]),
    (2, [one_gpu, "--pool", "dgx", "--slo", "pods_pending = 0"],
     ["'=' is not an operator: the operators are <=, <, >=, >, =="]),
    (2, [one_gpu, "--pool", "dgx", "--slo", "pods_pending <= 3s"],
     ["'s' does not fit pods_pending: it is a count: a plain number"]),
    (2, [one_gpu, "--pool", "gpu", "--slo", "pods_pending == 0"],
     [f"no node pool gpu in {one_gpu}; its pools are dgx"]),
    (2, [one_gpu, "--pool", "dgx", "--slo", "pods_pending == 0", "--min", "5", "--max", "4"],
     ["--min 5 is above --max 4"]),
    (2, [mix, "--pool", "dgx", "--pool", "a100", "--slo", "pods_pending == 0"],
     ["a mix of 2 pools needs a cost per node-hour for each"]),
    (2, [one_gpu, "--pool", "dgx", "--slo", "pods_pending == 0", "--seeds", "5-1"], ["5-1"]),
    (2, [one_gpu, "--pool", "dgx"], ["--slo 'METRIC OP VALUE'"]),
    (1, [os.path.join(WORK, "missing.yaml"), "--pool", "dgx", "--slo", "pods_pending == 0"], ["missing.yaml"]),
]
for status, args, messages in bad:
    r = plan(args, os.path.join(WORK, "bad"))
    check(r.returncode == status, f"{args}: exit {r.returncode}, expected {status}: {r.stderr}")
    for m in messages:
        check(m in r.stderr, f"{args}: stderr lacks {m!r}: {r.stderr}")
    check(not os.path.exists(os.path.join(WORK, "bad", "plan.json")), f"{args}: wrote a plan")

# a folder that is not a plan's is refused (exit 1), its file untouched
foreign = os.path.join(WORK, "foreign")
os.makedirs(foreign)
open(os.path.join(foreign, "notes.txt"), "w", encoding="utf-8").write("mine\n")
r = plan([one_gpu, "--pool", "dgx", "--slo", "pods_pending == 0"], foreign)
check(r.returncode == 1 and "notes.txt, which drasim plan did not write" in r.stderr, f"foreign: {r.stderr}")

# every plan.json written above validates against reports/schema/plan.schema.json
root = os.path.dirname(os.path.abspath(SCENARIOS))
written = sorted(os.path.join(WORK, d, "plan.json") for d in os.listdir(WORK)
                 if os.path.exists(os.path.join(WORK, d, "plan.json")))
r = subprocess.run([sys.executable, os.path.join(root, "reports", "schema", "validate.py"),
                    os.path.join(root, "reports", "schema", "plan.schema.json")] + written,
                   capture_output=True, text=True)
check(r.returncode == 0 and len(written) == 5, f"schema: {len(written)} files: {r.stdout}{r.stderr}")

print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
