import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address } from "viem";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { runContractSuite } from "../../src/contract-suite/suite.ts";
import { addressOf, deployerKey, keyFor } from "../../src/core/keys.ts";
import { loadScenarioFile } from "../../src/scenario/load.ts";
import {
  CONTRACT_SUITE_WORLD_FILE,
  DEMO_WORLD_FILE,
  demoWorld,
  fixtureWorld,
  SNAPSHOT_BASE_URL,
} from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, DEMO_KEYS, mintItem, postJson, startTestSimulator } from "../harness.ts";
import { everyAnswer, setBalanceBehindTheIndex } from "../control/world-answers.ts";
import { eventually, until } from "../eventually.ts";
import { chainAnswers, LIKE_A_FRESH_NODE, nodeSuite } from "./node-suite.ts";
import { rpc } from "../rpc.ts";
import { describeOnAnvil, startAnvil, type NodeProcess } from "./nodes.ts";

// The simulator on anvil (the npm package's binary, a separate process) as chain 56, chain 137 in
// process. Skipped only off linux-x64, where the binary's package is not checked; on linux-x64 a
// missing binary fails (npm install brings it).

const POLL_MS = 100;
const genesisOf = (world: { genesisTime?: Date }) => Math.floor(world.genesisTime!.getTime() / 1000);

