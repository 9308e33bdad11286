import { describe, expect, it } from "vitest";
import { setBalanceBehindTheIndex } from "../control/world-answers.ts";
import { demoWorld, eventsOf, problemsOf } from "./timeline.ts";

describe("transfer: its checks", () => {
  it("moves an item added before it, a token it has, between accounts", () => {
    expect(
      problemsOf((s) => {
        s.items.push({ id: "gem", collection: "riders", name: "Gem", initialSupply: 1 });
        s.timeline.push(
          { at: "-1h", action: "transfer", item: "badge", copy: 4, from: "alice", to: "bob", amount: 1 },
          { at: "-1h", action: "transfer", item: "gem", from: "alice", to: "zed", amount: 1 },
        );
      }),
    ).toEqual([
      "timeline[16].copy: item 'badge' has 3 tokens, not 4",
      "timeline[17].to: unknown account 'zed'",
      "timeline[17].item: item 'gem' is used at -1h before it is added (no addItem adds it)",
    ]);
  });
});

describe("transfer: its rules and its transaction", () => {
  const demo = demoWorld();

  it("moves only what `from` holds, token by token, as the entries before it leave it", async () => {
    const { status, body } = await demo.arrange({
      timeline: [
        { action: "transfer", item: "sky-saddle", from: "alice", to: "guest", amount: 6 },
        { action: "transfer", item: "sky-saddle", from: "alice", to: "guest", amount: 1 },
        { action: "transfer", item: "dragon-egg", copy: 2, from: "alice", to: "bob", amount: 1 },
      ],
    });
    expect([status, body.errors]).toEqual([
      422,
      [
        "timeline[1].amount: 'alice' holds 0 of item 'sky-saddle', not 1",
        "timeline[2].amount: 'alice' holds 0 of item 'dragon-egg' (copy 2), not 1",
      ],
    ]);
  });

  it("sends safeTransferFrom from the holder; what the rules cannot see, the contract refuses", async () => {
    const { status, body } = await demo.arrange({
      timeline: [{ action: "transfer", item: "dragon-egg", copy: 3, from: "bob", to: "alice", amount: 1 }],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const egg = await demo.history("dragon-egg", 3);
    const { alice, bob } = (await demo.world()).accounts;
    expect(eventsOf(egg, body.timeline[0].txHash)).toEqual(["TransferSingle"]);
    expect(egg[0]).toMatchObject({ from: bob.address, to: alice.address, amount: "1" });

    const { items, accounts } = await demo.world();
    const token = { collection: items["sky-saddle"].collection, tokenId: BigInt(items["sky-saddle"].tokenIds[0]) };
    await setBalanceBehindTheIndex(demo.sim, 56, token, accounts.alice.address, 0n);
    const refused = await demo.arrange({
      timeline: [{ action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 1 }],
    });
    expect([refused.status, refused.body.error]).toEqual([422, "CONTRACT_RULE"]);
    expect(refused.body.errors).toEqual([
      expect.stringMatching(/^timeline\[0\] \(transfer\): .*ERC1155InsufficientBalance/),
    ]);
  });
});
