import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHECKPOINT_FILE } from "../../src/journal/image.ts";
import { JOURNAL_FILE } from "../../src/journal/journal.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { call, mintItem, postJson, startTestSimulator } from "../harness.ts";
import { until } from "../eventually.ts";
import { digestOf, everyAnswer, setBalanceBehindTheIndex } from "../control/world-answers.ts";

// --state: a fragment applied to the world is journaled as the fragment and its time; a restart
// replays it through the same code, so the world, its handles included, answers as before the stop.
// One rolled back leaves nothing in the journal.

const started: Simulator[] = [];
afterAll(() => Promise.all(started.map((sim) => sim.close())));

async function start(stateDir: string): Promise<Simulator> {
  const sim = await startTestSimulator(demoWorld({ baseUrl: "http://sim.test" }), { stateDir });
  started.push(sim);
  return sim;
}

const journalLines = (stateDir: string) =>
  readFileSync(join(stateDir, JOURNAL_FILE), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { t: string });

describe("fragments in the journal", () => {
  it("replays applied fragments on restart: the same answers and handles; a rolled-back one left no line", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "nft-sim-arrange-state-"));
    const first = await start(stateDir);
    const applied = await postJson(first, "/_sim/scenario", {
      accounts: [{ name: "dana" }],
      collections: [{ id: "dock", chainId: 137, name: "Dock", owner: "studio" }],
      items: [{ id: "crate", collection: "dock", name: "Crate", initialSupply: 6 }],
      timeline: [
        { action: "addItem", item: "crate", by: "studio", to: "alice" },
        {
          action: "list",
          listing: "crate-sale",
          item: "crate",
          seller: "alice",
          amount: 4,
          price: "2",
          currency: "native",
        },
        { action: "buy", listing: "crate-sale", buyer: "dana", amount: 1, at: "+1h" },
      ],
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const refused = await postJson(first, "/_sim/scenario", {
      timeline: [{ action: "buy", listing: "crate-sale", buyer: "bob", amount: 9 }],
    });
    expect(refused.status).toBe(400);
    // A write between fragments, and a fragment naming what the first one added.
    const riders = (await call(first, "/_sim/world")).body.collections["dragon-riders"].address;
    expect((await mintItem(first, { collection: riders, chainId: 56 })).status).toBe(200);
    const second = await postJson(first, "/_sim/scenario", {
      timeline: [
        { action: "buy", listing: "crate-sale", buyer: "bob", amount: 2 },
        { action: "transfer", item: "crate", from: "dana", to: "bob", amount: 1 },
      ],
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    // One that reverts part-way, after the checks: rolled back, and not journaled (the storage change is, as a call).
    const dockAddress = applied.body.collections.dock.address;
    const egg = (await call(first, "/_sim/world")).body.items["dragon-egg"];
    const bob = (await call(first, "/_sim/world")).body.accounts.bob.address;
    await setBalanceBehindTheIndex(
      first,
      56,
      { collection: egg.collection, tokenId: BigInt(egg.tokenIds[0]) },
      bob,
      0n,
    );
    const doomed = await postJson(first, "/_sim/scenario", {
      timeline: [
        { action: "transfer", item: "crate", from: "alice", to: "dana", amount: 1 },
        { action: "transfer", item: "dragon-egg", from: "bob", to: "dana", amount: 1 },
      ],
    });
    expect(doomed.status).toBe(422);
    expect(doomed.body.errors).toEqual([
      expect.stringMatching(/^timeline\[1\] \(transfer\): .*ERC1155InsufficientBalance/),
    ]);
    const before = await everyAnswer(first);
    expect(journalLines(stateDir).filter((line) => line.t === "scenario")).toHaveLength(2);
    await first.close();

    // The stop wrote a checkpoint: answered from it at once, while the chains replay the fragments behind it.
    const restarted = await start(stateDir);
    expect(restarted.load.source).toBe("state");
    await restarted.live;
    expect(restarted.restored?.answeredFrom).toBe("checkpoint");
    const after = await everyAnswer(restarted);
    expect(after).toEqual(before);
    expect(digestOf(after)).toBe(digestOf(before));
    expect(JSON.parse(after.get("/_sim/world")!.replace(/^200 /, ""))).toMatchObject({
      accounts: { dana: { address: applied.body.accounts.dana.address } },
      collections: { dock: { address: dockAddress } },
      items: { crate: { tokenIds: [1] } },
      listings: { "crate-sale": applied.body.listings["crate-sale"] },
    });
    // The handles came back: a fragment may name them again.
    const third = await postJson(restarted, "/_sim/scenario", {
      timeline: [{ action: "delist", listing: "crate-sale" }],
    });
    expect(third.status, JSON.stringify(third.body)).toBe(200);
  });

  it("after a crash with a fragment past the checkpoint, replays before answering: the same answers", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "nft-sim-arrange-crash-"));
    const first = await start(stateDir);
    await first.live;
    await until("a first checkpoint", () => first.control.state().checkpoint !== undefined);
    const crashed = readFileSync(join(stateDir, CHECKPOINT_FILE));
    const applied = await postJson(first, "/_sim/scenario", {
      timeline: [{ action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 1 }],
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const before = await everyAnswer(first);
    await first.close();
    // A crash before the stop's checkpoint: the one from before the fragment, whose line the fold cannot take.
    writeFileSync(join(stateDir, CHECKPOINT_FILE), crashed);

    const again = await start(stateDir);
    expect(again.load.source).toBe("replay");
    await again.live;
    expect(again.restored?.answeredFrom).toBe("replay");
    expect(await everyAnswer(again)).toEqual(before);
  });
});
