#!/usr/bin/env python3
"""tests/fuzz/seeds.py: seed inputs for the fuzz targets (docs/testing.md, "Fuzzing").

  seeds.py repo ROOT      (re)writes ROOT/tests/fuzz/corpus/TARGET/ from the repository's
                          own data (tests/data, scenarios, reports/baselines): committed
  seeds.py dict ROOT      (re)writes ROOT/tests/fuzz/dict/TARGET.dict: the names each
                          decoder looks for (identifier-like string literals of its
                          sources) and the syntax of its format
  seeds.py shared SHARED OUT   writes OUT/TARGET/ from the conformance inputs under SHARED
                          (../shared beside the checkout): used by tools/fuzz, never
                          committed (the conformance corpora stay where they are)

Most targets read a selector byte before the file (fuzz_*.c say which); the seeds carry it:
'0' for the plain reading. Files above MAX_SEED bytes are left out: the fuzzer mutates small
inputs faster, and tools/fuzz caps inputs near that size.
"""
import glob
import hashlib
import json
import os
import re
import sys

MAX_SEED = 12000

# One pod holding one GPU of the fixture node (gpu.nvidia.com comes with published.yaml).
ONE_GPU_POD = b'''apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: one}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.nvidia.com, count: 1}
---
apiVersion: v1
kind: Pod
metadata: {name: holder}
spec:
  resourceClaims: [{name: gpu, resourceClaimName: one}]
  containers:
  - name: c
    image: x
    resources: {claims: [{name: gpu}]}
'''


def write_seed(out_dir, prefix, data):
    if len(data) > MAX_SEED:
        return 0
    os.makedirs(out_dir, exist_ok=True)
    blob = prefix + data
    name = hashlib.sha1(blob).hexdigest()[:16]
    with open(os.path.join(out_dir, name), 'wb') as f:
        f.write(blob)
    return 1


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def files(root, *patterns):
    found = set()
    for pattern in patterns:
        found.update(glob.glob(os.path.join(root, pattern), recursive=True))
    return sorted(p for p in found if os.path.isfile(p))


def fixture_workload(root, scenario):
    """The scenario with `manifests: [manifests.yaml]` naming tests/fuzz/fixture/wl-DIR.yaml,
    a copy of its folder's manifests.yaml written there."""
    folder = os.path.dirname(scenario)
    data = read(scenario)
    manifests = os.path.join(folder, 'manifests.yaml')
    if os.path.isfile(manifests) and b'manifests: [manifests.yaml]' in data:
        name = 'wl-%s.yaml' % os.path.basename(folder)
        with open(os.path.join(root, 'tests', 'fuzz', 'fixture', name), 'wb') as f:
            f.write(read(manifests))
        data = data.replace(b'manifests: [manifests.yaml]', b'manifests: [%s]' % name.encode())
    return data


def repo_seeds(root):
    corpus = os.path.join(root, 'tests', 'fuzz', 'corpus')
    n = {}

    def add(target, prefix, paths, edit=None):
        for p in paths:
            data = read(p)
            if edit is not None:
                data = edit(data)
            n[target] = n.get(target, 0) + write_seed(os.path.join(corpus, target), prefix, data)

    manifests = files(root, 'tests/data/bad/*.yaml', 'tests/data/bad/*.json',
                      'tests/data/import/*.yaml', 'tests/data/lint/**/*.yaml',
                      'tests/data/sharing/**/*.yaml', 'scenarios/*/manifests.yaml',
                      'scenarios/faults/*/manifests.yaml',
                      'tests/data/alloc-budget/*.yaml')
    add('manifests', b'0', [p for p in manifests if not p.endswith('.json')])
    add('manifests', b'4', [p for p in manifests if p.endswith('.json')])
    add('allocate', b'0', files(root, 'tests/data/import/*claims-allocated*.yaml'))
    # the fixture node's published objects with claims and pods for them
    published = read(os.path.join(root, 'tests/fuzz/fixture/published.yaml'))
    add('allocate', b'0', files(root, 'tests/data/alloc-budget/*.yaml'),
        lambda d: published + b'---\n' + d)
    for p in files(root, 'tests/data/alloc-budget/*.yaml'):
        n['allocate'] += write_seed(os.path.join(corpus, 'allocate'), b'0',
                                    published + b'---\n' + ONE_GPU_POD)
    # a scenario's manifests resolve in tests/fuzz/fixture: each scenario names its own copy
    # there (wl-DIR.yaml), so that its workload builds and the seed runs (fuzz_scenario.c)
    for p in files(root, 'scenarios/*/scenario.yaml', 'scenarios/faults/*/*.yaml'):
        n['scenario'] = n.get('scenario', 0) + write_seed(
            os.path.join(corpus, 'scenario'), b'', fixture_workload(root, p))
    add('sweep', b'', files(root, 'scenarios/*/sweep.yaml', 'tests/unit/sweep/data/*.yaml'),
        lambda d: re.sub(rb'scenario: .*', b'scenario: scenario.yaml', d))
    catalogs = files(root, 'model/hw/catalog/*.yaml', 'scenarios/*/*.hw.yaml',
                     'tests/data/hw/bad/*.yaml', 'tests/fuzz/fixture/*.hw.yaml')
    add('catalog', b'0', [p for p in catalogs if 'generic-' not in p])
    add('catalog', b'1', [p for p in catalogs if 'generic-' in p])
    add('trace', b'0', [os.path.join(root, 'tests/fuzz/fixture/pods.csv')])
    add('trace', b'1', [os.path.join(root, 'tests/fuzz/fixture/nodes.csv')])
    add('report', b'', files(root, 'reports/baselines/*.json'),
        lambda d: json.dumps(json.loads(d), separators=(',', ':')).encode())
    return n


