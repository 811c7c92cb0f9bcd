#!/usr/bin/env python3
"""The FGD page (reports/rpt_fgd*.c) in headless Chromium.

Draws tests/data/fgd/small.json with rpt-fgd-page, loads it from a file: URL
with networking off and reads what the page's own check wrote on <body>
(rpt_html.c): data-check="ok" (every chart parsed and holds data, no script
error) and the chart count. small.json has 1 trace and 2 worlds, so 7 charts:
unallocated against arrived, whole axis and from 80 %, for both worlds (4),
the bars (1), and gpushare's two fragment charts (dra-mig has no fragment: a
note, no empty chart). Keeps a screenshot (fgd-small.png) in the build
directory. Exits 77 (skipped) when chromium is not installed.
Usage: check_fgd_html.py RPT_FGD_PAGE_EXE FGD_JSON ARTIFACT_DIR
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_html import body_attrs, chromium, run, screenshot  # noqa: E402

EXPECTED_CHARTS = 7


def main():
    exe, fixture, artifacts = sys.argv[1:4]
    browser = chromium()
    if browser is None:
        print("SKIP: chromium is not installed (Debian package `chromium`)")
        return 77
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "fgd.html")
        if not os.path.exists(exe) or os.spawnv(os.P_WAIT, exe, [exe, fixture, page]) != 0:
            print("FAIL: %s could not draw %s" % (exe, fixture))
            return 1
        url = "file://" + page
        attrs = body_attrs(run(browser, os.path.join(tmp, "profile"), "--dump-dom", url).stdout)
        ok = (attrs.get("data-check") == "ok" and attrs.get("data-errors") == "0" and
              attrs.get("data-charts") == str(EXPECTED_CHARTS))
        print("%s: small.json in Chromium (%s)" % ("ok" if ok else "FAIL", attrs))
        passed += ok
        failed += not ok
        os.makedirs(artifacts, exist_ok=True)
        good = screenshot(browser, tmp, url, os.path.join(artifacts, "fgd-small.png"))
        passed += good
        failed += not good
    print("%d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
