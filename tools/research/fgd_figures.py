#!/usr/bin/env python3
"""Renders the figures of docs/research/fgd-and-dra.md from an FGD experiment's page.

Usage: fgd_figures.py FGD_HTML OUTDIR [--chromium PATH]

`drasim experiment fgd --format html` draws fgd.html; this script cuts its first trace's sections
(the Fig. 9a curves, the close-up from 80 %, the bars at 100 %) into pages of their own and
screenshots each with headless Chromium into OUTDIR/fgd-dra-{fig9a,knee,bars}.png. The pictures are
the page's own charts, so they show the same numbers as fgd.json.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# section title prefix -> (file name, window width, window height)
SECTIONS = [("Unallocated GPU against arrived GPU", "fgd-dra-fig9a", 1440, 1060),
            ("The same from 80 % arrived", "fgd-dra-knee", 1000, 2090),
            ("Unallocated GPU at 100 % arrival", "fgd-dra-bars", 1240, 390)]


def sections(page):
    head = page[:page.index("<body")]
    starts = [m.start() for m in re.finditer("<h3>", page)]
    ends = starts[1:] + [page.index("</body>")]
    for a, b in zip(starts, ends):
        yield page[a + 4:page.index("</h3>", a)], head + "<body>" + page[a:b] + "</body></html>"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fgd_html")
    ap.add_argument("outdir")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = ap.parse_args()
    with open(args.fgd_html) as f:
        page = f.read()
    os.makedirs(args.outdir, exist_ok=True)
    made = 0
    with tempfile.TemporaryDirectory() as tmp:
        for title, html in sections(page):
            for prefix, name, width, height in SECTIONS:
                if not title.startswith(prefix) or os.path.exists(os.path.join(tmp, name)):
                    continue
                src = os.path.join(tmp, name + ".html")
                with open(src, "w") as f:
                    f.write(html)
                open(os.path.join(tmp, name), "w").close()  # first trace only
                out = os.path.abspath(os.path.join(args.outdir, name + ".png"))
                subprocess.run([args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                "--hide-scrollbars", "--screenshot=" + out,
                                "--window-size=%d,%d" % (width, height), "file://" + src],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                print(out)
                made += 1
    if made != len(SECTIONS):
        print("fgd_figures: found %d of %d sections in %s" % (made, len(SECTIONS), args.fgd_html),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
