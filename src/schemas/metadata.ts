import { Type, type Static } from "@sinclair/typebox";
import { ChainId, SafeInteger } from "./common.ts";
import { StoredItem } from "./item.ts";

/** Where the simulator serves an item's metadata; a collection's `uri` is this path without `/:tokenId`. */
export const ITEM_METADATA_PATH = "/metadata/:chainId/:slug/:tokenId";

/** A collection's `uri`: its items' metadata is at `<uri>/<tokenId>`, on the simulator at `baseUrl`. */
export function collectionUri(baseUrl: string, chainId: number, slug: string): string {
  return `${baseUrl}/metadata/${chainId}/${slug}`;
}

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
      Type.Object(
        {
          trait_type: item.properties.items.properties.name,
          value: item.properties.items.properties.value,
          static: item.properties.items.properties.static,
        },
        { additionalProperties: false },
      ),
    ),
    isStackable: item.isStackable,
    isConsumable: item.isConsumable,
    maximumSupply: item.maximumSupply,
    royaltyFee: item.royaltyFee,
  },
  { additionalProperties: false, $id: "ItemMetadata" },
);
export type ItemMetadata = Static<typeof ItemMetadata>;
