import { afterAll, beforeAll, describe } from "vitest";
import { demoWorld, SNAPSHOT_BASE_URL } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { startTestSimulator } from "../harness.ts";
import { LIKE_A_FRESH_NODE, nodeSuite } from "./node-suite.ts";
import { rpc } from "../rpc.ts";
import { startHardhatNode, type NodeProcess } from "./nodes.ts";

// The simulator on Hardhat's own JSON-RPC node (`hardhat node`, a separate process on the
// project's Node 22) as chain 56, chain 137 in process: the same checks as on anvil, the
// take-back done with evm_snapshot / evm_revert.

describe("on Hardhat's node (--rpc-url)", () => {
  let node: NodeProcess;
  let sim: Simulator;
  let inProcess: Simulator;
  const world = () => demoWorld({ baseUrl: SNAPSHOT_BASE_URL });

  beforeAll(async () => {
    node = await startHardhatNode({ chainId: 56, initialDate: world().genesisTime! });
    [sim, inProcess] = await Promise.all([
      startTestSimulator(world(), { nodeUrls: [node.url], pollIntervalMs: 100 }),
      startTestSimulator(world(), LIKE_A_FRESH_NODE),
    ]);
  });
  afterAll(async () => {
    await Promise.all([sim?.close(), inProcess?.close()]);
    await node?.stop();
  });

  nodeSuite("Hardhat's node", {
    nodeUrl: () => node.url,
    sim: () => sim,
    inProcess: () => inProcess,
    rewinder(url) {
      let snapshot = "";
      return {
        mark: async () => void (snapshot = await rpc(url, "evm_snapshot")),
        rewind: async () => void (await rpc(url, "evm_revert", [snapshot])),
      };
    },
  });
});
