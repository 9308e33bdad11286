import type { ArgsOf } from "../decode.ts";
import { lower } from "../history.ts";
import { itemKey, type ChainModels, type LogPosition } from "../models.ts";

/** A collection created a token id (its supply arrives as a transfer from the zero address). */
export function itemCreated(models: ChainModels, args: ArgsOf<"ItemCreated">, at: LogPosition): void {
  if (!models.collections.has(at.address)) return;
  models.items.set(itemKey(at.address, args.tokenId), {
    collection: at.address,
    tokenId: args.tokenId,
    creator: lower(args.creator),
    maxSupply: args.maxSupply,
    royaltyPerMille: Number(args.royaltyPerMille),
  });
}
