#!/usr/bin/env python3
"""drasim's benchmark harness (`drasim bench`): runs the benchmark programs of a
build directory and writes a `drasim.io/bench/v2` file (docs/reports.md).

The file is scheduler_perf's DataItems (test/integration/scheduler_perf/util.go:
{"version": "v1", "dataItems": [{"data": {bucket: number}, "unit", "labels"}]}).
Each benchmark gives, under labels {"Name", "Metric", "Family"}:
  wall_time     unit ns: "Value" (the median) and Average/Perc50/Perc90/Perc99
                over the runs (CEL: ns per evaluation, over the timed passes);
  instructions  unit instructions: "Value", the callgrind count of one run
                (CEL: per evaluation, the timed passes only);
  throughput    events/s (PHOLD, measured inside the program) or pods/s
                (end to end: submitted pods / wall time), where it applies.
Callgrind counts are deterministic and stable on a noisy shared machine, wall
times are not, so the regression gate (`--check`) is on instructions only.

The families: CEL evaluation (tools/bench/celeval), allocator fill and
hard cases (bench-alloc), engine PHOLD (tools/bench/phold), end to end
(`drasim run` on tools/bench/e2e and tests/scenario/bench scenarios), growth (rows
of tools/growth's table, docs/cluster.md "Growth"); besides,
the API/lint loaders and, in the full suite, the Node.js CEL peers of
tools/bench/cel (wall time only). A program that is not built, or peers that
are not installed, are skipped with the reason.

Usage: run_bench.py --build DIR [--quick] [-o FILE] [--check BASELINE]
                    [--runs N] [--no-callgrind] [--all-instructions]
Exit: 0, 1 on a failed benchmark or a --check regression, 77 when --check
cannot compare (no valgrind, or a build unlike the baseline's).
"""
import argparse
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SCHEMA = "drasim.io/bench/v2"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CELEVAL = "tools/bench/celeval/celeval"
ALLOC = "tests/unit/dra/bench-alloc"
PHOLD = "tools/bench/phold/phold"
DRASIM = "sim/cli/drasim"
FGD = "tools/bench/fgd/fgd"
OPENB = os.path.join(ROOT, "..", "shared", "traces", "alibaba-gpu-v2023", "csv")
# The FGD paper's 17 openb traces (issue 15: all 1,020 runs in at most 15 minutes with --jobs 2).
FGD_TRACES = ["default", "cpu050", "cpu100", "cpu200", "cpu250", "gpushare40", "gpushare60",
              "gpushare80", "gpushare100", "gpuspec10", "gpuspec20", "gpuspec25", "gpuspec33",
              "multigpu20", "multigpu30", "multigpu40", "multigpu50"]


def bench(name, family, exe, args, sets="full", runs=None, callgrind=True, kind="process"):
    """One benchmark, in the "quick" subset, the "full" suite or "both". callgrind=False: no
    instruction count unless --all-instructions (tens of minutes under callgrind); runs
    overrides --runs."""
    return {"name": name, "family": family, "exe": exe, "args": args, "sets": sets,
            "runs": runs, "callgrind": callgrind, "kind": kind}


def phold(name, lps, events, sets="full"):
    return bench(name, "phold", PHOLD, ["--lps", str(lps), "--events", str(events), "--runs", "1",
                                        "--json", "--quiet"], sets=sets, kind="phold")


def fgd_one(policy):
    """One run of the FGD protocol (default trace, seed 42): the issue's "< 1 s of CPU"."""
    return bench("fgd_default_" + policy, "fgd", FGD,
                 ["--csv-dir", OPENB, "--trace", "default", "--policy", policy, "--seeds", "42-42",
                  "--points", "100"])


