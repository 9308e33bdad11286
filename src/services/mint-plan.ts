import type { Address, Hex } from "viem";
import { apiError, ERRORS } from "../core/errors.ts";
import { itemRef, lowerAddress } from "../core/formats.ts";
import type { ReadSource } from "../indexer/models.ts";
import { encodedWithin, encodeItemDescription } from "../metadata/codec.ts";
import type { MintBody, MintResponse, StoredItem } from "../schemas/item.ts";

/** A mint as the API decided it, before anything is sent: what the chain is asked for. */
export interface PlannedMint {
  chainId: number;
  collection: Address;
  recipient: Address;
  item: StoredItem;
  /** The item's description as it goes on chain (ItemDescribed). */
  metadata: Hex;
}

/**
 * What the API decides of a mint before a chain action, from the request and the read models alone: the chain served
 * (400), the item's description small enough for the chain (413), the collection on that chain (404, or 409 when it
 * lives on another), a non-stackable item's supply within its maximum (400). Whether the key's wallet may mint, and
 * the contract's own rules, only the chain tells.
 */
export async function planMint(chains: Omit<ReadSource, "read" | "whole">, body: MintBody): Promise<PlannedMint> {
  if (!chains.ids().includes(body.chainId)) throw unknownChain(body.chainId, chains.ids());
  const collection = lowerAddress(body.collectionAddress);
  const item = { ...body.item, maximumSupply: body.item.maximumSupply ?? body.item.initialSupply } as StoredItem;
  const metadata = encodedWithin(() => encodeItemDescription(item), "item", "description, properties or imageUrl");
  const lookup = await chains.findCollection(collection, body.chainId);
  if ("unknown" in lookup) throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${collection}` });
  if ("elsewhere" in lookup) {
    const line = `collection ${collection} lives on chain ${lookup.elsewhere}, not on chain ${body.chainId}`;
    throw apiError(
      ERRORS.COLLECTION_ON_OTHER_CHAIN,
      { address: collection, chainId: body.chainId },
      { errors: [line] },
    );
  }
  if (!item.isStackable && item.initialSupply > item.maximumSupply) {
    const line = `item.initialSupply (${item.initialSupply}) must not exceed item.maximumSupply (${item.maximumSupply})`;
    throw apiError(ERRORS.SUPPLY_ABOVE_MAX, {}, { errors: [line] });
  }
  return { chainId: body.chainId, collection, recipient: lowerAddress(body.recipient), item, metadata };
}

/** A chain a request names that is not served here: a 400 that lists the chains served. */
export function unknownChain(chainId: number, served: number[]) {
  const line = `chainId ${chainId} is unknown; this simulator serves chains ${served.join(", ")}`;
  return apiError(ERRORS.UNKNOWN_CHAIN, { chainId }, { errors: [line] });
}

/** The API's answer to a mint made: the transaction mined, and the token ids it created. */
export const mintAnswer = (
  { chainId, collection, recipient, item }: PlannedMint,
  txHash: Hex,
  tokenIds: bigint[],
): MintResponse => ({
  txHash,
  chainId,
  collectionAddress: collection,
  recipient,
  tokenIds: tokenIds.map(Number),
  itemRefs: tokenIds.map((tokenId) => itemRef(chainId, collection, tokenId)),
  item,
});
