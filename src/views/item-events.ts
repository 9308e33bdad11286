import type { Address } from "viem";
import { itemKey, type ReadModels } from "../indexer/models.ts";
import type { ItemEvent } from "../schemas/item-event.ts";
import { itemEvent } from "./item-event.ts";

/** One page of an item's history, newest first; undefined when the chain has no such item. */
export function itemEventsPage(
  models: ReadModels,
  collection: Address,
  tokenId: bigint,
  { page, perPage }: { page: number; perPage: number },
): ItemEvent[] | undefined {
  const key = itemKey(collection, tokenId);
  const activity = models.activity.get(key);
  if (!activity) return models.items.has(key) ? [] : undefined;
  const newest = activity.length - 1 - (page - 1) * perPage;
  const events: ItemEvent[] = [];
  for (let i = newest; i >= 0 && i > newest - perPage; i--) events.push(itemEvent(models.facts, activity[i]!));
  return events;
}
