#!/usr/bin/env python3
"""check_growth.py DRASIM WORKDIR: tools/growth, the growth table, on tiny rows.

1. The fit, with numbers worked by hand:
   - nodes 1, 10, 100 and CPU 1, 10, 1000 s: in log10, x = 0, 1, 2 and
     y = 0, 1, 3; mean x = 1, mean y = 4/3; sum (x - 1)(y - 4/3) = 4/3 + 0 + 5/3 = 3,
     sum (x - 1)^2 = 2, so the exponent is 3/2 and the intercept 4/3 - 3/2 = -1/6;
     at 1,000 nodes the estimate is 10^(-1/6 + 9/2) = 10^(13/3) = 21,544.35 s;
   - CPU 2, 8, 32 s at 10, 20, 40 nodes: exactly nodes^2 / 50, exponent 2;
   - one row (3 s at 10 nodes): linear, 12 s at 40 nodes;
   - fewer than two rows, or one node count twice: no exponent.
2. A real table (10, 20 and 40 nodes, 20 pods per node and a fixed 400 pods):
   each row's pods per CPU second is its pods / user CPU and its CPU µs per pod
   is 10^6 user CPU / pods (from the row's own measurements in the JSON); each
   series' exponent is the slope of log CPU on log nodes recomputed here with
   the other textbook formula, (n sxy - sx sy) / (n sxx - sx^2); the markdown
   rows carry the same figures, rounded; the pods are the requested ones less
   the Poisson window's shortfall (at most 20 % here).
3. The budget: with --max-cpu 0.001 the first row runs (nothing to estimate it
   from) and the next ones are not run, each saying the estimate, which is the
   10-node row's CPU times 2 and 4 (linear growth from one row).
4. Bad options exit 2 naming the option and what is valid.
"""
import importlib.machinery
import importlib.util
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GROWTH = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "growth")
failures = 0
passes = 0


def expect(ok, what):
    global failures, passes
    print("%s %s" % ("ok" if ok else "FAIL", what))
    failures += not ok
    passes += bool(ok)


