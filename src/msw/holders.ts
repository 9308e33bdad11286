import type { ItemEvent } from "../schemas/item-event.ts";

/**
 * Who holds a collection's tokens, as its items' whole histories tell it: an address with a positive balance in any
 * of them, or an open listing (escrowed tokens count for their seller; the marketplace, where listed tokens sit,
 * never holds). The marketplace is recognised as where a listing's transaction sent the tokens; a listing's id is in
 * its events' ids (`<Event>-<listingId>-<txHash>-<logIndex>`). The same rule the simulator counts `holders` by.
 */
export function holdersFromHistories(histories: readonly (readonly ItemEvent[])[]): Set<string> {
  const events = histories.flatMap((history) => [...history].reverse());
  const escrowed = new Set(
    events.filter((event) => event.event === "ItemListed").map((event) => event.transactionHash),
  );
  const marketplaces = new Set(
    events
      .filter((event) => event.event === "TransferSingle" && escrowed.has(event.transactionHash))
      .map((event) => event.to),
  );
  const balances = new Map<string, bigint>();
  const listings = new Map<string, { seller: string; left: bigint }>();
  for (const event of events) {
    const amount = BigInt(event.amount);
    if (event.event === "TransferSingle" || event.event === "TransferBatch") {
      const from = `${event.tokenId}/${event.from}`;
      const to = `${event.tokenId}/${event.to}`;
      balances.set(from, (balances.get(from) ?? 0n) - amount);
      balances.set(to, (balances.get(to) ?? 0n) + amount);
      continue;
    }
    const id = event.id.split("-")[1]!;
    const listing = listings.get(id) ?? { seller: event.from, left: 0n };
    if (event.event === "ItemListed" || event.event === "ItemAdded") listing.left += amount;
    else if (event.event === "ItemRemoved" || event.event === "Swapped") listing.left -= amount;
    else if (event.event === "ItemDelisted") listing.left = 0n;
    listings.set(id, listing);
  }
  const holders = new Set<string>();
  for (const [key, balance] of balances) {
    const holder = key.slice(key.indexOf("/") + 1);
    if (balance > 0n && !marketplaces.has(holder) && !/^0x0{40}$/.test(holder)) holders.add(holder);
  }
  for (const { seller, left } of listings.values()) if (left > 0n) holders.add(seller);
  return holders;
}
