#!/usr/bin/env python3
"""The HTML form: a structural check of its SVG, then headless Chromium.

The structural check (no browser needed) parses every <svg class="chart">:
it must have a series with at least two points (a polyline), bars or
rects, or say why it has none (data-nodata="1" and a text); an axis
(data-x, data-y) must span lo < hi and its tick labels (text.xt, text.yt)
must be distinct. It is shown to fail on a page doctored to have an empty
chart and a 0-0 axis.

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
import html.parser
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
          any(i == "fragmentation" for i, _ in ids) and any(i == "slowdown-cdf" for i, _ in ids) and
          any(i.endswith("-heatmap") for i, _ in ids))
    print("%s: scenario %s (%s; empty: %s)" % ("ok" if ok else "FAIL",
                                              os.path.basename(os.path.dirname(scenario)),
                                              attrs, empty))
    os.makedirs(artifacts, exist_ok=True)
    return ok, screenshot(browser, tmp, url, os.path.join(artifacts, "html-scenario.png"))


class Charts(html.parser.HTMLParser):
    """Each chart's attributes, polyline point counts, rect count, tick labels and texts."""

    def __init__(self):
        super().__init__()
        self.charts, self.depth, self.tick = [], 0, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and "chart" in (a.get("class") or "").split():
            self.charts.append({"attrs": a, "lines": [], "rects": 0, "xt": [], "yt": [],
                                "texts": []})
            self.depth = 1
            return
        if not self.depth:
            return
        if tag == "svg":
            self.depth += 1
        chart = self.charts[-1]
        if tag == "polyline":
            chart["lines"].append(len((a.get("points") or "").split()))
        elif tag in ("rect", "circle", "line") and "swatch" not in (a.get("class") or ""):
            chart["rects"] += tag != "line"
        elif tag == "text":
            classes = (a.get("class") or "").split()
            self.tick = "xt" if "xt" in classes else "yt" if "yt" in classes else "texts"

    def handle_endtag(self, tag):
        if self.depth and tag == "svg":
            self.depth -= 1
        if tag == "text":
            self.tick = None

    def handle_data(self, data):
        if self.depth and self.tick:
            self.charts[-1][self.tick].append(data)


def chart_problems(page):
    """What is wrong with each chart of @page (text): [] when every chart is sound."""
    parser = Charts()
    parser.feed(page)
    problems = []
    for chart in parser.charts:
        a, cid = chart["attrs"], chart["attrs"].get("id")
        if a.get("data-nodata") == "1":
            if not chart["texts"][1:]:
                problems.append(cid + ": no data and no text saying why")
            continue
        if not any(n >= 2 for n in chart["lines"]) and chart["rects"] == 0:
            problems.append(cid + ": no series with two points")
        for axis in ("x", "y"):
            if "data-" + axis not in a:
                if chart["lines"]:  # a line chart must declare its axes' ranges
                    problems.append("%s: no data-%s range" % (cid, axis))
                continue
            lo, hi = (float(v) for v in a["data-" + axis].split())
            labels = chart[axis + "t"]
            if not lo < hi:
                problems.append("%s: %s axis %g..%g" % (cid, axis, lo, hi))
            if not labels or len(set(labels)) != len(labels):
                problems.append("%s: %s tick labels %s" % (cid, axis, labels))
    if not parser.charts:
        problems.append("no chart")
    return problems


def structural(page_path):
    """The page passes; the same page with a chart emptied and an axis made 0-0 fails."""
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    good = chart_problems(page)
    bad_page = re.sub(r'<polyline[^>]*/>', "", page)
    bad_page = re.sub(r'data-y="[^"]*"', 'data-y="0 0"', bad_page, count=1)
    bad = chart_problems(bad_page)
    ok = not good and any("no series" in p for p in bad) and any("axis 0..0" in p for p in bad)
    print("%s: structure of %s (problems: %s; doctored page: %d problems)" %
          ("ok" if ok else "FAIL", os.path.basename(page_path), good, len(bad)))
    return ok


def main():
    exe, artifacts = sys.argv[1:3]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "structural")
        subprocess.run([exe, out], check=True)
        good = structural(os.path.join(out, "report.html"))
        if len(sys.argv) >= 6:
            scenario_out = os.path.join(tmp, "structural-scenario")
            subprocess.run([sys.argv[3], "compare", "--format", "html", "-o", scenario_out,
                            sys.argv[4]], check=True, stdout=subprocess.DEVNULL)
            good = structural(os.path.join(scenario_out, "report.html")) and good
        passed += good
        failed += not good
    browser = chromium()
    if browser is None:
        print("SKIP: chromium is not installed (Debian package `chromium`; tools/dev installs it, CI has it)")
        print("%d passed, %d failed, 1 skipped" % (passed, failed))
        return 1 if failed else 77
    with tempfile.TemporaryDirectory() as tmp:
        for label, extra, expect in (("full", [], "ok"), ("empty-mode", ["1.0", "empty"], "fail")):
            out = os.path.join(tmp, label)
            subprocess.run([exe, out] + extra, check=True)
            url = "file://" + os.path.join(out, "report.html")
            dom = run(browser, os.path.join(tmp, "profile-" + label), "--dump-dom", url).stdout
            attrs = body_attrs(dom)
            ok = attrs.get("data-check") == expect and int(attrs.get("data-charts", "0")) >= 9
            if label == "empty-mode":
                ok = ok and "m2-heatmap" in attrs.get("data-empty-charts", "")
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
