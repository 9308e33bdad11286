import { describe, expect, it } from "vitest";
import { demoWorld, eventsOf, problemsOf } from "./timeline.ts";

describe("addToListing: its checks", () => {
  it("adds to an open listing: what a later buy may take", () => {
    expect(
      problemsOf((s) =>
        s.timeline.push(
          { at: "-4d", action: "addToListing", listing: "t1", amount: 2 },
          { at: "-3d", action: "buy", listing: "t1", buyer: "alice", amount: 5 },
          { at: "-1h", action: "addToListing", listing: "c1", amount: 1 },
        ),
      ),
    ).toEqual([
      "timeline[14].amount: 4 is more than listing 't1' has left (1)",
      "timeline[18].listing: listing 'c1' is already closed by timeline[9]",
    ]);
  });
});

describe("addToListing: its rules and its transaction", () => {
  const demo = demoWorld();

  it("takes only what the seller holds into escrow", async () => {
    const { status, body } = await demo.arrange({
      timeline: [{ action: "addToListing", listing: "sky-saddle-sale", amount: 7 }],
    });
    expect([status, body.errors]).toEqual([422, ["timeline[0].amount: 'alice' holds 6 of item 'sky-saddle', not 7"]]);
  });

  it("sends addToListing from the seller: the tokens go into escrow", async () => {
    const { status, body } = await demo.arrange({
      timeline: [{ action: "addToListing", listing: "sky-saddle-sale", amount: 3 }],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const saddle = await demo.history("sky-saddle");
    expect(eventsOf(saddle, body.timeline[0].txHash)).toEqual(["ItemAdded", "TransferSingle"]);
    expect(saddle.find((event) => event.event === "ItemAdded")).toMatchObject({ amount: "3" });
  });
});
