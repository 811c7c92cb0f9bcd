// report.mjs N DRASIM_TSV PEERS_TSV: the benchmark table in markdown.
import { readFileSync } from "node:fs";

const [n, drasimFile, peersFile] = process.argv.slice(2);
const lines = (f) => readFileSync(f, "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
const drasim = new Map(lines(drasimFile).map((l) => {
  const [name, ns, allocs, matched] = l.split("\t");
  return [name, { ns: Number(ns), allocs, matched }];
}));
const peers = new Map();
const engines = [];
for (const l of lines(peersFile)) {
  const [engine, name, ns, matched] = l.split("\t");
  if (!engines.includes(engine)) engines.push(engine);
  peers.set(`${engine}\t${name}`, { ns: ns === "n/a" ? null : Number(ns), matched });
}
console.log(`Devices: ${n}. ns per evaluation (lower is better); ratio = fastest peer / drasim.\n`);
console.log(`| selector | drasim ns | drasim allocs/eval | ${engines.map((e) => `${e} ns`).join(" | ")} | ratio |`);
console.log(`|---|---:|---:|${engines.map(() => "---:").join("|")}|---:|`);
for (const [name, d] of drasim) {
  const cells = engines.map((e) => peers.get(`${e}\t${name}`));
  const known = cells.filter((c) => c && c.ns !== null);
  for (const c of known) {
    if (c.matched !== d.matched) console.error(`warning: ${name}: peer matched ${c.matched}, drasim ${d.matched}`);
  }
  const best = known.length ? Math.min(...known.map((c) => c.ns)) : null;
  const ratio = best === null ? "n/a (no k8s library)" : `${(best / d.ns).toFixed(1)}x`;
  console.log(`| ${name} | ${d.ns.toFixed(1)} | ${d.allocs} | ${cells.map((c) => (c && c.ns !== null ? c.ns.toFixed(1) : "n/a")).join(" | ")} | ${ratio} |`);
}