def fgd_all():
    """The paper's 1,020 runs (17 traces x 6 policies x 10 seeds), --jobs 2: wall time only."""
    traces = [a for t in FGD_TRACES for a in ("--trace", t)]
    return bench("fgd_1020_runs_jobs2", "fgd", DRASIM,
                 ["experiment", "fgd", "--csv-dir", OPENB] + traces +
                 ["--seeds", "42-51", "--jobs", "2", "-o", "{tmp}"], runs=1, callgrind=False)


def e2e(name, scenario, sets="full", runs=None, callgrind=True):
    return bench(name, "e2e", DRASIM, ["run", "--format", "json", "-o", "{tmp}",
                                       os.path.join(ROOT, scenario)],
                 sets=sets, runs=runs, callgrind=callgrind, kind="e2e")


def e2e_peak(name, scenario):
    """One end-to-end run for its peak resident memory (ru_maxrss) besides wall and CPU time
    (issue 19: 10,000 nodes with 200,000 pods in 512 MB); no callgrind (minutes natively)."""
    return dict(e2e(name, scenario, runs=1, callgrind=False), kind="e2e_peak")


def growth_row(name, nodes, pods, horizon=None, sets="full", runs=None, callgrind=True):
    """A row of the growth table (tools/growth, docs/cluster.md "Growth"): `drasim run` on the
    scenario tools/growth writes for @nodes DGX H100 nodes and @pods pods (not timed);
    @horizon, when given, stops the run early (an instruction count in CI time)."""
    horizon_args = ["--horizon", horizon] if horizon else []
    return dict(bench(name, "growth", DRASIM, ["run", "--format", "json", "-o", "{tmp}"] +
                      horizon_args + ["{scenario}"], sets=sets, runs=runs, callgrind=callgrind,
                      kind="growth"), nodes=nodes, pods=pods)


def growth_scenario(spec, tmp):
    """Writes @spec's scenario into @tmp with tools/growth; returns its path."""
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "growth"),
                           "--write-scenarios", tmp, "--series", "fixed", "--nodes",
                           str(spec["nodes"]), "--fixed-pods", str(spec["pods"])],
                          check=True, stdout=subprocess.PIPE, text=True)
    return done.stdout.strip()


