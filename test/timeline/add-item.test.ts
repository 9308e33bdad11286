import { describe, expect, it } from "vitest";
import { demoWorld, eventsOf, problemsOf } from "./timeline.ts";

describe("addItem: its checks", () => {
  it("adds an item once, into a collection created before it, signed and received by accounts", () => {
    expect(
      problemsOf((s) => {
        s.items.push({ id: "late", collection: "tiles", name: "Late", initialSupply: 1 });
        s.timeline.push(
          { at: "-1h", action: "addItem", item: "coin", by: "studio", to: "bob" },
          { at: "-55d", action: "addItem", item: "late", by: "studio", to: "nobody" },
          { at: "-1h", action: "addItem", item: "ghost", by: "mallory", to: "bob" },
        );
      }),
    ).toEqual([
      "timeline[17].to: unknown account 'nobody'",
      "timeline[17].at: collection 'tiles' is not created yet at -55d",
      "timeline[16].item: item 'coin' is already added by timeline[0]",
      "timeline[18].by: unknown account 'mallory'",
      "timeline[18].item: unknown item 'ghost'",
    ]);
  });
});

describe("addItem: its rules and its transaction", () => {
  const demo = demoWorld();

  it("needs the minter role on the collection: the world's (asked of the chain) or the fragment's own", async () => {
    const { status, body } = await demo.arrange({
      collections: [{ id: "forge", chainId: 56, name: "Forge", owner: "studio", minters: ["arcade"] }],
      items: [
        { id: "hat", collection: "dragon-riders", name: "Hat", initialSupply: 1 },
        { id: "anvil", collection: "forge", name: "Anvil", initialSupply: 1 },
        { id: "tongs", collection: "forge", name: "Tongs", initialSupply: 1 },
      ],
      timeline: [
        { action: "addItem", item: "hat", by: "guest", to: "guest" },
        { action: "addItem", item: "anvil", by: "alice", to: "alice" },
        { action: "addItem", item: "tongs", by: "arcade", to: "alice" },
      ],
    });
    expect([status, body.error]).toEqual([422, "CONTRACT_RULE"]);
    expect(body.errors).toEqual([
      "timeline[0].by: 'guest' does not hold the minter role on collection 'dragon-riders'",
      "timeline[1].by: 'alice' does not hold the minter role on collection 'forge'",
    ]);
  });

  it("gives `to` the initial supply: what the later entries may move", async () => {
    const { status, body } = await demo.arrange({
      items: [{ id: "cup", collection: "dragon-riders", name: "Cup", initialSupply: 4 }],
      timeline: [
        { action: "addItem", item: "cup", by: "arcade", to: "alice" },
        { action: "transfer", item: "cup", from: "alice", to: "bob", amount: 5 },
      ],
    });
    expect([status, body.errors]).toEqual([422, ["timeline[1].amount: 'alice' holds 4 of item 'cup', not 5"]]);
  });

  it("creates the collection's next token ids, minted to `to`: one for a stackable item, one per copy otherwise", async () => {
    const before = await demo.world();
    const { status, body } = await demo.arrange({
      items: [
        { id: "flag", collection: "dragon-riders", name: "Flag", initialSupply: 7, maximumSupply: 9 },
        { id: "medal", collection: "dragon-riders", name: "Medal", isStackable: false, initialSupply: 2 },
      ],
      timeline: [
        { action: "addItem", item: "flag", by: "studio", to: "alice" },
        { action: "addItem", item: "medal", by: "arcade", to: "bob" },
      ],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const next =
      Math.max(
        ...Object.values(before.items as Record<string, { tokenIds: number[] }>).flatMap((item) => item.tokenIds),
      ) + 1;
    expect(body.items.flag).toMatchObject({ chainId: 56, tokenIds: [next] });
    expect(body.items.medal).toMatchObject({ chainId: 56, tokenIds: [next + 1, next + 2] });
    const { alice, bob } = (await demo.world()).accounts;
    const flag = await demo.history("flag");
    expect(eventsOf(flag, body.timeline[0].txHash)).toEqual(["TransferSingle"]);
    expect(flag[0]).toMatchObject({ to: alice.address, amount: "7" });
    for (const copy of [1, 2])
      expect((await demo.history("medal", copy))[0]).toMatchObject({ to: bob.address, amount: "1" });
  });
});
