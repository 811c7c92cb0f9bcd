#!/usr/bin/env python3
"""k8s_job_local.py DRASIM SOURCE_ROOT WORK_DIR: the Indexed Job of
`drasim sweep --k8s`, executed here the way Kubernetes would execute it,
gives the results of a local run byte for byte.

No cluster is involved: for each index I of `completions`, the container's
`command` is expanded as the kubelet expands it (JOB_COMPLETION_INDEX = I,
`$(VAR)` replaced, `$$` read as `$`; pkg/kubelet/container
ExpandContainerCommandAndArgs) and run with this build's drasim in place of
the image's; then `drasim sweep merge DIR`. The sweep (2 node counts x 2 seeds
of scenarios/dgx-h100-capacity, copied under WORK_DIR so that the mount root
is WORK_DIR) goes into a folder whose name holds a space, a quote and
`$(HOME)`, which the manifest must carry to the container unexpanded. Checks:
the claim's mountPath holds the folder and the scenario, every index exits 0,
and sweep.json and sweep.csv equal those of `--jobs 2`.
"""
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys


def fail(msg):
    print(f"k8s_job_local: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def run(argv, env=None):
    p = subprocess.run(argv, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"{argv} exited with {p.returncode}:\n{p.stdout}{p.stderr}")
    return p.stdout


def kubelet_expand(arg, env):
    """$(NAME) is the variable's value when it is defined (left as written
    when not); $$ is one $; any other $ stays."""
    out, i = [], 0
    while i < len(arg):
        if arg.startswith("$$", i):
            out.append("$")
            i += 2
            continue
        m = re.match(r"\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)", arg[i:])
        if m and m.group(1) in env:
            out.append(env[m.group(1)])
            i += m.end()
            continue
        out.append(arg[i])
        i += 1
    return "".join(out)


def job_fields(text):
    """completions, mountPath and the command of the manifest drasim writes:
    the command is a YAML flow sequence of double-quoted strings, which JSON
    reads the same way."""
    completions = re.search(r"^  completions: (\d+)$", text, re.M)
    mount = re.search(r"^              mountPath: (\".*\")$", text, re.M)
    command = re.search(r"^          command: (\[.*?\])$", text, re.M | re.S)
    if not (completions and mount and command):
        fail(f"completions, mountPath or command not found in:\n{text}")
    return (int(completions.group(1)), json.loads(mount.group(1)),
            json.loads(command.group(1).replace("\n", " ")))


def main():
    drasim, source_root, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    scenario_dir = os.path.join(work, "scenario")
    shutil.copytree(os.path.join(source_root, "scenarios", "dgx-h100-capacity"), scenario_dir)
    scenario = os.path.join(scenario_dir, "scenario.yaml")
    k8s_dir = os.path.join(work, "k8s 'out' $(HOME)")
    local_dir = os.path.join(work, "local")
    sweep = [drasim, "sweep", scenario, "--vary", "spec.cluster.nodePools[0].count=3,4",
             "--seeds", "1-2", "--horizon", "12h"]

    run(sweep + ["--jobs", "2", "-o", local_dir])
    run(sweep + ["--k8s", "--tasks", "3", "-o", k8s_dir])
    with open(os.path.join(k8s_dir, "sweep-job.yaml"), encoding="utf-8") as f:
        completions, mount, command = job_fields(f.read())
    if completions != 3:
        fail(f"completions {completions}, expected 3 (--tasks 3)")
    # The mount root is the deepest folder holding both: WORK_DIR.
    if mount != os.path.abspath(work):
        fail(f"mountPath {mount}, expected {os.path.abspath(work)}")
    if command[0] != "drasim":
        fail(f"the command runs {command[0]}, expected drasim from the image's PATH")
    for index in range(completions):
        env = {"JOB_COMPLETION_INDEX": str(index), "HOME": "/nonexistent"}
        argv = [drasim] + [kubelet_expand(a, env) for a in command[1:]]
        if argv[3] != os.path.abspath(k8s_dir):
            fail(f"index {index}: the folder reaches the container as {argv[3]!r}")
        run(argv, env=dict(os.environ, **env))
    run([drasim, "sweep", "merge", k8s_dir])
    for name in ("sweep.json", "sweep.csv"):
        if not filecmp.cmp(os.path.join(local_dir, name), os.path.join(k8s_dir, name),
                           shallow=False):
            fail(f"{name} differs between --jobs 2 and the Job's indexes")
        print(f"k8s_job_local: {name}: the same bytes from --jobs 2 and from 3 Job indexes")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
