import { describe, expect, it } from "vitest";
import { demoWorld, eventsOf, problemsOf } from "./timeline.ts";

describe("removeFromListing: its checks", () => {
  it("takes part of an open listing back, never all of it", () => {
    expect(
      problemsOf((s) =>
        s.timeline.push(
          { at: "-4d", action: "removeFromListing", listing: "t1", amount: 4 },
          { at: "-4d", action: "removeFromListing", listing: "t1", amount: 1 },
          { at: "-3d", action: "buy", listing: "t1", buyer: "alice", amount: 1 },
        ),
      ),
    ).toEqual([
      "timeline[16].amount: 4 would empty listing 't1' (4 left); use delist",
      "timeline[14].amount: 4 is more than listing 't1' has left (2)",
    ]);
  });
});

describe("removeFromListing: its rules and its transaction", () => {
  const demo = demoWorld();

  it("gives the seller back what it takes out", async () => {
    const { status, body } = await demo.arrange({
      timeline: [
        { action: "removeFromListing", listing: "sky-saddle-sale", amount: 1 },
        { action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 8 },
      ],
    });
    expect([status, body.errors]).toEqual([422, ["timeline[1].amount: 'alice' holds 7 of item 'sky-saddle', not 8"]]);
  });

  it("sends removeFromListing from the seller: the tokens come out of escrow", async () => {
    const { status, body } = await demo.arrange({
      timeline: [
        { action: "removeFromListing", listing: "sky-saddle-sale", amount: 1 },
        { action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 7 },
      ],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const saddle = await demo.history("sky-saddle");
    expect(eventsOf(saddle, body.timeline[0].txHash)).toEqual(["ItemRemoved", "TransferSingle"]);
    expect(saddle.find((event) => event.event === "ItemRemoved")).toMatchObject({ amount: "1" });
  });
});
