#!/usr/bin/env python3
"""gen_dump.py: a synthetic `kubectl get nodes,resourceslices -o yaml` dump, for the
speed and memory figures of `drasim import` (docs/import.md, section 2).

N Nodes (capacity, allocatable, GFD-style labels, managedFields as kubectl prints
them) and, per node, one ResourceSlice of the NVIDIA DRA driver with D GPUs
(productName, uuid, index, driverVersion, architecture; memory capacity), in one
`v1 List`. The GPU model of each node and the UUIDs come from --seed: the same
arguments print the same bytes.

Usage: gen_dump.py --nodes 10000 [--devices 8] [--seed 1] [-o FILE]
"""
import argparse
import random
import sys

MODELS = [("NVIDIA A100-SXM4-80GB", "Ampere", "80Gi"),
          ("NVIDIA H100 80GB HBM3", "Hopper", "80Gi"),
          ("NVIDIA L40S", "Ada Lovelace", "46068Mi")]


def node(name, model):
    return f"""- apiVersion: v1
  kind: Node
  metadata:
    name: {name}
    labels:
      kubernetes.io/hostname: {name}
      kubernetes.io/os: linux
      nvidia.com/gpu.product: {model[0].replace(" ", "-")}
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      manager: kubelet
      operation: Update
  spec:
    taints:
    - {{key: nvidia.com/gpu, effect: NoSchedule}}
  status:
    capacity: {{cpu: "128", memory: 1056Gi, pods: "110"}}
    allocatable: {{cpu: "126", memory: 1000Gi, pods: "110"}}
"""


def device(rng, index, model):
    uuid = "GPU-%08x-%04x-%04x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16),
                                               rng.getrandbits(16), rng.getrandbits(16),
                                               rng.getrandbits(48))
    return f"""    - name: gpu-{index}
      attributes:
        architecture: {{string: {model[1]}}}
        driverVersion: {{version: 570.124.6}}
        index: {{int: {index}}}
        productName: {{string: {model[0]}}}
        uuid: {{string: {uuid}}}
      capacity:
        memory: {{value: {model[2]}}}
"""


def slice_(rng, name, model, devices):
    head = f"""- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata:
    name: {name}-gpu.nvidia.com-{rng.getrandbits(20):05x}
  spec:
    driver: gpu.nvidia.com
    nodeName: {name}
    pool: {{name: {name}, generation: 1, resourceSliceCount: 1}}
    devices:
"""
    return head + "".join(device(rng, i, model) for i in range(devices))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, required=True)
    parser.add_argument("--devices", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    out.write("apiVersion: v1\nkind: List\nitems:\n")
    for n in range(args.nodes):
        name = "gpu-node-%05d" % n
        model = MODELS[rng.randrange(len(MODELS))]
        out.write(node(name, model))
        out.write(slice_(rng, name, model, args.devices))
    out.write("metadata:\n  resourceVersion: \"\"\n")
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
