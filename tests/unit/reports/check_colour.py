#!/usr/bin/env python3
"""check_colour.py DRASIM SCENARIO: the text report is in colour only when
stdout is a terminal and NO_COLOR is unset or empty (https://no-color.org).

Runs `drasim run SCENARIO` (text on stdout) four ways: on a pseudo-terminal
(colour expected), on a pseudo-terminal with NO_COLOR=1 (none), on a
pseudo-terminal with NO_COLOR set but empty (colour: the spec disables colour
only for a non-empty value), and into a pipe (none). Exit 0 when all four
hold, 1 otherwise, 77 (skipped) when no pseudo-terminal can be opened.
"""
import os
import pty
import subprocess
import sys

ESC = b"\033["


def run_on_pty(command, env):
    """Runs command with stdout on a fresh pty; returns (status, bytes written)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(command, stdout=slave, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return proc.wait(), b"".join(chunks)


def main():
    drasim, scenario = sys.argv[1], sys.argv[2]
    command = [drasim, "run", scenario]
    base = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    try:
        for fd in os.openpty():
            os.close(fd)
    except OSError as error:
        print("SKIP: no pseudo-terminal available (%s)" % error)
        return 77
    cases = [
        ("tty", run_on_pty(command, base), True),
        ("tty, NO_COLOR=1", run_on_pty(command, dict(base, NO_COLOR="1")), False),
        ("tty, NO_COLOR empty", run_on_pty(command, dict(base, NO_COLOR="")), True),
    ]
    piped = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=base)
    cases.append(("pipe", (piped.returncode, piped.stdout), False))
    failures = 0
    for name, (status, out), want_colour in cases:
        has_colour = ESC in out
        ok = status == 0 and b"Summary" in out and has_colour == want_colour
        print("%s %s: exit %d, colour %s (expected %s)" % (
            "ok" if ok else "FAIL", name, status, "yes" if has_colour else "no",
            "yes" if want_colour else "no"))
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
