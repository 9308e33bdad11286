import type { ItemDescription } from "../schemas/item.ts";
import type { ItemMetadata } from "../schemas/metadata.ts";

/** What the chain fixed when it created an item's token id(s). */
export interface FixedAtCreation {
  stackable: boolean;
  /** A stackable item's maximum supply; a non-stackable item's copies (each of supply one). */
  maximumSupply: number;
  royaltyFee: number;
}

/** An item's JSON metadata from its description and what the chain fixed (the mock's mints say it the same way). */
export function metadataOf(item: ItemDescription, fixed: FixedAtCreation): ItemMetadata {
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
    isStackable: fixed.stackable,
    isConsumable: item.isConsumable,
    maximumSupply: fixed.maximumSupply,
    royaltyFee: fixed.royaltyFee,
  };
}
