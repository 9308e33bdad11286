import { describe, expect, it } from "vitest";
import { demoWorld, eventsOf, problemsOf } from "./timeline.ts";

describe("buy: its checks", () => {
  it("buys at most what is left; a listing sold out is closed", () => {
    expect(
      problemsOf((s) =>
        s.timeline.push(
          { at: "-4d", action: "buy", listing: "t1", buyer: "alice", amount: 5 },
          { at: "-1h", action: "buy", listing: "t1", buyer: "carl", amount: 1 },
        ),
      ),
    ).toEqual([
      "timeline[16].amount: 5 is more than listing 't1' has left (4)",
      "timeline[17].buyer: unknown account 'carl'",
      "timeline[17].listing: listing 't1' is already closed by timeline[14] (sold out)",
    ]);
  });
});

describe("buy: its rules and its transaction", () => {
  const demo = demoWorld();

  it("needs the buyer's coin for a native listing, and gives the buyer what it bought", async () => {
    const { status, body } = await demo.arrange({
      accounts: [{ name: "dave" }],
      timeline: [
        {
          action: "list",
          listing: "dear",
          item: "sky-saddle",
          seller: "alice",
          amount: 1,
          price: "20000",
          currency: "native",
        },
        { action: "buy", listing: "dear", buyer: "dave", amount: 1 },
        { action: "buy", listing: "sky-saddle-sale", buyer: "guest", amount: 1 },
        { action: "transfer", item: "sky-saddle", from: "guest", to: "bob", amount: 2 },
      ],
    });
    expect([status, body.errors]).toEqual([
      422,
      [
        "timeline[1].amount: 'dave' has 10000000000000000000000 wei on chain 56, not the 20000000000000000000000 it costs",
        "timeline[3].amount: 'guest' holds 1 of item 'sky-saddle', not 2",
      ],
    ]);
  });

  it("sends buy, paying in the native coin or, given coins and an allowance first, in the stablecoin", async () => {
    const { status, body } = await demo.arrange({
      accounts: [{ name: "erin" }],
      timeline: [
        { action: "buy", listing: "sky-saddle-sale", buyer: "erin", amount: 1 },
        {
          action: "list",
          listing: "tin",
          item: "sky-saddle",
          seller: "alice",
          amount: 2,
          price: "3.5",
          currency: "stablecoin",
        },
        { action: "buy", listing: "tin", buyer: "erin", amount: 2 },
      ],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const saddle = await demo.history("sky-saddle");
    const erin = body.accounts.erin.address;
    expect(eventsOf(saddle, body.timeline[0].txHash)).toEqual(["Swapped", "TransferSingle"]);
    expect(eventsOf(saddle, body.timeline[2].txHash)).toEqual(["Swapped", "TransferSingle"]);
    const sales = saddle.filter((event) => event.event === "Swapped" && event.to === erin);
    expect(sales.map(({ amount, price, currency }) => [amount, price, currency])).toEqual([
      ["2", 3.5, expect.stringMatching(/^0x[0-9a-f]{40}$/)],
      ["1", 0.4, "0x0000000000000000000000000000000000000000"],
    ]);
  });
});
