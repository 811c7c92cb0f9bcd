#!/usr/bin/env python3
"""Self-test of fgd_check.py: it passes the published figures themselves and
fails each kind of departure. The documents are built from published.csv: the
published mean at every 5 % point (others null), so the expectations follow
from the checker's rules without running the protocol:
- as published: every check passes (diff 0);
- FGD at 100 % + 0.6 pp (allowance max(0.5, 2 x 0.11) = 0.5): its 100 % check
  and its curve at 100 fail;
- Random and FGD swapped on the default trace: 13.70 vs 4.77 are 9 pp apart,
  far beyond 0.66 + 0.5, so the order check fails (and both 100 % checks).
Usage: fgd_check_selftest.py  (exit 0 when all three behave)"""
import copy
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fgd_check  # noqa: E402

STAT = ("unallocated_pct", "frag_amount_pct", "frag_ratio_pct")


def document(published, trace):
    policies = {}
    for (t, policy, metric, x), (mean, sd, n) in published.items():
        if t != trace:
            continue
        points = policies.setdefault(policy, [
            {"arrived_pct": i, **{m: {"mean": None, "sd": None, "n": 0} for m in STAT}}
            for i in range(131)])
        points[x][metric] = {"mean": mean, "sd": sd, "n": n}
    return {"apiVersion": "drasim.io/fgd/v1", "traces": [{"name": trace, "worlds": [
        {"name": "gpushare", "policies": [{"name": p, "points": pts}
                                          for p, pts in sorted(policies.items())]}]}]}


def run(doc, tmp):
    path = os.path.join(tmp, "fgd.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    done = subprocess.run([sys.executable, os.path.join(HERE, "fgd_check.py"), path],
                          stdout=subprocess.PIPE, text=True)
    return done.returncode, done.stdout


def main():
    published = fgd_check.load_published(fgd_check.DEFAULT_PUBLISHED)
    base = document(published, "default")
    shifted = copy.deepcopy(base)
    swapped = copy.deepcopy(base)
    pols = {p["name"]: p for p in shifted["traces"][0]["worlds"][0]["policies"]}
    pols["FGD"]["points"][100]["unallocated_pct"]["mean"] += 0.6
    pols = {p["name"]: p for p in swapped["traces"][0]["worlds"][0]["policies"]}
    pols["FGD"]["points"], pols["Random"]["points"] = pols["Random"]["points"], pols["FGD"]["points"]
    cases = [("as published", base, 0, "0 failed"),
             ("FGD +0.6 pp at 100 %", shifted, 1, "FGD              5.37"),
             ("Random and FGD swapped", swapped, 1, "order")]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for what, doc, want, needle in cases:
            status, out = run(doc, tmp)
            ok = status == want and needle in out
            failures += not ok
            print("%s - %s: exit %d (expected %d)" % ("ok" if ok else "not ok", what, status, want))
            if not ok:
                print(out)
    print("%d passed, %d failed, 0 skipped" % (len(cases) - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
