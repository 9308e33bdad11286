import type { ArgsOf } from "../decode.ts";
import { itemKey, type ChainModels, type Creation, type LogPosition } from "../models.ts";

/**
 * A collection created a token id (its supply arrives as a transfer from the zero address).
 * Token ids one transaction creates are consecutive; they share one creation.
 */
export function itemCreated(models: ChainModels, args: ArgsOf<"ItemCreated">, at: LogPosition): void {
  if (!models.collections.has(at.address)) return;
  const previous = models.items.get(itemKey(at.address, args.tokenId - 1n))?.creation;
  const creation: Creation =
    previous?.transactionHash === at.transactionHash ? previous : { transactionHash: at.transactionHash, tokenIds: [] };
  creation.tokenIds.push(args.tokenId);
  models.items.set(itemKey(at.address, args.tokenId), {
    maxSupply: args.maxSupply,
    royaltyPerMille: Number(args.royaltyPerMille),
    creation,
  });
}