def import_dump(nodes):
    """`drasim import` of a generated dump of @nodes nodes x 8 GPUs (tools/import/gen_dump.py,
    seed 1): wall time and peak memory (issue 16: 10,000 nodes in under 10 s, linear memory)."""
    return dict(bench("import_%dk_nodes" % (nodes // 1000), "import", DRASIM,
                      ["import", "{dump}", "-o", "{tmp}", "--force"], callgrind=False,
                      kind="import"), nodes=nodes)


# The quick subset runs in CI under callgrind in about 2 to 3 minutes (the growth
# rows' 10 G instructions are most of it); the full suite
# uses the sizes of the issues (CEL: 100,000 devices; PHOLD: N = 1k, 100k, 1M;
# end to end: 100 and 1,000 DGX nodes over a simulated week).
BENCHMARKS = [
    bench("cel_10k", "cel", CELEVAL, ["--devices", "10000", "--passes", "3"], sets="quick",
          kind="cel"),
    bench("cel_100k", "cel", CELEVAL, ["--devices", "100000", "--passes", "5"], kind="cel"),
    bench("alloc_hard", "alloc", ALLOC, ["hard"], sets="both"),
    bench("alloc_fill", "alloc", ALLOC, ["fill"], sets="both"),
    bench("alloc_churn", "alloc", ALLOC, ["churn"]),
    phold("phold_n1k_e200k", 1000, 200000, sets="quick"),
    phold("phold_n1k", 1000, 5000000),
    phold("phold_n100k", 100000, 5000000),
    phold("phold_n1m", 1000000, 10000000),
    e2e("e2e_10nodes", "tools/bench/e2e/e2e-10.yaml", sets="quick"),
    e2e("e2e_100nodes", "tests/scenario/bench/e2e-100.yaml"),
    # About 50 CPU seconds natively, so 40+ minutes under callgrind.
    e2e("e2e_1000nodes", "tests/scenario/bench/e2e-1000.yaml", runs=1, callgrind=False),
    # Peak memory of 10,000 DGX nodes with 200,000 pods (docs/cluster.md "Memory").
    e2e_peak("e2e_10000nodes_200k_pods", "tests/scenario/bench/e2e-10000-200k.yaml"),
    # The Node.js CEL peers of issue 3 (tools/bench/cel), same selectors and
    # devices: wall time only (a JIT's instruction count says nothing stable).
    bench("cel_peer", "cel_peers", "node", ["peers.mjs", "100000"], callgrind=False, runs=1,
          kind="cel_peers"),
    # The FGD paper's protocol (sim/research): one run per policy, then all 1,020.
    fgd_one("Random"), fgd_one("DotProd"), fgd_one("GpuClustering"), fgd_one("GpuPacking"),
    fgd_one("BestFit"), fgd_one("FGD"), fgd_all(),
    bench("lint_1k_slices", "api", "tests/unit/api/bench-lint", ["--slices", "1000", "--runs", "1"]),
    bench("api_load_10k_slices", "api", "tests/unit/api/bench-api-load", []),
    import_dump(1000), import_dump(10000),
    # The growth table's small rows (tools/growth, docs/cluster.md "Growth"): 100 and 1,000
    # nodes at a fixed 20,000 pods, gated (2.5 G and 7.5 G instructions, the same count run to
    # run), and the table's own rows at 200,000 pods (minutes under callgrind: wall time only).
    growth_row("growth_100nodes_20k_pods", 100, 20000, sets="both"),
    growth_row("growth_1000nodes_20k_pods", 1000, 20000, sets="both"),
    growth_row("growth_100nodes_200k_pods", 100, 200000, runs=1, callgrind=False),
    growth_row("growth_1000nodes_200k_pods", 1000, 200000, runs=1, callgrind=False),
]


def nearest_rank(values, q):
    """The nearest-rank percentile (as rpt_percentile: always one of the samples)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100.0 * len(ordered)) - 1)]


def distribution(samples):
    return {"Value": nearest_rank(samples, 50), "Average": round(sum(samples) / len(samples), 1),
            "Perc50": nearest_rank(samples, 50), "Perc90": nearest_rank(samples, 90),
            "Perc99": nearest_rank(samples, 99)}


def item(name, family, metric, unit, data):
    return {"data": data, "unit": unit,
            "labels": {"Name": name, "Metric": metric, "Family": family}}


# Children run in a fixed environment: glibc's MALLOC_PERTURB_ (which meson test sets), or
# MALLOC_CHECK_ or GLIBC_TUNABLES, change the instruction count by up to 10%.
CHILD_ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}


def command_of(spec, build, tmp):
    dump = os.path.join(os.path.dirname(tmp), "dump.yaml")
    scenario = spec.get("scenario", "")
    return [os.path.join(build, spec["exe"])] + [
        a.replace("{tmp}", tmp).replace("{dump}", dump).replace("{scenario}", scenario)
        for a in spec["args"]]


def run_peak_memory(spec, build, tmp):
    """One run; returns (wall ns, CPU ns (user + system), peak resident KiB: ru_maxrss).
    The CPU time is the figure to trust on a shared machine, where wall time waits."""
    command = command_of(spec, build, os.path.join(tmp, "out"))
    start = time.perf_counter_ns()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=CHILD_ENV)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter_ns() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, command)
    return wall, round((usage.ru_utime + usage.ru_stime) * 1e9), usage.ru_maxrss


def import_items(spec, build, tmp, runs):
    """The import family: the dump is generated first (not timed)."""
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "import", "gen_dump.py"),
                    "--nodes", str(spec["nodes"]), "--seed", "1", "-o",
                    os.path.join(tmp, "dump.yaml")], check=True)
    walls, cpus, peaks = zip(*[run_peak_memory(spec, build, tmp)
                               for _ in range(spec["runs"] or runs)])
    return [item(spec["name"], spec["family"], "wall_time", "ns", distribution(list(walls))),
            item(spec["name"], spec["family"], "cpu_time", "ns", distribution(list(cpus))),
            item(spec["name"], spec["family"], "peak_memory", "KiB", {"Value": max(peaks)})]


def peak_items(spec, build, tmp):
    """The e2e_peak kind: one run's wall and CPU time, peak memory and pods/s."""
    wall, cpu, peak = run_peak_memory(spec, build, tmp)
    name, family = spec["name"], spec["family"]
    return [item(name, family, "wall_time", "ns", {"Value": wall}),
            item(name, family, "cpu_time", "ns", {"Value": cpu}),
            item(name, family, "peak_memory", "KiB", {"Value": peak}),
            item(name, family, "throughput", "pods/s",
                 {"Value": round(pods_submitted(tmp) / (wall / 1e9), 1)})]


def run_native(spec, build, tmp):
    """One run; returns (wall ns, stdout)."""
    command = command_of(spec, build, os.path.join(tmp, "out"))
    start = time.perf_counter_ns()
    done = subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, env=CHILD_ENV)
    return time.perf_counter_ns() - start, done.stdout


