import { describe, expect, it } from "vitest";
import { demoWorld, eventsOf, problemsOf } from "./timeline.ts";

const ZERO = "0x0000000000000000000000000000000000000000";

describe("burn: its checks", () => {
  it("burns a token the item has, of an account", () => {
    expect(
      problemsOf((s) =>
        s.timeline.push({ at: "-1h", action: "burn", item: "badge", copy: 9, from: "carol", amount: 1 }),
      ),
    ).toEqual(["timeline[16].from: unknown account 'carol'", "timeline[16].copy: item 'badge' has 3 tokens, not 9"]);
  });
});

describe("burn: its rules and its transaction", () => {
  const demo = demoWorld();

  it("burns only what `from` holds", async () => {
    const { status, body } = await demo.arrange({
      timeline: [
        { action: "burn", item: "sky-saddle", from: "bob", amount: 2 },
        { action: "burn", item: "sky-saddle", from: "bob", amount: 1 },
      ],
    });
    expect([status, body.errors]).toEqual([422, ["timeline[1].amount: 'bob' holds 0 of item 'sky-saddle', not 1"]]);
  });

  it("sends burn from the holder: its tokens go to the zero address", async () => {
    const { status, body } = await demo.arrange({
      timeline: [{ action: "burn", item: "dragon-egg", copy: 1, from: "bob", amount: 1 }],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const egg = await demo.history("dragon-egg");
    expect(eventsOf(egg, body.timeline[0].txHash)).toEqual(["TransferSingle"]);
    expect(egg[0]).toMatchObject({ from: (await demo.world()).accounts.bob.address, to: ZERO, amount: "1" });
  });
});
