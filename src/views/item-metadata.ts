import type { Address } from "viem";
import { itemKey, type ChainModels } from "../indexer/models.ts";
import type { MetadataStore } from "../metadata/store.ts";
import type { StoredItem } from "../schemas/mint.ts";

/** An item's JSON metadata, what `<uri>/<tokenId>` answers to wallets and marketplaces. */
export interface ItemMetadata {
  name: string;
  description: string;
  image: string;
  fileType: string;
  attributes: { trait_type: string; value: StoredItem["properties"][number]["value"]; static: boolean }[];
  isStackable: boolean;
  isConsumable: boolean;
  maximumSupply: number;
  royaltyFee: number;
}

/**
 * The off-chain description of an item with what the chain fixed when it was created:
 * the royalty, and the maximum supply (of a non-stackable item, the copies created with it,
 * each of supply one). Undefined unless both the chain and the store know the item.
 */
export function itemMetadata(
  models: ChainModels,
  store: MetadataStore,
  collection: Address,
  tokenId: bigint,
): ItemMetadata | undefined {
  const record = models.items.get(itemKey(collection, tokenId));
  const item = record && store.item(models.facts.chainId, record.creation.transactionHash);
  if (!record || !item) return undefined;
  return {
    name: item.name,
    description: item.description,
    image: item.imageUrl,
    fileType: item.fileType,
    attributes: item.properties.map(({ name, value, static: isStatic }) => ({
      trait_type: name,
      value,
      static: isStatic,
    })),
    isStackable: item.isStackable,
    isConsumable: item.isConsumable,
    maximumSupply: item.isStackable ? Number(record.maxSupply) : record.creation.tokenIds.length,
    royaltyFee: record.royaltyPerMille,
  };
}
