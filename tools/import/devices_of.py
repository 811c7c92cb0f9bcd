#!/usr/bin/env python3
"""devices_of.py: list the devices that the ResourceSlices of a kubectl dump publish.

    devices_of.py [--counts] FILE...

Reads YAML (multi-document, `v1 List`) or JSON as `kubectl get -o yaml|json` prints
it, in any resource.k8s.io version (v1, v1beta2, v1beta1 and v1alpha3 with their
`basic:` wrapper and plain-quantity capacities), and prints one line per device,
sorted:

    NODE<TAB>DRIVER<TAB>POOL<TAB>DEVICE<TAB>ATTRIBUTES<TAB>CAPACITY

ATTRIBUTES and CAPACITY are JSON objects with sorted keys. An attribute is written
`"DOMAIN/NAME": {"TYPE": "VALUE"}` with its name qualified by the driver when the slice
leaves the domain out (the two forms name the same attribute, KEP-4381), and a capacity
`"NAME": "QUANTITY"` as written. Every scalar is read as the string the dump spells,
so nothing is rounded or retyped on the way. NODE is the slice's nodeName, the device's
own nodeName (perDeviceNodeSelection), or "(allNodes)" / "(nodeSelector)".

With --counts it prints `NODE<TAB>N` per node instead. Objects that are not
ResourceSlices are skipped. Used by tests/unit/cli/import_dumps.sh to check that
`drasim convert` keeps every published device of a real dump.
"""
import json
import sys

import yaml


def objects_of(path):
    """Every object of the file, List items unwrapped."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    # BaseLoader keeps every scalar as its string: 0000:53:00.0 stays a string, 1k stays 1k.
    docs = [d for d in yaml.load_all(text, Loader=yaml.BaseLoader) if d]
    for doc in docs:
        if isinstance(doc, dict) and isinstance(doc.get("items"), list):
            yield from (o for o in doc["items"] if isinstance(o, dict))
        elif isinstance(doc, dict):
            yield doc


def node_of(spec, device):
    if spec.get("nodeName"):
        return spec["nodeName"]
    if device.get("nodeName"):
        return device["nodeName"]
    if spec.get("allNodes") == "true" or device.get("allNodes") == "true":
        return "(allNodes)"
    return "(nodeSelector)"


def qualified(driver, name):
    return name if "/" in name or not driver else driver + "/" + name


def device_line(spec, device):
    body = device.get("basic", device)  # v1alpha3/v1beta1 wrap the fields in `basic:`
    driver = spec.get("driver", "")
    attrs = {
        qualified(driver, k): v for k, v in (body.get("attributes") or {}).items()
    }
    caps = {}
    for k, v in (body.get("capacity") or {}).items():
        # v1alpha3 writes a plain quantity; later versions {value: QUANTITY, ...}.
        caps[k] = v.get("value", "") if isinstance(v, dict) else v
    return "\t".join(
        [
            node_of(spec, device),
            driver,
            (spec.get("pool") or {}).get("name", ""),
            device.get("name", ""),
            json.dumps(attrs, sort_keys=True),
            json.dumps(caps, sort_keys=True),
        ]
    )


def main(argv):
    counts = "--counts" in argv
    paths = [a for a in argv if a != "--counts"]
    if not paths:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    lines = []
    for path in paths:
        for obj in objects_of(path):
            if obj.get("kind") != "ResourceSlice":
                continue
            spec = obj.get("spec") or {}
            lines += [device_line(spec, d) for d in spec.get("devices") or []]
    lines.sort()
    if counts:
        per_node = {}
        for line in lines:
            node = line.split("\t", 1)[0]
            per_node[node] = per_node.get(node, 0) + 1
        lines = ["%s\t%d" % kv for kv in sorted(per_node.items())]
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
