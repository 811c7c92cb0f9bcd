#!/usr/bin/env python3
"""The JSON and CSV forms, checked from outside C.

- every JSON report (the fake one, and each reports/baselines/*.json) is
  valid against reports/schema/report.schema.json, and a corrupted report is not;
- the three CSV files round-trip through Python's csv module with the
  documented columns (docs/reports.md), on every row: summary.csv
  (mode,metric,unit,value: every metric of the JSON), timeseries.csv
  (mode,t_s,metric,unit,value: every sample of the JSON's series), pods.csv (14).
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

POD_COLUMNS = ["mode", "pod", "workload", "request", "arrival_s", "start_s", "end_s", "node",
               "devices", "slowdown", "outcome", "attempts", "oom_kills", "pending_reason"]
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
        bad["modes"][0]["pods"][0]["start_s"] = "soon"
        del bad["modes"][1]["metrics"]["pods_submitted"]["unit"]
        check(len(schema_errors(schema, bad)) == 2, "a corrupted report must give 2 errors")

        _, pods = check_csv(os.path.join(out, "pods.csv"), POD_COLUMNS)
        n_pods = sum(len(m["pods"]) for m in report["modes"])
        check(len(pods) == n_pods, "pods.csv: %d rows, report has %d pods" % (len(pods), n_pods))
        devices = [row[8] for row in pods if "," in row[8]]
        check(devices and devices[0] == "gpu-0,gpu-1", "pods.csv: a quoted device list reads back whole")
        for row, pod in zip(pods, [p for m in report["modes"] for p in m["pods"]]):
            check(row[1] == pod["name"] and row[2] == (pod["workload"] or "")
                  and row[3] == (pod["request"] or ""), "pods.csv: %s: workload/request" % row[1])
            check(float(row[4]) == pod["arrival_s"], "pods.csv: %s: arrival_s %s" % (row[1], row[4]))
        _, summary = check_csv(os.path.join(out, "summary.csv"), ["mode", "metric", "unit", "value"])
        want = [[m["name"], k, v["unit"], v["value"]] for m in report["modes"] for k, v in m["metrics"].items()]
        got = [[r[0], r[1], r[2], float(r[3]) if r[3] else None] for r in summary]
        check(got == want, "summary.csv: rows differ from the JSON metrics")
        _, samples = check_csv(os.path.join(out, "timeseries.csv"), ["mode", "t_s", "metric", "unit", "value"])
        want = []
        for m in report["modes"]:
            ts = m["timeseries"]
            for name, data in ts["series"].items():
                want += [[m["name"], ts["start_s"] + i * ts["interval_s"], name, data["unit"], v]
                         for i, v in enumerate(data["values"])]
        got = [[r[0], float(r[1]), r[2], r[3], float(r[4]) if r[4] else None] for r in samples]
        check(got == want, "timeseries.csv: rows differ from the JSON series")
    for path in sorted(glob.glob(os.path.join(baselines, "*.json"))):
        with open(path) as f:
            document = json.load(f)
        if document.get("schema") != "drasim.io/report/v2":
            continue  # bench.json has its own shape
        errors = schema_errors(schema, document)
        check(not errors, "%s: %s" % (path, errors[:5]))
    print("%d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
