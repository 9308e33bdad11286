// `node bench/mint-gas.ts`: what a mint costs in gas now that the item's metadata goes on chain with it.
// Mints through the API of a simulator on the demo world (in process) items of the sizes the default
// world has (its smallest, its median and its largest item metadata), the largest the API takes
// (16,384 bytes), and the same item non-stackable in 5 copies; then sends the same call without
// metadata (the plain addItem, what a mint cost before) and reads both receipts' gasUsed.
import { readFileSync } from "node:fs";
import type { Hex } from "viem";
import { addItem } from "../src/chain/actions/add-item.ts";
import { encodeItemDescription } from "../src/metadata/codec.ts";
import { scenarioMetadata } from "../src/scenario/metadata.ts";
import type { Scenario } from "../src/schemas/scenario.ts";
import { demoWorld } from "../src/scenario/worlds.ts";
import { startSimulator } from "../src/simulator/simulator.ts";

const sim = await startSimulator(demoWorld(), { port: 0, serveRpc: false });
const chain = sim.chains.get(56)!;
const models = await chain.read();
const collection = [...models.collections.keys()][0]!;
const owner = models.collections.get(collection)!.owner;

// The default world's items as they go on chain, smallest first.
const world = JSON.parse(readFileSync(new URL("../fixtures/default-world.json", import.meta.url), "utf8")) as Scenario;
const items = [...scenarioMetadata(world, []).items.values()].sort((a, b) => a.length - b.length);
const bytesOf = (metadata: Hex) => (metadata.length - 2) / 2;
const [smallest, median, biggest] = [items[0]!, items[Math.floor(items.length / 2)]!, items.at(-1)!];

const largest = encodeItemDescription({
  name: "The Largest Item",
  description: "d".repeat(4_900),
  imageUrl: `https://img.example/${"i".repeat(1_900)}.png`,
  fileType: "image/png",
  properties: Array.from({ length: 9 }, (_, i) => ({ name: `lore-${i}`, value: "v".repeat(1_000), static: true })),
  isConsumable: false,
});

async function gasOf(metadata: Hex, stackable = true): Promise<bigint> {
  const body = {
    collectionAddress: collection,
    recipient: owner,
    chainId: 56,
    item: {
      ...JSON.parse(Buffer.from(metadata.slice(2), "hex").toString("utf8")),
      isStackable: stackable,
      initialSupply: stackable ? 1 : 5,
    },
  };
  const response = await fetch(`${sim.url}/api/v2/item/new?apiKey=demo-studio-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const minted = (await response.json()) as { txHash: Hex; error?: string };
  if (!response.ok) throw new Error(`mint answered ${response.status}: ${JSON.stringify(minted)}`);
  return (await chain.publicClient.getTransactionReceipt({ hash: minted.txHash })).gasUsed;
}

async function plainGas(): Promise<bigint> {
  const params = { from: owner, collection, to: owner, royaltyPerMille: 0n, initialSupply: 1n, maxSupply: 1n };
  const hash = await addItem(chain, { ...params, metadata: "0x" }, { dryRun: true });
  return (await chain.confirmed(hash)).gasUsed;
}

const rows: [string, Hex, bigint][] = [
  ["the default world's smallest item", smallest, await gasOf(smallest)],
  ["its median item", median, await gasOf(median)],
  ["its largest item", biggest, await gasOf(biggest)],
  ["the largest the API takes", largest, await gasOf(largest)],
  ["its median item, non-stackable, 5 copies", median, await gasOf(median, false)],
];
const plain = await plainGas();
console.log(`| mint | metadata on chain | gas used | of which the metadata |`);
console.log(`|---|---:|---:|---:|`);
console.log(`| a stackable item without metadata (the plain addItem) | 0 B | ${plain.toLocaleString("en")} | – |`);
for (const [what, metadata, gas] of rows)
  console.log(
    `| ${what} | ${bytesOf(metadata).toLocaleString("en")} B | ${gas.toLocaleString("en")} | ${what.includes("non-stackable") ? "–" : (gas - plain).toLocaleString("en")} |`,
  );
await sim.close();
