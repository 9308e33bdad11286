import { hexToText } from "../../core/formats.ts";
import type { ArgsOf } from "../decode.ts";
import { itemKey, type ChainModels, type LogPosition } from "../models.ts";

/** The transaction that created an item described it: the description joins the item's creation (all its token ids). */
export function itemDescribed(models: ChainModels, args: ArgsOf<"ItemDescribed">, at: LogPosition): void {
  // An unknown collection has no items (itemCreated records none), so this finds no creation for it.
  const creation = models.items.get(itemKey(at.address, args.firstTokenId))?.creation;
  if (creation?.transactionHash !== at.transactionHash) return;
  creation.description = { stackable: args.stackable, metadata: hexToText(args.metadata) };
}
