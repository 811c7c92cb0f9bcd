// peers.mjs: the same selectors and synthetic devices as bench_cel.c, evaluated by the npm CEL
// engines @marcbachmann/cel-js and @bufbuild/cel (installed by run.sh into node_modules/).
// Output: one tab-separated line per (engine, selector): engine, selector, ns/eval, matched.
// Quantity and semver selectors need the Kubernetes libraries, which the peers lack: "n/a".
import { parse as cjsParse } from "@marcbachmann/cel-js";
import { celEnv, plan, parse as bufParse } from "@bufbuild/cel";

const N = Number(process.argv[2] ?? 100000);
const products = ["NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB", "NVIDIA H100 NVL", "NVIDIA L4"];
const memoryMiB = [81559, 40960, 95830, 23034];
const driverVersions = ["580.126.9", "550.54.15", "535.161.8"];

function attrs(i) {
  return {
    type: i % 5 === 4 ? "mig" : "gpu",
    productName: products[i % 4],
    memoryMiB: BigInt(memoryMiB[i % 4]),
    driverVersion: driverVersions[i % 3],
    cudaComputeCapability: "9.0.0",
    architecture: i % 4 === 3 ? "Ada Lovelace" : "Hopper",
    brand: "Nvidia",
    index: BigInt(i % 8),
    uuid: "GPU-" + String(i).padStart(8, "0"),
  };
}

function plainDevice(i) {
  return {
    driver: "gpu.nvidia.com",
    attributes: {
      "gpu.nvidia.com": attrs(i),
      "resource.kubernetes.io": { pcieRoot: "pci0000:" + (i % 16).toString(16).padStart(2, "0") },
    },
    capacity: { "gpu.nvidia.com": { memory: memoryMiB[i % 4] + "Mi" } },
  };
}

function toMap(v) {
  if (v !== null && typeof v === "object" && !Array.isArray(v)) {
    return new Map(Object.entries(v).map(([k, x]) => [k, toMap(x)]));
  }
  return v;
}

const selectors = [
  ["driver+type", 'device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].type == "gpu"'],
  ["startsWith", 'device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA H100")'],
  ["int compare", 'device.attributes["gpu.nvidia.com"].memoryMiB >= 40960'],
  ["matches", 'device.attributes["gpu.nvidia.com"].productName.matches("^.*H100.*$")'],
  ["quantity compare", null],
  ["semver compare", null],
];

const plain = Array.from({ length: N }, (_, i) => ({ device: plainDevice(i) }));
const maps = plain.map((p) => ({ device: toMap(p.device) }));
const bufEnv = celEnv();

const engines = [
  ["@marcbachmann/cel-js", (expr) => cjsParse(expr), plain],
  ["@bufbuild/cel", (expr) => plan(bufEnv, bufParse(expr)), maps],
];

for (const [engine, compile, inputs] of engines) {
  for (const [name, expr] of selectors) {
    if (expr === null) {
      console.log(`${engine}\t${name}\tn/a\tn/a`);
      continue;
    }
    const fn = compile(expr);
    let matched = 0;
    for (const input of inputs) matched += fn(input) === true ? 1 : 0; // warm-up (JIT)
    // at least 7 passes and 300 ms; the median pass, as bench_cel.c
    const passNs = [];
    const start = process.hrtime.bigint();
    let elapsed;
    do {
      const t0 = process.hrtime.bigint();
      for (const input of inputs) fn(input);
      passNs.push(Number(process.hrtime.bigint() - t0) / N);
      elapsed = Number(process.hrtime.bigint() - start);
    } while (passNs.length < 1024 && (passNs.length < 7 || elapsed < 300e6));
    passNs.sort((a, b) => a - b);
    const median = passNs[Math.floor(passNs.length / 2)];
    console.log(`${engine}\t${name}\t${median.toFixed(1)}\t${matched}`);
  }
}
