import type { Address } from "viem";
import type { ChainModels } from "../indexer/models.ts";
import { itemDescription } from "./descriptions.ts";

/** One item of a collection as the dashboard lists it: what the chain says, and its name if its creation described it. */
export interface CollectionItem {
  tokenId: number;
  name: string;
  supply: string;
  maxSupply: string;
  holders: number;
  events: number;
}

/** Every item of a collection, by token id (held balances only; tokens in a listing's escrow count for the marketplace). */
export function collectionItems(models: ChainModels, collection: Address): CollectionItem[] {
  const items: CollectionItem[] = [];
  const prefix = `${collection}-`;
  for (const [key, record] of models.items) {
    if (!key.startsWith(prefix)) continue;
    const balances = [...(models.balances.get(key)?.values() ?? [])].filter((amount) => amount > 0n);
    items.push({
      tokenId: Number(key.slice(prefix.length)),
      name: itemDescription(record.creation)?.name ?? "",
      supply: String(balances.reduce((sum, amount) => sum + amount, 0n)),
      maxSupply: String(record.maxSupply),
      holders: balances.length,
      events: models.activity.get(key)?.length ?? 0,
    });
  }
  return items.sort((a, b) => a.tokenId - b.tokenId);
}
