import type { Address } from "viem";
import { itemKey, type ReadModels } from "../indexer/models.ts";
import type { ItemMetadata } from "../schemas/metadata.ts";
import { itemDescription } from "./descriptions.ts";

/**
 * An item's JSON metadata, what `<uri>/<tokenId>` answers to wallets and marketplaces: its
 * description with what the chain fixed when it was created (the royalty, the maximum supply: of a
 * non-stackable item, the copies created with it, each of supply one). Undefined unless the chain
 * knows the item and its creating transaction described it.
 */
export function itemMetadata(models: ReadModels, collection: Address, tokenId: bigint): ItemMetadata | undefined {
  const record = models.items.get(itemKey(collection, tokenId));
  const described = record?.creation.description;
  const item = record && itemDescription(record.creation);
  if (!record || !described || !item) return undefined;
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
    isStackable: described.stackable,
    isConsumable: item.isConsumable,
    maximumSupply: described.stackable ? Number(record.maxSupply) : record.creation.tokenIds.length,
    royaltyFee: record.royaltyPerMille,
  };
}
