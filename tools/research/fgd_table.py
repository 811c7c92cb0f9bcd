#!/usr/bin/env python3
"""Prints the world x policy table at 100 % arrival of a `drasim experiment fgd` result.

Usage: fgd_table.py FGD_JSON [--trace NAME] [--compact]

One Markdown row per world and policy: unallocated GPU %, stranded GPU %, co-tenants per GPU in
use (mean, max), with the world's device pick and memory isolation, and a dagger on what is beyond
production (the paper's policies; a world whose device choice is the policy's). A refused pair
prints its reason. docs/research/fgd-and-dra.md's tables are this script's output; --compact gives
one row per policy and one column per world (unallocated % only).
"""
import argparse
import json
import sys


def stat(s, digits=2):
    if not s or s.get("mean") is None:
        return "–"
    if s.get("sd") is None:
        return "%.*f" % (digits, s["mean"])
    return "%.*f ± %.*f" % (digits, s["mean"], digits, s["sd"])


def mark(beyond):
    return " †" if beyond else ""


def full_table(trace):
    print("| world | device pick | memory isolation | policy | unallocated % | stranded % "
          "| co-tenants mean | co-tenants max |")
    print("|---|---|---|---|---|---|---|---|")
    for w in trace["worlds"]:
        head = "%s%s | %s | %s" % (w["name"], mark(w.get("beyond_production")),
                                   w.get("device_pick", ""),
                                   "yes" if w.get("memory_isolation") else "no")
        for p in w["policies"]:
            name = p["name"] + mark(p.get("beyond_production"))
            if "refused" in p:
                print("| %s | %s | refused: %s | | | |" % (head, name, p["refused"]))
                continue
            a = p.get("at_100", {})
            print("| %s | %s | %s | %s | %s | %s |" % (
                head, name, stat(a.get("unallocated_pct")), stat(a.get("stranded_pct")),
                stat(a.get("cotenants_mean")), stat(a.get("cotenants_max"), 1)))


def compact_table(trace):
    worlds = trace["worlds"]
    print("| policy | " + " | ".join(w["name"] + mark(w.get("beyond_production"))
                                     for w in worlds) + " |")
    print("|---" * (len(worlds) + 1) + "|")
    names = []
    for w in worlds:
        names += [p["name"] for p in w["policies"] if p["name"] not in names]
    for name in names:
        cells = []
        for w in worlds:
            p = next((p for p in w["policies"] if p["name"] == name), None)
            if p is None:
                cells.append("")
            elif "refused" in p:
                cells.append("refused")
            else:
                cells.append(stat(p.get("at_100", {}).get("unallocated_pct")))
        beyond = any(p.get("beyond_production") for w in worlds for p in w["policies"]
                     if p["name"] == name)
        print("| %s | %s |" % (name + mark(beyond), " | ".join(cells)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fgd_json")
    ap.add_argument("--trace", default="default")
    ap.add_argument("--compact", action="store_true")
    args = ap.parse_args()
    try:
        with open(args.fgd_json) as f:
            doc = json.load(f)
        trace = next(t for t in doc["traces"] if t["name"] == args.trace)
    except StopIteration:
        print("fgd_table: no trace %s in %s" % (args.trace, args.fgd_json), file=sys.stderr)
        return 2
    except (OSError, ValueError, KeyError) as e:
        print("fgd_table: %s: %s" % (args.fgd_json, e), file=sys.stderr)
        return 2
    if "worlds" not in trace:
        trace = {"worlds": [{"name": "gpushare", "policies": trace["policies"]}]}
    (compact_table if args.compact else full_table)(trace)
    return 0


if __name__ == "__main__":
    sys.exit(main())
