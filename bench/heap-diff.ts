// `node bench/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> [mints between] [top]`:
// what the V8 heap gained between two snapshots, by constructor (object count and shallow size,
// as the Comparison view of DevTools shows them), biggest first; per mint when the count is given.
// Snapshots come from the soak: `npm run bench -- --only soak --heap-snapshots <dir>` (start and end).
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

function byConstructor(file: string): Map<string, { count: number; size: number }> {
  const heap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((field) => fields.indexOf(field)) as [
    number,
    number,
    number,
  ];
  const types = heap.snapshot.meta.node_types[0];
  const totals = new Map<string, { count: number; size: number }>();
  for (let i = 0; i < heap.nodes.length; i += width) {
    const type = types[heap.nodes[i + typeAt]!]!;
    // Objects by their constructor; everything else (strings, arrays, code, closures…) by its kind.
    const key = type === "object" || type === "native" ? heap.strings[heap.nodes[i + nameAt]!]! : `(${type})`;
    const entry = totals.get(key) ?? { count: 0, size: 0 };
    entry.count += 1;
    entry.size += heap.nodes[i + sizeAt]!;
    totals.set(key, entry);
  }
  return totals;
}

const [beforeFile, afterFile, mintsArg, topArg] = process.argv.slice(2);
if (!beforeFile || !afterFile) throw new Error("usage: node bench/heap-diff.ts <before> <after> [mints] [top]");
const mints = Number(mintsArg ?? 0);
const before = byConstructor(beforeFile);
const after = byConstructor(afterFile);
const rows = [...after].map(([name, { count, size }]) => {
  const was = before.get(name) ?? { count: 0, size: 0 };
  return { name, count: count - was.count, bytes: size - was.size };
});
rows.sort((a, b) => b.bytes - a.bytes);
const total = rows.reduce((sum, row) => sum + row.bytes, 0);
const per = (n: number) => (mints > 0 ? +(n / mints).toFixed(mints > 0 ? 2 : 0) : "–");
console.table(
  rows.slice(0, Number(topArg ?? 25)).map((row) => ({
    constructor: row.name.slice(0, 60),
    "objects +": row.count,
    "KB +": Math.round(row.bytes / 1024),
    "objects per mint": per(row.count),
    "bytes per mint": per(row.bytes),
  })),
);
console.log(
  `total: ${(total / 1048576).toFixed(1)} MB${mints > 0 ? `, ${(total / mints / 1024).toFixed(2)} KB per mint` : ""}`,
);
