import type { Static } from "@sinclair/typebox";
import type { Address } from "viem";
import type { ReadModels } from "../indexer/models.ts";
import type { CollectionItems } from "../schemas/collection-reads.ts";
import { itemDescription } from "./descriptions.ts";

/** One item of a collection as the dashboard lists it: what the chain says, its name and image from its description. */
type CollectionItemSummary = Static<typeof CollectionItems>["items"][number];

/**
 * Every item of a collection, by token id (held balances only; tokens in a listing's escrow count for the marketplace).
 */
export function collectionItems(models: ReadModels, collection: Address): CollectionItemSummary[] {
  const items: CollectionItemSummary[] = [];
  const prefix = `${collection}-`;
  for (const [key, record] of models.items) {
    if (!key.startsWith(prefix)) continue;
    const balances = [...(models.balances.get(key)?.values() ?? [])].filter((amount) => amount > 0n);
    const described = itemDescription(record.creation);
    items.push({
      tokenId: Number(key.slice(prefix.length)),
      name: described?.name ?? "",
      image: described?.imageUrl ?? "",
      supply: String(balances.reduce((sum, amount) => sum + amount, 0n)),
      maxSupply: String(record.maxSupply),
      holders: balances.length,
      events: models.activity.get(key)?.length ?? 0,
    });
  }
  return items.sort((a, b) => a.tokenId - b.tokenId);
}
