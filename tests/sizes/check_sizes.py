#!/usr/bin/env python3
"""check_sizes.py ROOT: the size rules of docs/architecture.md ("Sizes").

Every C source or header that git tracks is at most 800 lines, and every
function body at most 80 lines. A function may be longer only when it is a
table or a switch that reads better whole and says so: a comment in the five
lines above its definition containing "reads better whole" (and why).

A function is found the way the house style writes it (clang-format, Linux
brace style): its opening brace alone in column 0, its closing brace in column
0. The count runs from the line with the function's name to the closing brace.
Prints each breach as FILE:LINE and a final line "N passed, N failed, N skipped".
"""
import os
import re
import subprocess
import sys

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 80
EXEMPT = "reads better whole"


def tracked_sources(root):
    """The sources git tracks; outside a git checkout, every source below root
    except build folders (build*, the meson default names)."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "*.c", "*.h", "*.cc"],
                             capture_output=True, text=True, check=True).stdout
        return sorted(f for f in out.split() if f)
    except (OSError, subprocess.CalledProcessError):
        found = []
        for top, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(("build", "."))]
            found += [os.path.relpath(os.path.join(top, f), root)
                      for f in files if f.endswith((".c", ".h", ".cc"))]
        return sorted(found)


def functions(lines):
    """Yield (name, first line index, line count) of each function body."""
    i = 0
    while i < len(lines):
        if lines[i].startswith("{") and i > 0:
            head = i - 1
            while head > 0 and "(" not in lines[head]:
                head -= 1
            m = re.search(r"(\w+)\s*\(", lines[head])
            end = i + 1
            while end < len(lines) and not lines[end].startswith("}"):
                end += 1
            yield (m.group(1) if m else "?"), head, end - head + 1
            i = end
        i += 1


def check_file(root, path, failures):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    ok = True
    if len(lines) > MAX_FILE_LINES:
        failures.append(f"{path}: {len(lines)} lines (at most {MAX_FILE_LINES})")
        ok = False
    for name, head, count in functions(lines):
        if count <= MAX_FUNCTION_LINES:
            continue
        above = "\n".join(lines[max(0, head - 5):head])
        if EXEMPT in above:
            continue
        failures.append(f"{path}:{head + 1}: function {name} is {count} lines "
                        f"(at most {MAX_FUNCTION_LINES}, or a comment above it saying why it "
                        f"\"{EXEMPT}\")")
        ok = False
    return ok


def main():
    root = sys.argv[1]
    failures = []
    passed = failed = 0
    for path in tracked_sources(root):
        if check_file(root, path, failures):
            passed += 1
        else:
            failed += 1
    for line in failures:
        print(line)
    print(f"{passed} passed, {failed} failed, 0 skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