def close(a, b, rel=1e-9):
    return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def load_growth():
    loader = importlib.machinery.SourceFileLoader("growth", GROWTH)
    spec = importlib.util.spec_from_loader("growth", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def check_fit(growth):
    # equal CPU at every node count: exponent 0, written 0.00 even when it comes out as -1e-17
    slope, _ = growth.fit_exponent([10, 20, 40], [0.02, 0.02, 0.02])
    expect(abs(slope) <= 1e-12 and growth.two_places(-1e-17) == "0.00"
           and growth.two_places(slope) == "0.00", "equal CPU: exponent 0.00 (%r)" % slope)
    slope, intercept = growth.fit_exponent([1, 10, 100], [1, 10, 1000])
    expect(close(slope, 1.5), "exponent of CPU 1, 10, 1000 at 1, 10, 100 nodes is 1.5 (%r)" % slope)
    expect(close(intercept, -math.log(10) / 6), "intercept -ln(10)/6 (%r)" % intercept)
    estimate, exponent, how = growth.extrapolate([1, 10, 100], [1, 10, 1000], 1000)
    expect(close(estimate, 21544.3469, rel=1e-8) and exponent == slope and "1.50" in how,
           "estimate at 1,000 nodes 10^(13/3) = 21,544.35 s from the fitted exponent (%r, %r)"
           % (estimate, how))
    slope, _ = growth.fit_exponent([10, 20, 40], [2, 8, 32])
    expect(close(slope, 2.0), "CPU nodes^2/50 gives exponent 2 (%r)" % slope)
    estimate, exponent, how = growth.extrapolate([10], [3.0], 40)
    expect(estimate == 12.0 and exponent == 1.0 and "linear" in how,
           "one row, 3 s at 10 nodes: 12 s at 40 nodes (%r, %r)" % (estimate, how))
    expect(growth.fit_exponent([10], [1.0]) is None, "no exponent from one row")
    expect(growth.fit_exponent([10, 10], [1.0, 2.0]) is None, "no exponent from one node count")


def textbook_slope(rows):
    xs = [math.log(r["nodes"]) for r in rows]
    ys = [math.log(r["user_cpu_s"]) for r in rows]
    n = len(xs)
    sxy = sum(x * y for x, y in zip(xs, ys))
    sxx = sum(x * x for x in xs)
    return (n * sxy - sum(xs) * sum(ys)) / (n * sxx - sum(xs) ** 2)


def run_growth(drasim, extra):
    return subprocess.run([sys.executable, GROWTH, "--drasim", drasim, "--nodes", "10,20,40",
                           "--pods-per-node", "20", "--fixed-pods", "400"] + extra,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def check_row(name, row, table):
    pods, cpu = row["pods"], row["user_cpu_s"]
    what = "%s %d nodes" % (name, row["nodes"])
    expect(row["status"] == "ran", "%s ran" % what)
    expect(close(row["pods_per_cpu_s"], pods / cpu), "%s: pods per CPU s = %d / %r" % (what, pods, cpu))
    expect(close(row["cpu_us_per_pod"], cpu * 1e6 / pods), "%s: CPU µs per pod = 10^6 x CPU / pods"
           % what)
    expect(0.8 * row["pods_requested"] <= pods <= row["pods_requested"],
           "%s: %d pods of %d requested" % (what, pods, row["pods_requested"]))
    line = "| %s | %d | %d | %.2f | %.1f | %s | %s | %.1f |" % (
        name, row["nodes"], pods, cpu, row["wall_s"], "{:,.0f}".format(row["peak_rss_kib"] / 1024),
        "{:,.0f}".format(pods / cpu), cpu * 1e6 / pods)
    expect(line in table, "%s: markdown row %s" % (what, line))


def check_table(drasim, work):
    json_path, md_path = os.path.join(work, "growth.json"), os.path.join(work, "growth.md")
    done = run_growth(drasim, ["--json", json_path, "--markdown", md_path])
    expect(done.returncode == 0, "tools/growth on 10, 20, 40 nodes exits 0 (%s)" % done.stderr[-300:])
    if done.returncode != 0:
        return
    with open(json_path) as f:
        document = json.load(f)
    with open(md_path) as f:
        table = f.read()
    expect([s["name"] for s in document["series"]] == ["per-node", "fixed"], "both series")
    for series in document["series"]:
        for row in series["rows"]:
            check_row(series["name"], row, table)
        slope = textbook_slope(series["rows"])
        # CPU times come in clock ticks: tiny rows of equal CPU give a slope of 0 in one formula
        # and +-1e-16 in the other, so near 0 the comparison is absolute
        expect(close(series["exponent"], slope) or abs(series["exponent"] - slope) <= 1e-9,
               "%s exponent %r = (n sxy - sx sy)/(n sxx - sx^2) %r"
               % (series["name"], series["exponent"], slope))
        text = "%.2f" % slope
        expect("exponent %s" % ("0.00" if text == "-0.00" else text) in table,
               "%s exponent in the markdown" % series["name"])
    requested = [r["pods_requested"] for s in document["series"] for r in s["rows"]]
    expect(requested == [200, 400, 800, 400, 400, 400], "pods requested %r" % requested)


def check_budget(drasim, work):
    json_path = os.path.join(work, "budget.json")
    done = run_growth(drasim, ["--series", "per-node", "--max-cpu", "0.001", "--json", json_path])
    expect(done.returncode == 0, "a budget that leaves rows out exits 0 (%s)" % done.stderr[-300:])
    if done.returncode != 0:
        return
    with open(json_path) as f:
        rows = json.load(f)["series"][0]["rows"]
    expect([r["status"] for r in rows] == ["ran", "not run", "not run"],
           "statuses %r" % [r["status"] for r in rows])
    first = rows[0]["user_cpu_s"]
    for row, factor in zip(rows[1:], (2, 4)):
        estimate = row["estimate"]["user_cpu_s"]
        expect(close(estimate, factor * first), "%d nodes: estimate %r = %d x %r"
               % (row["nodes"], estimate, factor, first))
        reason = ("not run: estimated %.2f s of CPU from linear growth from the 10-node row "
                  "(--max-cpu 0.001 s)" % (factor * first))
        expect(row["reason"] == reason and reason in done.stdout,
               "%d nodes: %r (got %r)" % (row["nodes"], reason, row["reason"]))


def check_errors(drasim):
    for option, value, needle in (("--nodes", "10,0", "positive integers"),
                                  ("--series", "weekly", "the series are per-node, fixed"),
                                  ("--load", "1.5", "at most 1")):
        done = subprocess.run([sys.executable, GROWTH, "--drasim", drasim, option, value],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        expect(done.returncode == 2 and option in done.stderr and needle in done.stderr,
               "%s %s: exit 2, %r (%d: %s)" % (option, value, needle, done.returncode,
                                              done.stderr.strip()[-200:]))


def main():
    drasim, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    check_fit(load_growth())
    check_table(drasim, work)
    check_budget(drasim, work)
    check_errors(drasim)
    print("%d passed, %d failed, 0 skipped" % (passes, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
