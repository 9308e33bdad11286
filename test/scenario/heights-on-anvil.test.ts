import { expect, it } from "vitest";
import { NODE_MINES_AT_MOST, NODE_MINES_IN_ALL } from "../../src/chain/height.ts";
import { START_ERRORS } from "../../src/core/errors.ts";
import { parseScenario } from "../../src/scenario/load.ts";
import { scenarioWorld } from "../../src/scenario/replay.ts";
import { describeOnAnvil, startAnvil } from "../chain/nodes.ts";
import { startTestSimulator } from "../harness.ts";
import { rpc } from "../rpc.ts";
import { PUBLIC_URL, sharedBlockScenario, START_BLOCK } from "./shared-block-world.ts";

// A node makes each empty block, each the slower the more it holds: a world whose entries leave more than
// NODE_MINES_IN_ALL empty blocks between them is refused there before any is mined, though no gap is over
// NODE_MINES_AT_MOST.

const FIRST = START_BLOCK + 100;
const GAP = NODE_MINES_AT_MOST - 1;
const JUMPS = Math.ceil(NODE_MINES_IN_ALL / GAP);

const spreadWorld = () => {
  const scenario = sharedBlockScenario([]);
  scenario.timeline = [
    { at: "-3d", block: FIRST, action: "addItem", item: "coin", by: "studio", to: "alice" },
    ...Array.from({ length: JUMPS }, (_, i) => ({
      at: `-${48 - i}h`,
      block: FIRST + (i + 1) * (GAP + 1),
      action: "transfer",
      item: "coin",
      from: "alice",
      to: "bob",
      amount: 1,
    })),
  ];
  return scenarioWorld(parseScenario(scenario), { baseUrl: PUBLIC_URL });
};

describeOnAnvil("a world's empty blocks on anvil", () => {
  it("are refused before any is mined where they add up to more than a node is asked for, each gap within bounds", async () => {
    const world = spreadWorld();
    const anvil = await startAnvil({
      chainId: 56,
      timestamp: Math.floor(world.genesisTime!.getTime() / 1000),
      number: START_BLOCK - 1,
    });
    try {
      await expect(startTestSimulator(world, { nodeUrls: [anvil.url] })).rejects.toMatchObject({
        descriptor: START_ERRORS.NODE_REFUSED,
        message: expect.stringMatching(
          new RegExp(`leave about \\d+ empty blocks between them .* \\(at most ${NODE_MINES_IN_ALL}: `),
        ),
      });
      expect(Number(await rpc(anvil.url, "eth_blockNumber"))).toBeLessThan(FIRST);
    } finally {
      await anvil.stop("SIGKILL");
    }
  }, 120_000);
});
