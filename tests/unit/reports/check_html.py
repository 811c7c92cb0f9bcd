#!/usr/bin/env python3
"""The HTML form in headless Chromium.

Loads the fake report's page from a file: URL with networking off, dumps the
DOM after its scripts ran and reads what the page's own check wrote on
<body>: data-check="ok" (every chart parsed and has data, no script error)
and the chart count. A page with an empty mode must report "fail" naming
its empty charts, which shows the check can fail. With DRASIM and a
SCENARIO, the same check runs on a real run's page (`drasim compare
--format html`): every mode must show its seven charts (six, plus the GPU
slice picture for modes with MIG or shared GPUs), all with data, and no
script error. Screenshots are kept in the build directory as test artifacts
(html-report.png, html-scenario.png).
Exits 77 (skipped) with a reason when chromium is not installed.
Usage: check_html.py FAKE_REPORT_EXE ARTIFACT_DIR [DRASIM SCENARIO MIN_CHARTS]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--hide-scrollbars"]


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run(browser, profile, *args):
    result = subprocess.run([browser] + FLAGS + ["--user-data-dir=" + profile] + list(args),
                            capture_output=True, text=True, timeout=120)
    return result


def body_attrs(dom):
    match = re.search(r"<body([^>]*)>", dom)
    return dict(re.findall(r'([\w-]+)="([^"]*)"', match.group(1))) if match else {}


def screenshot(browser, tmp, url, shot):
    run(browser, os.path.join(tmp, "profile-shot-" + os.path.basename(shot)),
        "--screenshot=" + shot, "--window-size=1280,2400", url)
    good = os.path.exists(shot) and os.path.getsize(shot) > 1000
    print("%s: screenshot %s" % ("ok" if good else "FAIL", shot))
    return good


def check_scenario(browser, tmp, artifacts, drasim, scenario, min_charts):
    """A real run's page: every chart drawn with data, no script error."""
    out = os.path.join(tmp, "scenario")
    subprocess.run([drasim, "compare", "--format", "html", "-o", out, scenario], check=True,
                   stdout=subprocess.DEVNULL)
    url = "file://" + os.path.join(out, "report.html")
    dom = run(browser, os.path.join(tmp, "profile-scenario"), "--dump-dom", url).stdout
    attrs = body_attrs(dom)
    ids = re.findall(r'<svg class="chart" id="([^"]+)" data-points="(\d+)"', dom)
    empty = [i for i, n in ids if int(n) == 0]
    ok = (attrs.get("data-check") == "ok" and attrs.get("data-errors") == "0" and
          int(attrs.get("data-charts", "0")) >= min_charts and not empty and
          any(i.endswith("-slices") for i, _ in ids) and
          any(i.endswith("-fragmentation") for i, _ in ids) and
          any(i.endswith("-heatmap") for i, _ in ids))
    print("%s: scenario %s (%s; empty: %s)" % ("ok" if ok else "FAIL",
                                              os.path.basename(os.path.dirname(scenario)),
                                              attrs, empty))
    os.makedirs(artifacts, exist_ok=True)
    return ok, screenshot(browser, tmp, url, os.path.join(artifacts, "html-scenario.png"))


def main():
    exe, artifacts = sys.argv[1:3]
    browser = chromium()
    if browser is None:
        print("SKIP: chromium is not installed (Debian package `chromium`; tools/dev installs it, CI has it)")
        return 77
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for label, extra, expect in (("full", [], "ok"), ("empty-mode", ["1.0", "empty"], "fail")):
            out = os.path.join(tmp, label)
            subprocess.run([exe, out] + extra, check=True)
            url = "file://" + os.path.join(out, "report.html")
            dom = run(browser, os.path.join(tmp, "profile-" + label), "--dump-dom", url).stdout
            attrs = body_attrs(dom)
            ok = attrs.get("data-check") == expect and int(attrs.get("data-charts", "0")) >= 14
            if label == "empty-mode":
                ok = ok and "m2-allocation" in attrs.get("data-empty-charts", "")
            else:
                ok = ok and attrs.get("data-errors") == "0"
            print("%s: %s (%s)" % ("ok" if ok else "FAIL", label, attrs))
            passed += ok
            failed += not ok
            if label == "full":
                os.makedirs(artifacts, exist_ok=True)
                good = screenshot(browser, tmp, url, os.path.join(artifacts, "html-report.png"))
                passed += good
                failed += not good
        if len(sys.argv) >= 6:
            for good in check_scenario(browser, tmp, artifacts, sys.argv[3], sys.argv[4],
                                       int(sys.argv[5])):
                passed += good
                failed += not good
    print("%d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
