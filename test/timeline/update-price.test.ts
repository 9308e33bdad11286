import { describe, expect, it } from "vitest";
import { demoWorld, eventsOf, problemsOf } from "./timeline.ts";

describe("updatePrice: its checks", () => {
  it("changes the price of an open listing, to one its currency can hold", () => {
    expect(
      problemsOf((s) =>
        s.timeline.push(
          { at: "-1h", action: "updatePrice", listing: "c1", price: "1" },
          { at: "-2h", action: "updatePrice", listing: "t1", price: "1.1234567" },
          { at: "-1h", action: "updatePrice", listing: "nope", price: "1" },
        ),
      ),
    ).toEqual([
      "timeline[17].price: stablecoin has 6 decimals, '1.1234567' has 7",
      "timeline[16].listing: listing 'c1' is already closed by timeline[9]",
      "timeline[18].listing: listing 'nope' is not listed before -1h",
    ]);
  });
});

describe("updatePrice: its rules and its transaction", () => {
  const demo = demoWorld();

  it("sets the price the rules hold a later buyer to", async () => {
    const { status, body } = await demo.arrange({
      accounts: [{ name: "dave" }],
      timeline: [
        {
          action: "list",
          listing: "pricey",
          item: "sky-saddle",
          seller: "alice",
          amount: 1,
          price: "1",
          currency: "native",
        },
        { action: "updatePrice", listing: "pricey", price: "20000" },
        { action: "buy", listing: "pricey", buyer: "dave", amount: 1 },
      ],
    });
    expect([status, body.errors]).toEqual([
      422,
      [
        "timeline[2].amount: 'dave' has 10000000000000000000000 wei on chain 56, not the 20000000000000000000000 it costs",
      ],
    ]);
  });

  it("sends updatePrice from the seller: the next sale is at the new price", async () => {
    const { status, body } = await demo.arrange({
      timeline: [
        { action: "updatePrice", listing: "sky-saddle-sale", price: "0.3" },
        { action: "buy", listing: "sky-saddle-sale", buyer: "guest", amount: 1 },
      ],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const saddle = await demo.history("sky-saddle");
    expect(eventsOf(saddle, body.timeline[0].txHash)).toEqual(["ItemPriceUpdated"]);
    expect(saddle.find((event) => event.transactionHash === body.timeline[0].txHash)).toMatchObject({ price: 0.3 });
    expect(saddle.find((event) => event.event === "Swapped")).toMatchObject({ price: 0.3, amount: "1" });
  });
});
