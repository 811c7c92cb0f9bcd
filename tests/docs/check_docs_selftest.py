#!/usr/bin/env python3
"""check_docs_selftest.py CHECK_DOCS DRASIM ROOT: check_docs.py must fail on
pages that are wrong, and count each case as its docstring says.

data/wrong-flag.md shows `drasim run ... --mdoe dra` (a misspelt --mode):
expected "0 passed, 1 failed, 0 skipped" and exit 1. data/mixed.md has one
block of each kind, worked out by hand: `drasim version` passes, a usage error
annotated `# exit 2` passes, a `# long` command is skipped, and three fail
(a `$ drasim` line in an unlabelled block, exit 0 where `# exit 1` is
written, an -o into scenarios/ of the checkout): "2 passed, 3 failed, 1
skipped", exit 1. Prints "N passed, N failed, N skipped" over these checks.
"""
import os
import subprocess
import sys

CASES = [
    ("wrong-flag.md", "0 passed, 1 failed, 0 skipped", ["--mdoe"]),
    ("mixed.md", "2 passed, 3 failed, 1 skipped", ["would write into the checkout",
                                                   "block that is not run",
                                                   "exit 0, the doc expects 1",
                                                   "marked '# long'"]),
]


def main():
    check, drasim, root = sys.argv[1:4]
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
    passed = failed = 0
    for page, summary, phrases in CASES:
        done = subprocess.run([sys.executable, check, "--drasim", drasim, "--root", root,
                               os.path.join(here, page)], capture_output=True, text=True)
        lines = done.stdout.strip().splitlines()
        problems = []
        if done.returncode != 1:
            problems.append(f"exit {done.returncode}, expected 1")
        if not lines or lines[-1] != summary:
            problems.append(f"last line {lines[-1] if lines else '(none)'!r}, expected {summary!r}")
        problems += [f"no line says {p!r}" for p in phrases if p not in done.stdout]
        if problems:
            failed += 1
            print(f"FAIL {page}: " + "; ".join(problems) + "\n" + done.stdout)
        else:
            passed += 1
            print(f"ok   {page}: {summary}")
    print(f"{passed} passed, {failed} failed, 0 skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
