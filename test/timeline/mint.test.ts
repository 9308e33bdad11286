import { describe, expect, it } from "vitest";
import { demoWorld, eventsOf, problemsOf } from "./timeline.ts";

describe("mint: its checks", () => {
  it("mints more of a stackable item only, after it is added", () => {
    expect(
      problemsOf((s) =>
        s.timeline.push(
          { at: "-1h", action: "mint", item: "badge", by: "studio", to: "bob", amount: 1 },
          { at: "-60d", action: "mint", item: "coin", by: "studio", to: "bob", amount: 1 },
        ),
      ),
    ).toEqual([
      "timeline[17].item: item 'coin' is used at -60d before it is added",
      "timeline[16].item: 'badge' is not stackable; each of its tokens has a supply of one",
    ]);
  });
});

describe("mint: its rules and its transaction", () => {
  const demo = demoWorld();

  it("needs a minter or the item's creator, and stays within the item's maximum supply", async () => {
    const { status, body } = await demo.arrange({
      items: [{ id: "cup", collection: "dragon-riders", name: "Cup", initialSupply: 4, maximumSupply: 6 }],
      timeline: [
        { action: "mint", item: "sky-saddle", by: "guest", to: "bob", amount: 1 },
        { action: "mint", item: "sky-saddle", by: "studio", to: "bob", amount: 91 },
        { action: "addItem", item: "cup", by: "arcade", to: "alice" },
        { action: "mint", item: "cup", by: "arcade", to: "bob", amount: 2 },
        { action: "mint", item: "cup", by: "arcade", to: "bob", amount: 1 },
      ],
    });
    expect([status, body.error]).toEqual([422, "CONTRACT_RULE"]);
    expect(body.errors).toEqual([
      "timeline[0].by: 'guest' does not hold the minter role on collection 'dragon-riders' and did not create item " +
        "'sky-saddle'",
      // Each entry is checked as if those before it went through.
      "timeline[1].amount: minting 91 more of item 'sky-saddle' (11 of at most 100) passes its maximum supply",
      "timeline[4].amount: minting 1 more of item 'cup' (6 of at most 6) passes its maximum supply",
    ]);
  });

  it("mints to `to`, and `to` may move what it was given", async () => {
    const refused = await demo.arrange({
      timeline: [
        { action: "mint", item: "sky-saddle", by: "arcade", to: "guest", amount: 3 },
        { action: "transfer", item: "sky-saddle", from: "guest", to: "bob", amount: 4 },
      ],
    });
    expect(refused.body.errors).toEqual(["timeline[1].amount: 'guest' holds 3 of item 'sky-saddle', not 4"]);
    const { status, body } = await demo.arrange({
      timeline: [{ action: "mint", item: "sky-saddle", by: "arcade", to: "guest", amount: 3 }],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const saddle = await demo.history("sky-saddle");
    expect(eventsOf(saddle, body.timeline[0].txHash)).toEqual(["TransferSingle"]);
    const guest = (await demo.world()).accounts.guest.address;
    expect(saddle[0]).toMatchObject({ from: "0x0000000000000000000000000000000000000000", to: guest, amount: "3" });
  });
});
