import { Type, type Static } from "@sinclair/typebox";
import { ChainId, SafeInteger } from "./common.ts";
import { StoredItem } from "./mint.ts";

export const ItemMetadataParams = Type.Object(
  { chainId: ChainId, slug: Type.String(), tokenId: Type.Integer(SafeInteger) },
  { additionalProperties: false },
);

const item = StoredItem.properties;

/** An item's JSON metadata, as wallets and marketplaces read it at `<uri>/<tokenId>`. */
export const ItemMetadata = Type.Object(
  {
    name: item.name,
    description: item.description,
    image: item.imageUrl,
    fileType: item.fileType,
    attributes: Type.Array(
      Type.Object({ trait_type: item.properties.items.properties.name, value: item.properties.items.properties.value, static: item.properties.items.properties.static }, { additionalProperties: false }),
    ),
    isStackable: item.isStackable,
    isConsumable: item.isConsumable,
    maximumSupply: item.maximumSupply,
    royaltyFee: item.royaltyFee,
  },
  { additionalProperties: false, $id: "ItemMetadata" },
);
export type ItemMetadata = Static<typeof ItemMetadata>;
