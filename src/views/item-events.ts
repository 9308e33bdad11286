import type { Address } from "viem";
import { itemKey, type ChainModels } from "../indexer/models.ts";
import type { ItemEvent } from "../schemas/item-event.ts";

/** One page of an item's history, newest first; undefined when the chain has no such item. */
export function itemEventsPage(
  models: ChainModels,
  collection: Address,
  tokenId: bigint,
  { page, perPage }: { page: number; perPage: number },
): ItemEvent[] | undefined {
  const key = itemKey(collection, tokenId);
  const history = models.history.get(key);
  if (!history) return models.items.has(key) ? [] : undefined;
  const newest = history.length - 1 - (page - 1) * perPage;
  const events: ItemEvent[] = [];
  for (let i = newest; i >= 0 && i > newest - perPage; i--) events.push(history[i]!);
  return events;
}
