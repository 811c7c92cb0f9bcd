#!/usr/bin/env python3
"""sweep.json, sweep.csv and sweep.html of the fake sweep, checked from outside C.

- sweep.json is valid against reports/schema/sweep.schema.json, and a corrupted
  one (a row's n a string, a failure without its seed) gives exactly 2 errors;
- sweep.csv reads with Python's csv module: the documented header (one column
  per parameter path, then mode..ci95_high), every row as wide, "[dra, extended]"
  read back whole, and the same rows and numbers as sweep.json;
- sweep.html in headless Chromium: the page's own check says data-check="ok"
  with its 4 charts (skipped, with a note, when chromium is not installed).
Usage: check_sweep_outputs.py FAKE_SWEEP_EXE SCHEMA
"""
import copy
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[2])))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate  # noqa: E402  (reports/schema/validate.py)
import check_html  # noqa: E402  (chromium(), run(), body_attrs())

COLUMNS = ["mode", "metric", "unit", "n", "mean", "sd", "ci95_low", "ci95_high"]
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


def number(text):
    return None if text == "" else float(text)


def check_csv(path, document):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    params = document["parameters"]
    check(rows[0] == params + COLUMNS, "sweep.csv: header %s" % rows[0])
    check(len(rows) - 1 == len(document["rows"]),
          "sweep.csv: %d rows, sweep.json has %d" % (len(rows) - 1, len(document["rows"])))
    for i, (row, expect) in enumerate(zip(rows[1:], document["rows"]), 2):
        check(len(row) == len(rows[0]), "sweep.csv:%d: %d fields" % (i, len(row)))
        values = [expect["values"][p] for p in params]
        check(row[:len(params)] == values, "sweep.csv:%d: values %s, expected %s" % (i, row, values))
        got = [number(x) for x in row[len(params) + 4:]]
        want = [expect[k] for k in ("mean", "sd", "ci_low", "ci_high")]
        check(got == want and int(row[len(params) + 3]) == expect["n"],
              "sweep.csv:%d: numbers %s, sweep.json %s" % (i, got, want))
    check(any(r[1] == "[dra, extended]" for r in rows[1:]), "sweep.csv: the quoted list reads back whole")


def check_page(path):
    browser = check_html.chromium()
    if browser is None:
        print("note: chromium not installed, sweep.html not checked in a browser")
        return
    with tempfile.TemporaryDirectory() as profile:
        dom = check_html.run(browser, profile, "--dump-dom", "file://" + path).stdout
    attrs = check_html.body_attrs(dom)
    check(attrs.get("data-check") == "ok" and attrs.get("data-charts") == "4"
          and attrs.get("data-errors") == "0", "sweep.html in chromium: %s" % attrs)


def main():
    exe, schema_path = sys.argv[1:3]
    with open(schema_path) as f:
        schema = json.load(f)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([exe, out], check=True)
        with open(os.path.join(out, "sweep.json")) as f:
            document = json.load(f)
        errors = schema_errors(schema, document)
        check(not errors, "fake sweep: %s" % errors)
        bad = copy.deepcopy(document)
        bad["rows"][0]["n"] = "three"
        del bad["failures"][0]["seed"]
        check(len(schema_errors(schema, bad)) == 2, "a corrupted sweep.json must give 2 errors")
        check_csv(os.path.join(out, "sweep.csv"), document)
        check_page(os.path.join(out, "sweep.html"))
    print("%d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
