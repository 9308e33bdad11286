import { describe, expect, it } from "vitest";
import { demoWorld, eventsOf, problemsOf } from "./timeline.ts";

describe("delist: its checks", () => {
  it("closes a listing once", () => {
    expect(problemsOf((s) => s.timeline.push({ at: "-1h", action: "delist", listing: "c1" }))).toEqual([
      "timeline[16].listing: listing 'c1' is already closed by timeline[9]",
    ]);
  });
});

describe("delist: its rules and its transaction", () => {
  const demo = demoWorld();

  it("closes only a listing the world has open", async () => {
    const { status, body } = await demo.arrange({ timeline: [{ action: "delist", listing: "healing-brew-sale" }] });
    expect([status, body.errors]).toEqual([
      400,
      ["timeline[0].listing: listing 'healing-brew-sale' is already closed by the world (it is closed)"],
    ]);
  });

  it("gives the seller back what was left", async () => {
    const { status, body } = await demo.arrange({
      timeline: [
        { action: "delist", listing: "sky-saddle-sale" },
        { action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 9 },
      ],
    });
    expect([status, body.errors]).toEqual([422, ["timeline[1].amount: 'alice' holds 8 of item 'sky-saddle', not 9"]]);
  });

  it("sends delist from the seller: what is left comes out of escrow", async () => {
    const { status, body } = await demo.arrange({
      timeline: [
        { action: "delist", listing: "sky-saddle-sale" },
        { action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 8 },
      ],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const saddle = await demo.history("sky-saddle");
    expect(eventsOf(saddle, body.timeline[0].txHash)).toEqual(["ItemDelisted", "TransferSingle"]);
    expect(saddle.find((event) => event.event === "ItemDelisted")).toMatchObject({ amount: "2" });
  });
});