def callgrind_dumps(spec, build, tmp):
    """Runs once under callgrind; returns {dump trigger: instructions}. The trigger is
    "Program termination" for the whole run, or the name a client request dumped."""
    out = os.path.join(tmp, "callgrind.out")
    command = command_of(spec, build, os.path.join(tmp, "out"))
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + command,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=CHILD_ENV)
    dumps = {}
    for path in glob.glob(out + "*"):
        trigger, count = None, None
        with open(path) as f:
            for line in f:
                match = re.match(r"desc: Trigger: (?:Client Request: )?(.*)", line)
                if match:
                    trigger = match.group(1).strip()
                match = re.match(r"summary:\s+(\d+)", line)
                if match:
                    count = int(match.group(1))
        if trigger is not None and count is not None:
            dumps[trigger] = count
        os.unlink(path)
    return dumps


def pods_submitted(tmp):
    with open(os.path.join(tmp, "out", "report.json")) as f:
        report = json.load(f)
    return sum(m["metrics"]["pods_submitted"]["value"] for m in report["modes"])


def measure(spec, build, runs, instructions):
    """Runs one benchmark; returns its DataItems."""
    name, family = spec["name"], spec["family"]
    walls, outputs, extra = [], [], []
    with tempfile.TemporaryDirectory(prefix="drasim-bench-") as tmp:
        if spec["kind"] == "import":
            return import_items(spec, build, tmp, runs)
        if spec["kind"] == "e2e_peak":
            return peak_items(spec, build, tmp)
        if spec["kind"] == "growth":
            spec = dict(spec, scenario=growth_scenario(spec, tmp))
        for _ in range(spec["runs"] or runs):
            wall, out = run_native(spec, build, tmp)
            walls.append(wall)
            outputs.append(out)
        if spec["kind"] in ("e2e", "growth"):
            pods = pods_submitted(tmp)
            extra.append(item(name, family, "throughput", "pods/s",
                              {"Value": round(pods / (nearest_rank(walls, 50) / 1e9), 1)}))
        dumps = callgrind_dumps(spec, build, tmp) if instructions else {}
    if spec["kind"] == "cel":
        return cel_items(spec, outputs, dumps)
    if spec["kind"] == "phold":
        rates = [json.loads(line)["value"] for out in outputs for line in out.splitlines()
                 if line.startswith("{") and '"events/s"' in line]
        extra.append(item(name, family, "throughput", "events/s", distribution(rates)))
    items = [item(name, family, "wall_time", "ns", distribution(walls))]
    if "Program termination" in dumps:
        items.append(item(name, family, "instructions", "instructions",
                          {"Value": dumps["Program termination"]}))
    return items + extra


