import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { START_ERRORS } from "../../src/core/errors.ts";
import { demoWorld, SNAPSHOT_BASE_URL } from "../../src/scenario/worlds.ts";
import { call, mintItem, startTestSimulator } from "../harness.ts";
import { chainAnswers } from "./node-suite.ts";
import { rpc } from "../rpc.ts";
import { describeOnAnvil, startAnvil, type NodeProcess } from "./nodes.ts";
import { startLimitedNode } from "./plain-node.ts";

// --contracts: the first run on a node deploys, replays the world and records where; the next
// run attaches (nothing sent), reads back what it keeps off-chain, and serves the same answers.

describeOnAnvil("--contracts on anvil", () => {
  let anvil: NodeProcess;
  let contractsFile: string;
  let recordedAnswers: unknown;
  const world = () => demoWorld({ baseUrl: SNAPSHOT_BASE_URL });
  const options = () => ({
    nodeUrls: [anvil.url],
    contractsFile,
    chains: [
      { chainId: 56, rpcPort: 0 },
      { chainId: 137, rpcPort: 0 },
    ],
  });

  beforeAll(async () => {
    contractsFile = join(await mkdtemp(join(tmpdir(), "nft-sim-contracts-")), "contracts.json");
    anvil = await startAnvil({ chainId: 56, timestamp: Math.floor(world().genesisTime!.getTime() / 1000) });
  });
  afterAll(() => anvil?.stop("SIGKILL"));

  it("a first run records the contracts and the world; a second attaches without sending anything and answers the same", async () => {
    const first = await startTestSimulator(world(), options());
    const recorded = JSON.parse(await readFile(contractsFile, "utf8")).chains["56"];
    expect(recorded).toMatchObject({
      factory: first.chains.get(56)!.contracts.factory,
      world: expect.stringContaining("scenario "),
    });
    expect(recorded.loadedAt.block).toBe((await first.chains.get(56)!.read()).head.blockNumber);
    const [collection] = (await call(first, "/api/v2/collection?chainId=56")).body.collections.map(
      (c: { address: Address }) => c.address,
    );
    expect((await mintItem(first, { collection, chainId: 56 })).status).toBe(200);
    const answers = await chainAnswers(first, 56);
    recordedAnswers = answers;
    await first.close();

    const head = await rpc(anvil.url, "eth_blockNumber");
    const secondWorld = world();
    const second = await startTestSimulator(secondWorld, options());
    try {
      expect(await rpc(anvil.url, "eth_blockNumber")).toBe(head);
      expect(await chainAnswers(second, 56)).toEqual(answers);
      // What the chain does not hold came back too: where the scenario's items landed, and their metadata.
      const saddle = secondWorld.landed.item("sky-saddle");
      expect(saddle.chainId).toBe(56);
      const metadata = await call(second, `/metadata/56/dragon-riders/${saddle.tokenIds[0]}`);
      expect(metadata.status).toBe(200);
      expect(metadata.body).toMatchObject({ name: "Sky Saddle", description: "A saddle for long flights." });
      expect(
        (await call(second, `/api/v2/collection/${secondWorld.landed.collection("dragon-riders").address}`)).body
          .collection.description,
      ).toBe("Mounts and saddles of the sky clans.");
    } finally {
      await second.close();
    }
  });

  it("attaches through a node that answers eth_getLogs for at most 5 blocks, as providers limit it: the same answers, read in narrower ranges", async () => {
    const limited = await startLimitedNode(anvil.url, 5);
    const second = await startTestSimulator(world(), { ...options(), nodeUrls: [limited.url] });
    try {
      expect(await chainAnswers(second, 56)).toEqual(recordedAnswers);
      expect(limited.ranges.filter((range) => range.refused).length).toBeGreaterThan(0);
      expect(
        Math.max(...limited.ranges.filter((range) => !range.refused).map((range) => range.blocks)),
      ).toBeLessThanOrEqual(5);
      // Once narrowed, it stays narrow: the refusals are the halvings down to 5 blocks, not one per range.
      expect(limited.ranges.filter((range) => range.refused).length).toBeLessThanOrEqual(
        Math.ceil(Math.log2(2_000 / 5)) + 1,
      );
    } finally {
      await second.close();
      await limited.close();
    }
  });

  it("refuses to attach a world other than the one recorded, and --state beside an attached chain", async () => {
    const other = demoWorld({ baseUrl: "http://127.0.0.1:4000" });
    await expect(startTestSimulator(other, options())).rejects.toMatchObject({
      descriptor: START_ERRORS.NODE_REFUSED,
      message: expect.stringMatching(
        /records the world ".*uris at http:\/\/127\.0\.0\.1:3000" on its contracts, not ".*uris at http:\/\/127\.0\.0\.1:4000"/,
      ),
    });
    const stateDir = await mkdtemp(join(tmpdir(), "nft-sim-state-"));
    await expect(startTestSimulator(world(), { ...options(), stateDir })).rejects.toMatchObject({
      descriptor: START_ERRORS.NODE_REFUSED,
      message: expect.stringContaining("use one or the other"),
    });
  });

  it("refuses a node that no longer holds the recorded chain (restarted without its state)", async () => {
    const { port } = anvil;
    await anvil.stop("SIGKILL");
    anvil = await startAnvil({ chainId: 56, port });
    await expect(startTestSimulator(world(), options())).rejects.toMatchObject({
      descriptor: START_ERRORS.NODE_REFUSED,
      message: expect.stringMatching(
        /chain 56 \(http:\/\/127\.0\.0\.1:\d+\) is not the chain .*contracts\.json was written for: no contract at 0x[0-9a-f]{40}/,
      ),
    });
  });
});
