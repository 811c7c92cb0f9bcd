#!/usr/bin/env python3
"""drasim's benchmark harness: runs the benchmark executables of a build
directory and writes `drasim.io/bench/v1` records (docs/reports.md).

Each record carries the wall time (ns; median of the runs, with p50/p90/p99
over the runs) and, under callgrind, the instruction count of one run:
callgrind counts are stable on a noisy shared machine, wall times are not,
so the regression gate (`--check`) is on instructions (5%) and wall time
only reported. A benchmark whose executable is not built is skipped with
the reason printed.

Usage: run_bench.py --build DIR [--quick] [-o FILE] [--check BASELINE]
                    [--runs N] [--no-callgrind]
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# name, executable (relative to the build dir), arguments, in the --quick subset
BENCHMARKS = [
    ("alloc_hard", "tests/unit/dra/bench-alloc", ["hard"], True),
    ("alloc_fill", "tests/unit/dra/bench-alloc", ["fill"], False),
    ("alloc_churn", "tests/unit/dra/bench-alloc", ["churn"], False),
    ("phold_1k", "tools/bench/phold/phold", ["--lps", "1000", "--events", "200000", "--runs", "1", "--quiet"], True),
    ("phold_100k", "tools/bench/phold/phold", ["--lps", "100000", "--events", "1000000", "--runs", "1", "--quiet"], False),
    ("lint_1k_slices", "tests/unit/api/bench-lint", ["--slices", "1000", "--runs", "1"], False),
    ("api_load_10k_slices", "tests/unit/api/bench-api-load", [], False),
]


def nearest_rank(values, q):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100.0 * len(ordered)) - 1)]


def wall_ns(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter_ns() - start)
    return times


def callgrind_instructions(command):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + command,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            for line in f:
                match = re.match(r"(?:summary|totals):\s+(\d+)", line)
                if match:
                    return int(match.group(1))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("-o", "--output")
    parser.add_argument("--check", metavar="BASELINE")
    parser.add_argument("--runs", type=int, default=0)
    parser.add_argument("--no-callgrind", action="store_true")
    args = parser.parse_args()
    runs = args.runs or (1 if args.quick else 3)
    callgrind = not args.no_callgrind and shutil.which("valgrind") is not None
    if not callgrind and not args.no_callgrind:
        print("note: valgrind not found; records have no instruction counts", file=sys.stderr)
    records, skipped, failed = [], 0, 0
    for name, exe, exe_args, quick in BENCHMARKS:
        if args.quick and not quick:
            continue
        path = os.path.join(args.build, exe)
        if not os.access(path, os.X_OK):
            print("SKIP %s: %s is not built" % (name, exe), file=sys.stderr)
            skipped += 1
            continue
        command = [path] + exe_args
        try:
            times = wall_ns(command, runs)
            record = {"name": name, "unit": "ns", "value": nearest_rank(times, 50),
                      "p50": nearest_rank(times, 50), "p90": nearest_rank(times, 90),
                      "p99": nearest_rank(times, 99)}
            if callgrind:
                record["instructions"] = callgrind_instructions(command)
        except subprocess.CalledProcessError as error:
            print("FAIL %s: %s" % (name, error), file=sys.stderr)
            failed += 1
            continue
        print("%-22s %12.3f ms  %s instructions" % (name, record["value"] / 1e6,
                                                   record.get("instructions", "-")), file=sys.stderr)
        records.append(record)
    document = {"schema": "drasim.io/bench/v1", "quick": args.quick, "records": records}
    text = json.dumps(document, indent=1) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print("%d passed, %d failed, %d skipped" % (len(records), failed, skipped), file=sys.stderr)
    if failed:
        return 1
    if args.check:
        drasim = os.path.join(args.build, "sim", "cli", "drasim")
        tolerance = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench.tolerance")
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write(text)
        try:
            return subprocess.run([drasim, "diff", "--tolerance", tolerance, args.check, f.name]).returncode
        finally:
            os.unlink(f.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
