import { describe, expect, it } from "vitest";
import { demoWorld, eventsOf, problemsOf } from "./timeline.ts";

describe("transferBatch: its checks", () => {
  it("moves tokens of one collection, each entry named by its place in the batch", () => {
    expect(
      problemsOf((s) =>
        s.timeline.push({
          at: "-1h",
          action: "transferBatch",
          from: "bob",
          to: "alice",
          items: [
            { item: "coin", amount: 1 },
            { item: "tile", amount: 1 },
            { item: "badge", copy: 5, amount: 1 },
            { item: "ghost", amount: 1 },
          ],
        }),
      ),
    ).toEqual([
      "timeline[16].items[2].copy: item 'badge' has 3 tokens, not 5",
      "timeline[16].items[3].item: unknown item 'ghost'",
      "timeline[16].items: a batch moves tokens of one collection only, not of riders, tiles",
    ]);
  });
});

describe("transferBatch: its rules and its transaction", () => {
  const demo = demoWorld();

  it("moves only what `from` holds of each token", async () => {
    const { status, body } = await demo.arrange({
      timeline: [
        {
          action: "transferBatch",
          from: "bob",
          to: "alice",
          items: [
            { item: "dragon-egg", copy: 1, amount: 1 },
            { item: "sky-saddle", amount: 3 },
          ],
        },
      ],
    });
    expect([status, body.errors]).toEqual([
      422,
      ["timeline[0].items[1].amount: 'bob' holds 2 of item 'sky-saddle', not 3"],
    ]);
  });

  it("sends one safeBatchTransferFrom: every token moves in the one transaction", async () => {
    const { status, body } = await demo.arrange({
      timeline: [
        {
          action: "transferBatch",
          from: "bob",
          to: "guest",
          items: [
            { item: "dragon-egg", copy: 2, amount: 1 },
            { item: "sky-saddle", amount: 2 },
          ],
        },
      ],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const { bob, guest } = (await demo.world()).accounts;
    const [egg, saddle] = [await demo.history("dragon-egg", 2), await demo.history("sky-saddle")];
    expect(eventsOf(egg, body.timeline[0].txHash)).toEqual(["TransferBatch"]);
    expect(eventsOf(saddle, body.timeline[0].txHash)).toEqual(["TransferBatch"]);
    expect(saddle[0]).toMatchObject({ from: bob.address, to: guest.address, amount: "2" });
  });
});
