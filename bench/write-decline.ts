// `node bench/write-decline.ts [raw|chain|http] [mints]`: does minting slow down as the chain grows?
// 8 concurrent writers on the demo world, mints/s per 4,000: `raw` sends through SimChain.write
// only (EDR and the block batcher), `chain` also waits for the index (confirmed), `http` goes
// through the API. Set __EDR_MAX_CACHED_STATES to compare EDR's state-cache sizes.
import { addItem } from "../src/chain/actions/add-item.ts";
import { demoWorld } from "../src/scenario/worlds.ts";
import { startSimulator } from "../src/simulator/simulator.ts";

const mode = process.argv[2] ?? "raw";
const total = Number(process.argv[3] ?? 24_000);
const sim = await startSimulator(demoWorld(), { port: 0, serveRpc: false });
const chain = sim.chains.get(56)!;
const models = await chain.read();
const collection = [...models.collections.keys()][0]!;
const owner = models.collections.get(collection)!.owner;
const body = JSON.stringify({
  collectionAddress: collection,
  recipient: owner,
  chainId: 56,
  item: { name: "x", initialSupply: 1 },
});
let done = 0;
let windowStart = performance.now();

async function mintOnce(): Promise<void> {
  if (mode === "http") {
    await (
      await fetch(`${sim.url}/api/v2/item/new?apiKey=demo-studio-key`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      })
    ).text();
    return;
  }
  const hash = await addItem(
    chain,
    { from: owner, collection, to: owner, royaltyPerMille: 0n, initialSupply: 1n, maxSupply: 1n, metadata: "0x" },
    { dryRun: true },
  );
  if (mode === "chain") await chain.confirmed(hash);
}

async function writer(): Promise<void> {
  while (done < total) {
    await mintOnce();
    done += 1;
    if (done % 4000 === 0) {
      const now = performance.now();
      console.log(`${mode}: mints ${done - 3999}–${done}: ${Math.round(4000 / ((now - windowStart) / 1000))}/s`);
      windowStart = now;
    }
  }
}

await Promise.all(Array.from({ length: 8 }, writer));
await sim.close();