describeOnAnvil("on anvil (--rpc-url)", () => {
  let anvil: NodeProcess;
  let sim: Simulator;
  let inProcess: Simulator;
  let state: string;
  const world = () => demoWorld({ baseUrl: SNAPSHOT_BASE_URL });

  beforeAll(async () => {
    state = join(await mkdtemp(join(tmpdir(), "nft-sim-anvil-")), "state.json");
    anvil = await startAnvil({ chainId: 56, timestamp: genesisOf(world()), state });
    [sim, inProcess] = await Promise.all([
      startTestSimulator(world(), { nodeUrls: [anvil.url], pollIntervalMs: POLL_MS }),
      startTestSimulator(world(), LIKE_A_FRESH_NODE),
    ]);
  });
  afterAll(async () => {
    await Promise.all([sim?.close(), inProcess?.close()]);
    await anvil?.stop("SIGKILL");
  });

  nodeSuite("anvil", {
    nodeUrl: () => anvil.url,
    sim: () => sim,
    inProcess: () => inProcess,
    rewinder(url) {
      let marked = 0;
      return {
        mark: async () => void (marked = Number(await rpc(url, "eth_blockNumber"))),
        rewind: async () =>
          void (await rpc(url, "anvil_reorg", [Number(await rpc(url, "eth_blockNumber")) - marked, []])),
      };
    },
  });

  it("answers 503 while anvil is down, then carries on where it was when anvil is back with its state: nothing lost or doubled", async () => {
    const [collection] = (
      await call(sim, "/api/v2/collection?chainId=56&sortBy=name&sortDir=asc")
    ).body.collections.map((c: { address: Address }) => c.address);
    const minted = await mintItem(sim, { collection, chainId: 56, item: { initialSupply: 4 } });
    const tokenId = minted.body.tokenIds[0];
    const before = (await call(sim, "/api/v2/collection?chainId=56&perPage=100")).body;
    const history = (await call(sim, `/api/v2/item/events/${collection}/${tokenId}`)).body;
    const models = await sim.chains.get(56)!.read();

    await anvil.stop("SIGINT");
    // Reads answer from the index until the next poll finds the node gone.
    const down = await eventually(async () => {
      const answer = await call(sim, "/api/v2/collection?chainId=56");
      expect(answer.status).toBe(503);
      return answer;
    });
    expect(down.body.error).toBe("CHAIN_UNAVAILABLE");
    expect(down.body.errors[0]).toMatch(/^chain 56: the node at http:\/\/127\.0\.0\.1:\d+ does not answer/);
    expect((await call(sim, "/api/v2/collection?chainId=137")).status).toBe(200);
    const reset = await postJson(sim, "/_sim/reset", {});
    expect(reset.status).toBe(503);
    // A few polls go by while the node is away (counted at its port, where nothing answers them): none of them may be
    // taken for blocks gone.
    let polls = 0;
    const away = createServer((socket) => {
      polls += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => away.listen(anvil.port, "127.0.0.1", resolve));
    await until("five polls reached the node's port while it was away", () => polls >= 5);
    await new Promise((resolve) => away.close(resolve));

    anvil = await startAnvil({ chainId: 56, state, port: anvil.port });
    const back = await eventually(async () => {
      const answer = await call(sim, "/api/v2/collection?chainId=56&perPage=100");
      expect(answer.status).toBe(200);
      return answer.body;
    });
    expect(back).toEqual(before);
    expect((await call(sim, `/api/v2/item/events/${collection}/${tokenId}`)).body).toEqual(history);
    // The index carried on with the models it had: the outage was not taken for blocks gone (no rebuild from a checkpoint).
    expect(await sim.chains.get(56)!.read()).toBe(models);
    // The restarted node holds none of the snapshots taken before: reset says so (409), not 500.
    const afterRestart = await postJson(sim, "/_sim/reset", {});
    expect(afterRestart.status).toBe(409);
    expect(afterRestart.body.errors[0]).toMatch(/no longer holds snapshot/);
    const again = await mintItem(sim, { collection, chainId: 56, item: { initialSupply: 1 } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.tokenIds[0]).toBe(tokenId + 1);
  });

  it("says so (503) when the node comes back as another chain (restarted without its state), and serves nothing of it", async () => {
    const before = (await call(sim, "/api/v2/collection?chainId=56")).body;
    await anvil.stop("SIGINT"); // anvil writes its state file as it exits
    const fresh = await startAnvil({ chainId: 56, port: anvil.port });
    try {
      const replaced = await eventually(async () => {
        const answer = await call(sim, "/api/v2/collection?chainId=56");
        expect(answer.body.errors?.[0]).toMatch(/not the chain the simulator loaded/);
        return answer;
      });
      expect(replaced.status).toBe(503);
      expect(replaced.body.error).toBe("CHAIN_UNAVAILABLE");
      expect((await call(sim, "/api/v2/collection")).status).toBe(503);
    } finally {
      await fresh.stop("SIGKILL");
    }
    anvil = await startAnvil({ chainId: 56, state, port: anvil.port });
    const back = await eventually(async () => {
      const answer = await call(sim, "/api/v2/collection?chainId=56");
      expect(answer.status).toBe(200);
      return answer.body;
    });
    expect(back).toEqual(before);
  });

  // Last: it leaves the node's clock behind its blocks.
  it("warns when the node comes back with its chain but an earlier clock (anvil restarted with --timestamp)", async () => {
    const warnings: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((message: string) => void warnings.push(message));
    try {
      await anvil.stop("SIGINT");
      anvil = await startAnvil({ chainId: 56, timestamp: genesisOf(world()), state, port: anvil.port });
      await rpc(anvil.url, "evm_mine");
      await eventually(async () => {
        await call(sim, "/api/v2/collection?chainId=56");
        expect(warnings.join("\n")).toMatch(
          /^chain 56's clock went back: block \d+ is stamped \S+Z, before block \d+ \(.*\); .*anvil --timestamp/m,
        );
      });
      expect(warnings.filter((line) => line.includes("clock went back"))).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });
});

describeOnAnvil("signed with the world's own keys (--keys) on anvil", () => {
  it("answers byte for byte as in process, transaction hashes included: the same transactions, signed the same", async () => {
    const { scenario } = loadScenarioFile(DEMO_WORLD_FILE);
    const keys = new Map(
      scenario.accounts.map((account) => [account.name, keyFor(account.keyLabel ?? `account/${account.name}`)]),
    );
    const world = () => demoWorld({ baseUrl: SNAPSHOT_BASE_URL, keys });
    const anvil = await startAnvil({ chainId: 56, timestamp: genesisOf(world()) });
    for (const key of [deployerKey(56), ...keys.values()])
      await rpc(anvil.url, "anvil_setBalance", [addressOf(key), "0xd3c21bcecceda1000000"]);
    const [signed, inProcess] = await Promise.all([
      startTestSimulator(world(), { nodeUrls: [anvil.url], givenKeys: { deployer: deployerKey(56), accounts: keys } }),
      startTestSimulator(world(), LIKE_A_FRESH_NODE),
    ]);
    try {
      expect(signed.chains.get(56)!.node!.writer.signs).toBe(true);
      expect(await chainAnswers(signed, 56, { keepHashes: true })).toEqual(
        await chainAnswers(inProcess, 56, { keepHashes: true }),
      );
    } finally {
      await Promise.all([signed.close(), inProcess.close()]);
      await anvil.stop("SIGKILL");
    }
  });
});

describeOnAnvil("fragments on anvil", () => {
  it("applies one (alice lists, bob buys), and rolls one back with the node's evm_snapshot: every answer as before", async () => {
    const world = demoWorld({ baseUrl: SNAPSHOT_BASE_URL });
    const anvil = await startAnvil({ chainId: 56, timestamp: genesisOf(world) });
    const sim = await startTestSimulator(world, { nodeUrls: [anvil.url], pollIntervalMs: POLL_MS });
    try {
      const applied = await postJson(sim, "/_sim/scenario", {
        timeline: [
          {
            action: "list",
            listing: "l",
            item: "sky-saddle",
            seller: "alice",
            amount: 2,
            price: "1",
            currency: "native",
          },
          { action: "buy", listing: "l", buyer: "bob", amount: 1, at: "+1h" },
        ],
      });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      const saddle = world.landed.item("sky-saddle");
      const sale = (await call(sim, `/api/v2/item/events/${saddle.collection}/${saddle.tokenIds[0]}`)).body.events[0];
      expect(sale).toMatchObject({ event: "Swapped", transactionHash: applied.body.timeline[1].txHash });
      expect(await rpc(anvil.url, "eth_getTransactionByHash", [applied.body.timeline[1].txHash])).not.toBeNull();

      const egg = world.landed.item("dragon-egg");
      const bob = (await call(sim, "/_sim/world")).body.accounts.bob.address;
      await setBalanceBehindTheIndex(sim, 56, { collection: egg.collection, tokenId: egg.tokenIds[0]! }, bob, 0n);
      const before = await everyAnswer(sim);
      const head = await rpc(anvil.url, "eth_blockNumber");
      const refused = await postJson(sim, "/_sim/scenario", {
        timeline: [
          { action: "transfer", item: "sky-saddle", from: "bob", to: "alice", amount: 1 },
          { action: "transfer", item: "dragon-egg", from: "bob", to: "alice", amount: 1 },
        ],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([
        expect.stringMatching(/^timeline\[1\] \(transfer\): .*ERC1155InsufficientBalance/),
      ]);
      expect(await rpc(anvil.url, "eth_blockNumber")).toBe(head);
      expect(await everyAnswer(sim)).toEqual(before);
    } finally {
      await sim.close();
      await anvil.stop("SIGKILL");
    }
  });
});

describeOnAnvil("the contract suite against the simulator on anvil", () => {
  it("passes every check, the mint included", async () => {
    const world = fixtureWorld(CONTRACT_SUITE_WORLD_FILE);
    const anvil = await startAnvil({ chainId: 56, timestamp: genesisOf(world) });
    const sim = await startTestSimulator(world, { nodeUrls: [anvil.url], pollIntervalMs: POLL_MS });
    try {
      const { chainId, collection, tokenIds } = world.landed.item("busy-coin");
      expect(sim.chains.get(chainId)!.external).toBe(true);
      const report = await runContractSuite({
        baseUrl: sim.url,
        apiKey: DEMO_KEYS.studio,
        collection,
        tokenId: Number(tokenIds[0]),
        chainId,
        allowWrites: true,
        mintCollection: collection,
      });
      expect(report.results.filter((result) => result.status !== "passed")).toEqual([]);
    } finally {
      await sim.close();
      await anvil.stop("SIGKILL");
    }
  });
});