def allocator_case(text):
    """A conformance AllocatorTestCase as `drasim allocate` input: its objects, its node
    as a Node, and one Pod on that node holding the claims it allocates."""
    import yaml  # only here: the repo seeds need no PyYAML
    docs = text.split(b'\n---\n')
    head = yaml.safe_load(docs[0])
    if not isinstance(head, dict) or head.get('kind') != 'AllocatorTestCase':
        return None
    node = head.get('node') or {}
    name = node.get('name', 'node-1')
    node_doc = {'apiVersion': 'v1', 'kind': 'Node',
                'metadata': {'name': name, 'labels': node.get('labels') or {}}}
    claims = head.get('claimsToAllocate') or []
    pod = {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': 'fuzz-pod'},
           'spec': {'nodeName': name,
                    'resourceClaims': [{'name': 'c%d' % i, 'resourceClaimName': c}
                                       for i, c in enumerate(claims)],
                    'containers': [{'name': 'c', 'image': 'x',
                                    'resources': {'claims': [{'name': 'c%d' % i}
                                                             for i in range(len(claims))]}}]}}
    extra = [yaml.safe_dump(node_doc).encode(), yaml.safe_dump(pod).encode()]
    return b'\n---\n'.join(docs[1:] + extra)


def shared_seeds(shared, out):
    n = {}

    def put(target, prefix, data):
        n[target] = n.get(target, 0) + write_seed(os.path.join(out, target), prefix, data)

    for p in files(shared, 'conformance/allocator/*.yaml'):
        text = read(p)
        put('manifests', b'0', text)
        try:
            case = allocator_case(text)
        except Exception:  # a case PyYAML cannot read is simply not a seed
            case = None
        if case is not None:
            put('allocate', b'0', case)
    for p in files(shared, 'conformance/cel-spec/*.json'):
        for section in json.load(open(p)).get('sections', []):
            for test in section.get('tests', []):
                expr = test.get('expr', '').encode()
                put('cel', b'\x04', expr)
                put('cel', b'\x01', expr)
    cases = json.load(open(os.path.join(shared, 'conformance/cel-k8s/cases.json')))['cases']
    for case in cases:
        put('cel', b'\x04', case.get('expr', '').encode())
    return n


# Per target: the sources whose string literals name what the decoder reads, and the
# format's own tokens.
YAML_SYNTAX = [': ', '- ', '---', '...', '{', '}', '[', ']', ', ', '&a ', '*a', '!!str ',
               '!!int ', '? ', '|', '>', '#', "'", '"', '~', 'null', 'true', '0x', '.inf']
JSON_SYNTAX = ['{', '}', '[', ']', ':', ',', '"', 'null', 'true', 'false', '1e308', '-0']
DICTS = {
    'manifests': (['model/api/k8s_fields_*.c', 'model/api/k8s_dec.c', 'model/api/k8s_version.c',
                   'model/api/k8s_validate*.c'], YAML_SYNTAX),
    'allocate': (['model/api/k8s_fields_resource.c', 'model/api/k8s_fields_slice.c',
                  'model/dra/*.c'], YAML_SYNTAX),
    'scenario': (['sim/scenario/*.c'], YAML_SYNTAX + ['manifests.yaml', 'pods.csv',
                                                     'nodes.csv', 'catalog.hw.yaml']),
    'sweep': (['sim/sweep/sweep_spec*.c'], YAML_SYNTAX + ['scenario.yaml', 'spec.seed',
                                                        'spec.horizon']),
    'catalog': (['model/hw/hw_yaml_read.c', 'model/hw/hw_catalog*.c', 'model/hw/hw_generic.c'],
                YAML_SYNTAX + ['drasim.hw/v1']),
    'trace': (['sim/workload/workload_trace.c'], [',', '\n', '"', '""', '-1', '1000']),
    'report': (['reports/rpt_json_load.c', 'reports/rpt_diff_load.c'],
               JSON_SYNTAX + ['drasim.io/report/v1', 'drasim.io/bench/v2']),
}
LITERAL = re.compile(r'"([A-Za-z_][A-Za-z0-9_./-]{1,40})"')


def dict_escape(word):
    """libFuzzer's dictionary syntax: printable ASCII, with \\, \" and \\xNN escapes."""
    out = ''
    for c in word:
        if c in '\\"' or not ' ' <= c <= '~':
            out += '\\x%02x' % ord(c)
        else:
            out += c
    return out


def write_dicts(root):
    counts = {}
    for target, (sources, syntax) in sorted(DICTS.items()):
        words = set(syntax)
        for path in files(root, *sources):
            words.update(LITERAL.findall(open(path, errors='replace').read()))
        out = os.path.join(root, 'tests', 'fuzz', 'dict', target + '.dict')
        with open(out, 'w') as f:
            f.write('# %s: written by tests/fuzz/seeds.py dict (do not edit)\n' % target)
            for w in sorted(words):
                f.write('"%s"\n' % dict_escape(w))
        counts[target] = len(words)
    return counts


def main(argv):
    if len(argv) == 3 and argv[1] == 'repo':
        counts = repo_seeds(argv[2])
    elif len(argv) == 3 and argv[1] == 'dict':
        counts = write_dicts(argv[2])
    elif len(argv) == 4 and argv[1] == 'shared':
        counts = shared_seeds(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    for target in sorted(counts):
        print('%-10s %d %s' % (target, counts[target], 'words' if argv[1] == 'dict' else 'seeds'))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
