// How long anvil takes to make empty blocks (the heights a world names: src/chain/height.ts bounds what a node is asked
// for): 1,000 blocks made each way anvil has (one call each, on a fresh anvil), one `hardhat_mine` of each size on a
// fresh anvil, then jumps of 1,000 one after another on another fresh one, each timed, with the load average. Not part
// of `npm run bench`; run it alone: `node bench/node-heights.ts [--sizes 1000,2000,5000,10000] [--jumps 10] [--anvil-args="--prune-history"]`.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { rpc } from "../test/rpc.ts";
import { spawnAnvil } from "./lib/anvil.ts";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,2000,5000,10000" },
    jumps: { type: "string", default: "10" },
    "anvil-args": { type: "string", default: "" },
  },
});
const extra = values["anvil-args"]!.split(" ").filter(Boolean);
const load = () =>
  loadavg()
    .map((one) => one.toFixed(2))
    .join(" ");

async function withAnvil<T>(run: (url: string) => Promise<T>): Promise<T> {
  const anvil = await spawnAnvil(extra);
  try {
    return await run(anvil.url);
  } finally {
    await anvil.stop();
  }
}

/** The ways anvil takes to make `count` empty blocks in one call: what src/chain/height.ts asks, and the others. */
const WAYS = {
  hardhat_mine: (count: number) => ["hardhat_mine", [`0x${count.toString(16)}`, "0x0"]],
  "anvil_mine, 1 s apart": (count: number) => ["anvil_mine", [`0x${count.toString(16)}`, "0x1"]],
  "evm_mine { blocks }": (count: number) => ["evm_mine", [{ timestamp: null, blocks: count }]],
} satisfies Record<string, (count: number) => [string, unknown[]]>;

/** Seconds one call making `count` empty blocks takes (by default as src/chain/height.ts asks a node). */
async function mine(url: string, count: number, way: keyof typeof WAYS = "hardhat_mine"): Promise<number> {
  const [method, params] = WAYS[way](count);
  const started = performance.now();
  await rpc(url, method, params);
  const head = Number(await rpc(url, "eth_blockNumber"));
  if (head < count) throw new Error(`${method} made ${head} blocks, not ${count}`);
  return (performance.now() - started) / 1000;
}

console.log(`anvil ${extra.join(" ") || "(no flags)"}; load average ${load()}`);
for (const way of Object.keys(WAYS) as (keyof typeof WAYS)[]) {
  const seconds = await withAnvil((url) => mine(url, 1_000, way));
  console.log(`${way} of 1000 blocks on a fresh anvil: ${seconds.toFixed(2)} s (load ${load()})`);
}
for (const size of values.sizes!.split(",").map(Number)) {
  const seconds = await withAnvil((url) => mine(url, size));
  console.log(`one hardhat_mine of ${size} blocks on a fresh anvil: ${seconds.toFixed(2)} s (load ${load()})`);
}
const jumps = await withAnvil(async (url) => {
  const each: number[] = [];
  for (let i = 0; i < Number(values.jumps); i++) each.push(await mine(url, 1_000));
  return each;
});
console.log(
  `${jumps.length} jumps of 1,000 one after another: ${jumps.map((s) => s.toFixed(2)).join(", ")} s; ` +
    `${jumps.reduce((a, b) => a + b, 0).toFixed(1)} s in all (load ${load()})`,
);
