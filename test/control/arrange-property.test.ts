import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { expectModelsMatchContracts } from "../chain-oracle.ts";
import { call, postJson, startDemo } from "../harness.ts";
import { digestOf, everyAnswer, setBalanceBehindTheIndex } from "./world-answers.ts";

// Whatever fragment a test sends, the world is never half-applied: a refused one (400, 422) leaves every answer as it
// was; an accepted one is undone by reverting to a snapshot taken before it. Random fragments over the demo world's
// handles: transfers, burns, mints, listings and purchases with amounts that may pass what is held, unknown handles,
// times before now, zero prices.

let sim: Simulator;
beforeAll(async () => {
  sim = await startDemo();
});
afterAll(() => sim?.close());

/** Mostly what the world holds; now and then what it does not. */
const mostly = <T>(usual: T[], rare: T[]) =>
  fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...usual) }, { weight: 1, arbitrary: fc.constantFrom(...rare) });
const account = mostly(["alice", "bob"], ["studio", "guest", "nobody"]);
const item = mostly(["sky-saddle", "healing-brew"], ["dragon-egg", "nitro-boost", "no-such-item"]);
const amount = fc.integer({ min: 1, max: 8 });
const at = mostly([undefined, "now", "+1h"], ["-1h"]);
const listing = mostly(["l0", "l1", "sky-saddle-sale"], ["healing-brew-sale", "nope"]);

const entry = fc.oneof(
  fc.record({ action: fc.constant("transfer"), item, from: account, to: account, amount, at }),
  fc.record({ action: fc.constant("burn"), item, from: account, amount, at }),
  fc.record({
    action: fc.constant("mint"),
    item,
    by: mostly(["studio"], ["alice"]),
    to: account,
    amount: fc.integer({ min: 1, max: 120 }),
  }),
  fc.record({
    action: fc.constant("list"),
    listing: fc.constantFrom("l0", "l1"),
    item,
    seller: account,
    amount,
    price: mostly(["1", "0.25"], ["0"]),
    currency: fc.constantFrom("native", "stablecoin"),
  }),
  fc.record({ action: fc.constant("buy"), listing, buyer: account, amount: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ action: fc.constant("delist"), listing }),
);
const withoutUndefined = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));

/**
 * A holder's balance taken away in the contract's storage, where no log tells the index, and a first entry that moves
 * one of it: the rule checks (which read the index) let it through, and its transaction reverts on chain, so the
 * fragment must go back from part-way.
 */
const drained = fc.record({
  holder: fc.constantFrom("alice", "bob"),
  item: fc.constantFrom("sky-saddle", "healing-brew"),
});
const entries = (minLength: number, maxLength: number) => fc.array(entry, { minLength, maxLength });
/** Four shapes, one as likely as another, so every run of the property reaches each outcome. */
const fragment = fc.oneof(
  // Drawn entries: mostly refused, now and then accepted.
  fc.record({ drained: fc.constant(undefined), entries: entries(1, 4) }),
  // A transfer of what the holder has: accepted.
  fc.record({
    drained: fc.constant(undefined),
    entries: fc.constant([{ action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 1 }]),
  }),
  // A transfer of what the holder no longer has on chain: reverted there, rolled back.
  fc.record({ drained, entries: fc.constant([]) }),
  // The same, before drawn entries: refused, or reverted there.
  fc.record({ drained, entries: entries(1, 3) }),
);

it("never half-applies a fragment: refused ones change nothing, accepted ones go back with a snapshot", async () => {
  const before = digestOf(await everyAnswer(sim));
  const handles = (await call(sim, "/_sim/world")).body;
  const ran = { accepted: 0, refused: 0, revertedOnChain: 0 };
  await fc.assert(
    fc.asyncProperty(fragment, async ({ drained, entries }) => {
      const { body: snapshot } = await postJson(sim, "/_sim/snapshots", {});
      const timeline: Record<string, unknown>[] = entries.map(withoutUndefined);
      if (drained) {
        const { chainId, collection, tokenIds } = handles.items[drained.item];
        const holder = handles.accounts[drained.holder].address;
        await setBalanceBehindTheIndex(sim, chainId, { collection, tokenId: BigInt(tokenIds[0]) }, holder, 0n);
        const to = drained.holder === "alice" ? "bob" : "alice";
        timeline.unshift({ action: "transfer", item: drained.item, from: drained.holder, to, amount: 1 });
      }
      const answer = await postJson(sim, "/_sim/scenario", { timeline });
      expect([200, 400, 422], JSON.stringify(answer.body)).toContain(answer.status);
      if (answer.status === 200) ran.accepted += 1;
      else if (/nothing of the fragment was kept/.test(answer.body.message)) ran.revertedOnChain += 1;
      else ran.refused += 1;
      if (answer.status !== 200) expect(digestOf(await everyAnswer(sim))).toBe(before);
      expect((await postJson(sim, `/_sim/snapshots/${snapshot.id}/revert`, {})).status).toBe(200);
      expect(digestOf(await everyAnswer(sim))).toBe(before);
      for (const chain of sim.chains.all()) await expectModelsMatchContracts(chain);
    }),
    { numRuns: 40 },
  );
  console.log(`fragments: ${JSON.stringify(ran)}`);
  // The generator reaches every side: accepted fragments, refused ones, and ones rolled back after an on-chain revert.
  expect(ran.accepted).toBeGreaterThan(0);
  expect(ran.refused).toBeGreaterThan(0);
  expect(ran.revertedOnChain).toBeGreaterThan(0);
}, 240_000);