def cel_items(spec, outputs, dumps):
    """celeval prints one JSON line per selector; each becomes a benchmark of its own,
    <selector>_<size>, with ns and instructions per evaluation over the timed passes."""
    size = spec["name"].rsplit("_", 1)[1]
    lines = {}
    for out in outputs:
        for line in out.splitlines():
            record = json.loads(line)
            lines.setdefault(record["name"], []).append(record)
    items = []
    for selector, records in lines.items():
        name = "%s_%s" % (selector, size)
        per_eval = [ns / r["evals_per_pass"] for r in records for ns in r["pass_ns"]]
        data = {k: round(v, 2) for k, v in distribution(per_eval).items()}
        items.append(item(name, "cel", "wall_time", "ns", data))
        if selector in dumps:
            evals = records[0]["evals_per_pass"] * len(records[0]["pass_ns"])
            items.append(item(name, "cel", "instructions", "instructions",
                              {"Value": round(dumps[selector] / evals, 2)}))
    return items


def build_info(build):
    """What instruction counts depend on: the compiler and the build options."""
    info = {}
    try:
        with open(os.path.join(build, "meson-info", "intro-buildoptions.json")) as f:
            options = {o["name"]: o["value"] for o in json.load(f)}
        for key in ("buildtype", "optimization", "b_sanitize", "b_ndebug", "arena_debug"):
            info[key] = options.get(key)
        with open(os.path.join(build, "meson-logs", "meson-log.txt"), errors="replace") as f:
            match = re.search(r"C compiler for the host machine: \S+ \((\S+ [^ \"]+)", f.read())
            info["compiler"] = match.group(1) if match else None
    except (OSError, ValueError):
        pass
    return info


PEERS_DIR = os.path.join(ROOT, "tools", "bench", "cel")


def peers_missing():
    """None when the CEL peers can run, else why not (drasim bench installs nothing)."""
    if shutil.which("node") is None:
        return "node is not installed"
    for package in ("@bufbuild/cel", "@marcbachmann/cel-js"):
        if not os.path.isdir(os.path.join(PEERS_DIR, "node_modules", package)):
            return ("%s is not installed in %s/node_modules (tools/bench/cel/run.sh installs "
                    "the peers)" % (package, PEERS_DIR))
    return None


