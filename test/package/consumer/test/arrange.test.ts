import { startSimulator, type ItemEvent } from "nft-service-simulator";
import { marketplaceAbi } from "nft-service-simulator/abi";
import { createPublicClient, http, type Address } from "viem";
import { expect, it } from "vitest";

it("arranges alice lists, bob buys in a few typed lines: the history shows the listing and the sale, the volume rises", async () => {
  const sim = await startSimulator({ fixture: "demo", rpc: true });
  try {
    const { accounts, items, collections, chains } = sim.world;
    const riders = `${sim.url}/api/v2/collection/${collections["dragon-riders"]!.address}`;
    const before = (await (await fetch(riders)).json()).collection;

    const arranged = await sim.arrange({
      timeline: [
        {
          action: "list",
          listing: "saddle-sale",
          item: "sky-saddle",
          seller: "alice",
          amount: 1,
          price: "10",
          currency: "native",
        },
        { action: "buy", listing: "saddle-sale", buyer: "bob", amount: 1 },
      ],
    });

    const { collection, tokenIds } = items["sky-saddle"]!;
    const { events } = (await (await fetch(`${sim.url}/api/v2/item/events/${collection}/${tokenIds[0]}`)).json()) as {
      events: ItemEvent[];
    };
    expect(events[0]).toMatchObject({
      event: "Swapped",
      from: accounts.alice!.address,
      to: accounts.bob!.address,
      price: 10,
    });
    expect(events.find((event) => event.event === "ItemListed")?.transactionHash).toBe(arranged.timeline[0]!.txHash);
    expect((await (await fetch(riders)).json()).collection.volume_all).toBeGreaterThan(before.volume_all);

    // The marketplace's own record of the listing, read with viem through the exported ABI: sold out.
    const client = createPublicClient({ transport: http(sim.rpcUrls[56]) });
    const [seller, , , left] = await client.readContract({
      address: chains[0]!.contracts.marketplace as Address,
      abi: marketplaceAbi,
      functionName: "listings",
      args: [BigInt(arranged.listings["saddle-sale"].listingId)],
    });
    expect([seller.toLowerCase(), left]).toEqual([accounts.alice!.address, 0n]);
  } finally {
    await sim.close();
  }
});
