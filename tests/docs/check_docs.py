#!/usr/bin/env python3
"""check_docs.py --drasim BIN --root ROOT [--timeout S] [DOC...]: runs every
drasim command that README.md, docs/**/*.md and scenarios/*/README.md show,
and checks its exit code.

Which lines are commands. In a fenced block labelled sh, bash, shell or
console, a line that starts with `drasim ` or `$ drasim ` is a command (a
line ending in a backslash continues on the next one); in a console block
only `$ ` lines are commands, the rest is output. A `$ drasim` line in a
block with any other label (or none) is a failure: the page shows it as a
command that nothing checks. Synopses (`drasim run SCENARIO [--mode M]`) go in
text blocks, without `$ `.

What is expected. Exit 0, unless the command's trailing comment starts
with `# exit N` (`# exit 1: why`).
A command whose trailing comment has `# long` is skipped, and the skip is
printed.

Where it runs. Each fenced block gets a fresh temporary directory that holds
a symbolic link to every top-level entry of ROOT (scenarios/, tests/,
docs/, ...; not build folders, out/ or .git) and `drasim` on PATH is BIN, so
the paths the docs use resolve as from the repository root and every output
(`-o out`, `> file`) lands in the temporary directory. Commands of one block
share it, as in one shell session. A command whose `-o`/`--output` names a
path through one of those links, or an absolute path, is refused: it would
write into the checkout.

Prints each failure with its FILE:LINE, the command and the end of its
output, each skip with its reason, and "N passed, N failed, N skipped".
"""
import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

RUN_LABELS = {"sh", "bash", "shell", "console"}
FENCE = re.compile(r"^\s*(```+|~~~+)\s*([A-Za-z0-9_+-]*)")
EXIT_NOTE = re.compile(r"#\s*exit\s+(\d+)\b")
LONG_NOTE = re.compile(r"#\s*long\b")
OUTPUT_FLAGS = ("-o", "--output")


class Command:
    def __init__(self, doc, line, block, text):
        self.doc, self.line, self.block, self.text = doc, line, block, text

    def where(self):
        return f"{self.doc}:{self.line}"


def doc_files(root):
    docs = [os.path.join(root, "README.md")]
    docs += sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    docs += sorted(glob.glob(os.path.join(root, "scenarios", "*", "README.md")))
    return [d for d in docs if os.path.isfile(d)]


def command_start(line, label):
    """The command on this line, or None: `$ drasim ...` anywhere it runs,
    bare `drasim ...` only outside console blocks (there it is output)."""
    stripped = line.strip()
    if stripped.startswith("$ drasim "):
        return stripped[2:]
    if label != "console" and stripped.startswith("drasim "):
        return stripped
    return None


def extract(path, rel):
    """(commands, misplaced): the commands of runnable blocks, and the
    FILE:LINE of `$ drasim` lines in blocks that are not run."""
    commands, misplaced = [], []
    label, block, pending = None, 0, None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fence = FENCE.match(line)
            if fence and label is None:
                label, block = fence.group(2).lower() or "(none)", block + 1
                continue
            if fence:
                label, pending = None, None
                continue
            if label is None:
                continue
            if pending is not None:
                part = line.strip()
                part = part[2:] if part.startswith("> ") else part
                pending.text = pending.text[:-1].rstrip() + " " + part
                pending = pending if part.endswith("\\") else None
                continue
            if label not in RUN_LABELS:
                if line.strip().startswith("$ drasim "):
                    misplaced.append(f"{rel}:{number}")
                continue
            text = command_start(line, label)
            if text is not None:
                cmd = Command(rel, number, f"{rel}#{block}", text)
                commands.append(cmd)
                pending = cmd if text.endswith("\\") else None
    return commands, misplaced


def checkout_links(root):
    skip = {".git", "out"}
    return [e for e in sorted(os.listdir(root))
            if e not in skip and not e.startswith("build") and not e.startswith(".")]


def make_workdir(root, tmp, index):
    work = os.path.join(tmp, f"block-{index}")
    os.makedirs(work)
    for entry in checkout_links(root):
        os.symlink(os.path.join(root, entry), os.path.join(work, entry))
    return work


def writes_into_checkout(text, links):
    """The -o/--output value that would land in the checkout, or None."""
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        return None
    for i, word in enumerate(words):
        value = None
        if word in OUTPUT_FLAGS and i + 1 < len(words):
            value = words[i + 1]
        elif word.startswith("--output="):
            value = word.split("=", 1)[1]
        if value is None or value in ("yaml", "json"):  # allocate's -o yaml|json is a format
            continue
        if os.path.isabs(value) or value.split("/", 1)[0] in links:
            return value
    return None


def run_one(cmd, work, env, timeout, links):
    """(None or the failure, seconds taken): None when the command behaved as
    the doc says."""
    expected = EXIT_NOTE.search(cmd.text)
    expected = int(expected.group(1)) if expected else 0
    target = writes_into_checkout(cmd.text, links)
    if target is not None:
        return f"-o {target} would write into the checkout; use a relative path such as out/NAME", 0
    start = time.monotonic()
    try:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", cmd.text], cwd=work, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"still running after {timeout} s (mark it '# long' if it is meant to be)", timeout
    took = time.monotonic() - start
    if done.returncode == expected:
        return None, took
    tail = (done.stderr.strip() or done.stdout.strip()).splitlines()[-6:]
    return f"exit {done.returncode}, the doc expects {expected}\n    " + "\n    ".join(tail), took


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drasim", required=True, help="the built drasim binary")
    ap.add_argument("--root", required=True, help="the source checkout")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per command")
    ap.add_argument("docs", nargs="*", help="pages to check (default: README.md, docs/**/*.md, scenarios/*/README.md)")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    docs = [os.path.abspath(d) for d in args.docs] or doc_files(root)

    tmp = tempfile.mkdtemp(prefix="drasim-docs-")
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    os.symlink(os.path.abspath(args.drasim), os.path.join(bindir, "drasim"))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    links = set(checkout_links(root))

    passed = failed = skipped = 0
    workdirs = {}
    try:
        for doc in docs:
            rel = os.path.relpath(doc, root)
            commands, misplaced = extract(doc, rel)
            for where in misplaced:
                print(f"FAIL {where}: a '$ drasim' command in a block that is not run; "
                      "label the block console (or sh), or drop the '$ ' of a synopsis")
                failed += 1
            for cmd in commands:
                if LONG_NOTE.search(cmd.text):
                    print(f"SKIP {cmd.where()}: marked '# long': {cmd.text}")
                    skipped += 1
                    continue
                if cmd.block not in workdirs:
                    workdirs[cmd.block] = make_workdir(root, tmp, len(workdirs))
                problem, took = run_one(cmd, workdirs[cmd.block], env, args.timeout, links)
                if problem is None:
                    print(f"ok   {cmd.where()} ({took:.1f} s): {cmd.text}")
                    passed += 1
                else:
                    print(f"FAIL {cmd.where()}: {cmd.text}\n    {problem}")
                    failed += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if passed + failed == 0:
        print("FAIL: no drasim command found in the docs; the extraction is broken")
        failed += 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