def slug(text):
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def peer_items(spec):
    """peers.mjs prints `engine<TAB>selector<TAB>median ns per evaluation<TAB>matched`."""
    size = "%dk" % (int(spec["args"][1]) // 1000)
    done = subprocess.run(["node"] + spec["args"], cwd=PEERS_DIR, check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                          env=CHILD_ENV)
    items = []
    for line in done.stdout.splitlines():
        engine, selector, ns = line.split("\t")[:3]
        if ns != "n/a":  # the peer has no quantity()/semver()
            name = "cel_peer_%s_%s_%s" % (slug(engine), slug(selector), size)
            items.append(item(name, "cel_peers", "wall_time", "ns", {"Value": float(ns)}))
    return items


def run_suite(args, instructions):
    items, skipped, failed = [], 0, 0
    for spec in BENCHMARKS:
        if spec["sets"] != "both" and spec["sets"] != ("quick" if args.quick else "full"):
            continue
        if args.family is not None and spec["family"] != args.family:
            continue
        if spec["kind"] == "cel_peers":
            reason = peers_missing()
            if reason:
                print("SKIP %s: %s" % (spec["name"], reason), file=sys.stderr)
                skipped += 1
                continue
        elif spec["family"] == "fgd" and not os.path.isdir(OPENB):
            print("SKIP %s: the openb trace is not at %s" % (spec["name"], OPENB), file=sys.stderr)
            skipped += 1
            continue
        elif not os.access(os.path.join(args.build, spec["exe"]), os.X_OK):
            print("SKIP %s: %s is not built" % (spec["name"], spec["exe"]), file=sys.stderr)
            skipped += 1
            continue
        counted = instructions and (spec["callgrind"] or args.all_instructions)
        if instructions and not counted and spec["kind"] != "cel_peers":
            print("note %s: no instruction count (tens of minutes or more under callgrind; "
                  "--all-instructions counts it)" % spec["name"], file=sys.stderr)
        try:
            if spec["kind"] == "cel_peers":
                new = peer_items(spec)
            else:
                new = measure(spec, args.build, args.runs or 3, counted)
        except (subprocess.CalledProcessError, OSError, ValueError, KeyError) as error:
            print("FAIL %s: %s" % (spec["name"], error), file=sys.stderr)
            failed += 1
            continue
        for it in new:
            print("%-46s %-13s %16s %s" % (it["labels"]["Name"], it["labels"]["Metric"],
                                           it["data"]["Value"], it["unit"]), file=sys.stderr)
        items += new
    return items, skipped, failed


def check(args, text):
    """Diffs against the baseline with reports/bench/bench.tolerance (instructions: 5%)."""
    drasim = os.path.join(args.build, DRASIM)
    tolerance = os.path.join(HERE, "bench.tolerance")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(text)
    try:
        return subprocess.run([drasim, "diff", "--tolerance", tolerance, args.check,
                               f.name]).returncode
    finally:
        os.unlink(f.name)


def comparable(args):
    """None when the baseline's counts can be compared with this build's, else why not."""
    if shutil.which("valgrind") is None:
        return "valgrind is not installed: no instruction counts to compare"
    with open(args.check) as f:
        baseline = json.load(f)
    if baseline.get("schema") != SCHEMA:
        return None  # drasim diff reports the wrong schema as an error
    if baseline.get("quick") != args.quick:
        return "the baseline is %s, this run is %s" % (
            "--quick" if baseline.get("quick") else "full", "--quick" if args.quick else "full")
    theirs, ours = baseline.get("build", {}), build_info(args.build)
    if theirs != ours:
        return ("instruction counts depend on the compiler and build options: the baseline "
                "was recorded with %s, this build is %s" % (json.dumps(theirs), json.dumps(ours)))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("-o", "--output")
    parser.add_argument("--check", metavar="BASELINE")
    parser.add_argument("--runs", type=int, default=0)
    parser.add_argument("--no-callgrind", action="store_true")
    parser.add_argument("--all-instructions", action="store_true")
    parser.add_argument("--family", help="only the benchmarks of this family")
    args = parser.parse_args()
    families = sorted(set(b["family"] for b in BENCHMARKS))
    if args.family is not None and args.family not in families:
        print("drasim bench: --family %s: the families are %s" % (args.family, ", ".join(families)),
              file=sys.stderr)
        return 2
    if args.family is not None and args.check:
        print("drasim bench: --family and --check: the gate compares the whole set", file=sys.stderr)
        return 2
    if args.check:
        reason = comparable(args)
        if reason:
            print("SKIP drasim bench --check: %s" % reason, file=sys.stderr)
            return 77
    instructions = not args.no_callgrind and shutil.which("valgrind") is not None
    sanitized = build_info(args.build).get("b_sanitize") not in (None, "none")
    if not instructions and not args.no_callgrind:
        print("note: valgrind is not installed; no instruction counts (records carry wall "
              "time only)", file=sys.stderr)
    elif instructions and sanitized:
        print("note: a sanitizer build does not run under valgrind; no instruction counts",
              file=sys.stderr)
        instructions = False
    items, skipped, failed = run_suite(args, instructions)
    document = {"schema": SCHEMA, "version": "v1", "quick": args.quick,
                "build": build_info(args.build), "dataItems": items}
    text = json.dumps(document, indent=1) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    elif not args.check:
        sys.stdout.write(text)
    print("%d benchmarks: %d failed, %d skipped" % (
        len({i["labels"]["Name"] for i in items}) + failed, failed, skipped), file=sys.stderr)
    if failed:
        return 1
    if args.check:
        return check(args, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
