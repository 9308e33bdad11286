import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { START_ERRORS } from "../../src/core/errors.ts";
import { addressOf, keyFor } from "../../src/core/keys.ts";
import { DEFAULT_MINT_KEY, importCollections } from "../../src/import/import.ts";
import { parseScenario } from "../../src/scenario/load.ts";
import { scenarioWorld } from "../../src/scenario/replay.ts";
import { SNAPSHOT_BASE_URL } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { describeOnAnvil, startAnvil, type NodeProcess } from "../chain/nodes.ts";
import { LIVE_MARKET, SHARED_ADDRESS, SHARED_BLOCK, sharedBlockService, upstream } from "../cli/live-upstream.ts";
import { call, mintItem, startTestSimulator } from "../harness.ts";

// An imported world (its collection and its marketplace placed at their live addresses, its chain at live heights)
// served on anvil (--rpc-url) as chain 56: the collection answers at its live address, its history at the live blocks
// (the events of one live block in one block) with the live escrow, and mints go into it, on the first run and on the
// next, which attaches to what the first recorded (--contracts).

const recipient = addressOf(keyFor("account/recipient"));

/** The marketplace is at its live address on the node: the world names it there, and the listing escrowed there. */
async function expectLiveMarketplace(sim: Simulator): Promise<void> {
  expect((await call(sim, "/_sim/world")).body.chains[0].contracts.marketplace).toBe(LIVE_MARKET);
  const [listed, escrowed] = (await call(sim, `/api/v2/item/events/${SHARED_ADDRESS}/1`)).body.events;
  expect([listed.event, escrowed.event, escrowed.to]).toEqual(["ItemListed", "TransferSingle", LIVE_MARKET]);
}

describeOnAnvil("an imported world on anvil (--rpc-url)", () => {
  let scenario: Record<string, unknown>;
  let anvil: NodeProcess | undefined;
  const world = () => scenarioWorld(parseScenario(scenario), { baseUrl: SNAPSHOT_BASE_URL });
  const genesis = () => Math.floor(world().genesisTime!.getTime() / 1000);
  const startBlock = () => (scenario.chains as { startBlock: number }[])[0]!.startBlock;

  beforeAll(async () => {
    const live = await upstream(sharedBlockService);
    try {
      const cacheDir = await mkdtemp(join(tmpdir(), "anvil-import-"));
      const imported = await importCollections({
        from: live.base,
        collections: [SHARED_ADDRESS],
        cacheDir,
        now: new Date("2023-01-02T00:00:00Z"),
      });
      scenario = imported.scenario;
    } finally {
      live.server.close();
    }
  });
  afterAll(() => anvil?.stop("SIGKILL"));

  it("is refused, saying how to start the node, where the node is far below the world's live heights", async () => {
    anvil = await startAnvil({ chainId: 56, timestamp: genesis() });
    try {
      await expect(startTestSimulator(world(), { nodeUrls: [anvil.url] })).rejects.toMatchObject({
        descriptor: START_ERRORS.NODE_REFUSED,
        message: expect.stringContaining(`Start the node just below it (anvil --number ${startBlock() - 1})`),
      });
    } finally {
      await anvil.stop("SIGKILL");
    }
  });

  it("started just below them: the collection answers at its live address with its live blocks, and takes mints, again after attaching", async () => {
    anvil = await startAnvil({ chainId: 56, timestamp: genesis(), number: startBlock() - 1 });
    const contractsFile = join(await mkdtemp(join(tmpdir(), "anvil-import-contracts-")), "contracts.json");
    const options = { nodeUrls: [anvil.url], contractsFile };
    const mint = (sim: Simulator) =>
      mintItem(sim, { collection: SHARED_ADDRESS, chainId: 56, apiKey: DEFAULT_MINT_KEY, recipient });
    let sim: Simulator = await startTestSimulator(world(), options);
    try {
      const { body } = await call(sim, `/api/v2/collection/${SHARED_ADDRESS}`);
      expect(body.collection).toMatchObject({ address: SHARED_ADDRESS, chainId: 56, name: "Shared Block" });
      const [moved] = (await call(sim, `/api/v2/item/events/${SHARED_ADDRESS}/2`)).body.events;
      const [listed, escrow] = (await call(sim, `/api/v2/item/events/${SHARED_ADDRESS}/1`)).body.events;
      // The live block's two transactions share its block there too: the transfer, first in it, keeps its live id.
      expect(moved).toMatchObject({
        event: "TransferSingle",
        id: `TransferSingle-${SHARED_BLOCK}-0`,
        blockNumber: SHARED_BLOCK,
        itemCollection: SHARED_ADDRESS,
      });
      expect([listed.event, escrow.event]).toEqual(["ItemListed", "TransferSingle"]);
      for (const event of [listed, escrow]) expect(event.blockNumber).toBe(SHARED_BLOCK);
      await expectLiveMarketplace(sim);
      const minted = await mint(sim);
      expect(minted.status, JSON.stringify(minted.body)).toBe(200);
      expect(minted.body.tokenIds).toEqual([3]);
    } finally {
      await sim.close();
    }
    sim = await startTestSimulator(world(), options);
    try {
      const { body } = await call(sim, `/api/v2/collection/${SHARED_ADDRESS}`);
      expect(body.collection.address).toBe(SHARED_ADDRESS);
      await expectLiveMarketplace(sim);
      const minted = await mint(sim);
      expect(minted.status, JSON.stringify(minted.body)).toBe(200);
      expect(minted.body.tokenIds).toEqual([4]);
    } finally {
      await sim.close();
    }
  }, 180_000);
});
