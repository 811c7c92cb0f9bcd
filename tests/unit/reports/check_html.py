#!/usr/bin/env python3
"""The HTML form in headless Chromium.

Loads the fake report's page from a file: URL with networking off, dumps the
DOM after its scripts ran and reads what the page's own check wrote on
<body>: data-check="ok" (every chart parsed and has data, no script error)
and the chart count. A page with an empty mode must report "fail" naming
its empty charts, which shows the check can fail. A screenshot is kept in
the build directory as a test artifact (html-report.png).
Exits 77 (skipped) with a reason when chromium is not installed.
Usage: check_html.py FAKE_REPORT_EXE ARTIFACT_DIR
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
                shot = os.path.join(artifacts, "html-report.png")
                run(browser, os.path.join(tmp, "profile-shot"), "--screenshot=" + shot,
                    "--window-size=1280,2400", url)
                good = os.path.exists(shot) and os.path.getsize(shot) > 1000
                print("%s: screenshot %s" % ("ok" if good else "FAIL", shot))
                passed += good
                failed += not good
    print("%d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
