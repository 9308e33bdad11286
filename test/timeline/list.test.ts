import { describe, expect, it } from "vitest";
import { demoWorld, eventsOf, problemsOf } from "./timeline.ts";

describe("list: its checks", () => {
  it("opens a listing by a new name, at a price above 0 the currency can hold", () => {
    expect(
      problemsOf((s) =>
        s.timeline.push(
          {
            at: "-1h",
            action: "list",
            listing: "c1",
            item: "coin",
            seller: "bob",
            amount: 1,
            price: "1",
            currency: "native",
          },
          {
            at: "-1h",
            action: "list",
            listing: "z1",
            item: "coin",
            seller: "bob",
            amount: 1,
            price: "0",
            currency: "native",
          },
          {
            at: "-1h",
            action: "list",
            listing: "z2",
            item: "tile",
            seller: "zoe",
            amount: 1,
            price: "0.0000001",
            currency: "stablecoin",
          },
        ),
      ),
    ).toEqual([
      "timeline[16].listing: listing 'c1' is already used by timeline[3]",
      "timeline[17].price must be above 0",
      "timeline[18].seller: unknown account 'zoe'",
      "timeline[18].price: stablecoin has 6 decimals, '0.0000001' has 7",
    ]);
  });
});

describe("list: its rules and its transaction", () => {
  const demo = demoWorld();

  it("takes only what the seller holds into escrow", async () => {
    const { status, body } = await demo.arrange({
      timeline: [
        {
          action: "list",
          listing: "big",
          item: "sky-saddle",
          seller: "alice",
          amount: 4,
          price: "1",
          currency: "native",
        },
        { action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 3 },
      ],
    });
    expect([status, body.errors]).toEqual([422, ["timeline[1].amount: 'alice' holds 2 of item 'sky-saddle', not 3"]]);
  });

  it("approves the marketplace for a seller that has not, then lists: the tokens go into escrow", async () => {
    const { status, body } = await demo.arrange({
      timeline: [
        { action: "transfer", item: "sky-saddle", from: "alice", to: "guest", amount: 2 },
        {
          action: "list",
          listing: "guest-sale",
          item: "sky-saddle",
          seller: "guest",
          amount: 2,
          price: "0.75",
          currency: "stablecoin",
        },
      ],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.listings).toEqual({ "guest-sale": { chainId: 56, listingId: 3 } });
    const { accounts, listings } = await demo.world();
    expect(listings["guest-sale"]).toEqual({ chainId: 56, listingId: 3 });
    const saddle = await demo.history("sky-saddle");
    expect(eventsOf(saddle, body.timeline[1].txHash)).toEqual(["ItemListed", "TransferSingle"]);
    expect(saddle.find((event) => event.event === "ItemListed")).toMatchObject({
      from: accounts.guest.address,
      amount: "2",
      price: 0.75,
    });
  });
});
