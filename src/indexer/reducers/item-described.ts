import { hexToText } from "../../core/formats.ts";
import type { ArgsOf } from "../decode.ts";
import { itemKey, type ChainModels, type LogPosition } from "../models.ts";

/** The transaction that created an item described it: the description joins the item's creation (all its token ids). */
export function itemDescribed(models: ChainModels, args: ArgsOf<"ItemDescribed">, at: LogPosition): void {
  // Stryker disable next-line ConditionalExpression: itemCreated records no item of an unknown collection, so the lookup below finds none either
  if (!models.collections.has(at.address)) return;
  const creation = models.items.get(itemKey(at.address, args.firstTokenId))?.creation;
  if (creation?.transactionHash !== at.transactionHash) return;
  creation.description = { stackable: args.stackable, metadata: hexToText(args.metadata) };
}
