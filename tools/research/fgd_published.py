#!/usr/bin/env python3
"""Derives tests/data/fgd/published.csv from the FGD authors' expected results.

The FGD paper's artifact (hkust-adsl/kubernetes-scheduler-simulator, commit
8f3d641, experiments/analysis/expected_results/) holds, for each of the 17
openb traces, 6 policies and seeds 42-51, the per-run curves the paper's
figures are drawn from: allocated GPU % (analysis_allo_discrete.csv),
fragment amount % (analysis_frag_discrete.csv) and fragment ratio %
(analysis_frag_ratio_discrete.csv), one column per integer arrived % 0..130.

This script reduces them to what drasim checks against: per trace, policy,
metric and arrived % (every 5 %), the mean, sample SD and n over the seeds, in
drasim's metric names (unallocated_pct = 100 - allocated). Facts, not code:
the numbers are the authors', the reduction is ours.

Usage: fgd_published.py EXPECTED_RESULTS_DIR > tests/data/fgd/published.csv
"""
import csv
import os
import statistics
import sys

FILES = [("unallocated_pct", "analysis_allo_discrete.csv", lambda v: 100.0 - v),
         ("frag_amount_pct", "analysis_frag_discrete.csv", lambda v: v),
         ("frag_ratio_pct", "analysis_frag_ratio_discrete.csv", lambda v: v)]
POINTS = range(0, 131, 5)


def policy_name(column):
    return column.split("-", 1)[1]  # "06-FGD" -> "FGD"


def trace_name(column):
    return column.replace("openb_pod_list_", "")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    rows = {}
    for metric, name, convert in FILES:
        with open(os.path.join(sys.argv[1], name), newline="") as f:
            for r in csv.DictReader(f):
                key = (trace_name(r["workload"]), policy_name(r["sc_policy"]), metric)
                for p in POINTS:
                    rows.setdefault(key + (p,), []).append(convert(float(r[str(p)])))
    out = csv.writer(sys.stdout, lineterminator="\n")
    print("# FGD (ATC '23) published results, from hkust-adsl/kubernetes-scheduler-simulator")
    print("# commit 8f3d641 experiments/analysis/expected_results/*.csv, reduced by")
    print("# tools/research/fgd_published.py: mean, sample SD and n over seeds 42-51.")
    out.writerow(["trace", "policy", "metric", "arrived_pct", "mean", "sd", "n"])
    for (trace, policy, metric, p), values in sorted(rows.items()):
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        out.writerow([trace, policy, metric, p, "%.4f" % statistics.mean(values), "%.4f" % sd,
                      len(values)])


if __name__ == "__main__":
    main()
