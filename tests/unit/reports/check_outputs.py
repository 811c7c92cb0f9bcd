#!/usr/bin/env python3
"""The JSON and CSV forms, checked from outside C.

- every JSON report (the fake one, and each reports/baselines/*.json) is
  valid against reports/schema/report.schema.json, and a corrupted report is not;
- the two CSV files round-trip through Python's csv module with the
  documented columns (docs/reports.md): pods.csv has 11, timeseries.csv has
  3 + one per series, on every row.
Usage: check_outputs.py FAKE_REPORT_EXE SCHEMA BASELINES_DIR
"""
import copy
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[2])))
import validate  # noqa: E402  (reports/schema/validate.py)

POD_COLUMNS = ["mode", "pod", "arrival_s", "start_s", "end_s", "node", "devices", "slowdown",
               "outcome", "attempts", "oom_kills"]
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)


def schema_errors(schema, document):
    errors = []
    validate.validate(schema, schema, document, "$", errors)
    return errors


def check_csv(path, expect_header=None, min_columns=0):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    if expect_header is not None:
        check(header == expect_header, "%s: header %s" % (path, header))
    check(len(header) >= min_columns, "%s: %d columns" % (path, len(header)))
    check(len(rows) > 1, "%s: no data rows" % path)
    for i, row in enumerate(rows[1:], 2):
        check(len(row) == len(header), "%s:%d: %d fields, header has %d" % (path, i, len(row), len(header)))
    return header, rows[1:]


def main():
    exe, schema_path, baselines = sys.argv[1:4]
    with open(schema_path) as f:
        schema = json.load(f)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([exe, out], check=True)
        with open(os.path.join(out, "report.json")) as f:
            report = json.load(f)
        errors = schema_errors(schema, report)
        check(not errors, "fake report: %s" % errors)
        bad = copy.deepcopy(report)
        bad["modes"][0]["pods"][0]["start_us"] = "soon"
        del bad["modes"][1]["metrics"]["pods_submitted"]["unit"]
        check(len(schema_errors(schema, bad)) == 2, "a corrupted report must give 2 errors")

        _, pods = check_csv(os.path.join(out, "pods.csv"), POD_COLUMNS)
        n_pods = sum(len(m["pods"]) for m in report["modes"])
        check(len(pods) == n_pods, "pods.csv: %d rows, report has %d pods" % (len(pods), n_pods))
        devices = [row[6] for row in pods if "," in row[6]]
        check(devices and devices[0] == "gpu-0,gpu-1", "pods.csv: a quoted device list reads back whole")
        header, samples = check_csv(os.path.join(out, "timeseries.csv"), None, 4)
        check(header[:3] == ["mode", "sample", "time_s"], "timeseries.csv: first columns %s" % header[:3])
        series = []
        for m in report["modes"]:
            series += [s for s in m["timeseries"]["series"] if s not in series]
        check(len(header) == 3 + len(series), "timeseries.csv: %d columns, expected %d" % (len(header), 3 + len(series)))
        first = report["modes"][0]["timeseries"]["series"]
        for name, data in first.items():
            column = header.index(name)
            got = [float(r[column]) for r in samples if r[0] == report["modes"][0]["name"]]
            check(got == [float(v) for v in data["values"]], "timeseries.csv: %s values differ from the JSON" % name)
    for path in sorted(glob.glob(os.path.join(baselines, "*.json"))):
        with open(path) as f:
            document = json.load(f)
        if document.get("schema") != "drasim.io/report/v1":
            continue  # bench.json has its own shape
        errors = schema_errors(schema, document)
        check(not errors, "%s: %s" % (path, errors[:5]))
    print("%d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
