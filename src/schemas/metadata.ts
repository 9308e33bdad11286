import { Type, type Static } from "@sinclair/typebox";
import { ChainId, Closed, Named, SafeInteger } from "./common.ts";
import { StoredItem } from "./item.ts";

/** Where the simulator serves an item's metadata; a collection's `uri` is this path without `/:tokenId`. */
export const ITEM_METADATA_PATH = "/metadata/:chainId/:slug/:tokenId";

/** A collection's `uri`: its items' metadata is at `<uri>/<tokenId>`, on the simulator at `baseUrl`. */
export function collectionUri(baseUrl: string, chainId: number, slug: string): string {
  return `${baseUrl}/metadata/${chainId}/${slug}`;
}

export const ItemMetadataParams = Closed({ chainId: ChainId, slug: Type.String(), tokenId: Type.Integer(SafeInteger) });

const item = StoredItem.properties;
const { name: trait_type, ...attribute } = item.properties.items.properties;

/** An item's JSON metadata, as wallets and marketplaces read it at `<uri>/<tokenId>`. */
export const ItemMetadata = Named("ItemMetadata", {
  name: item.name,
  description: item.description,
  image: item.imageUrl,
  fileType: item.fileType,
  attributes: Type.Array(Closed({ trait_type, ...attribute })),
  isStackable: item.isStackable,
  isConsumable: item.isConsumable,
  maximumSupply: item.maximumSupply,
  royaltyFee: item.royaltyFee,
});
export type ItemMetadata = Static<typeof ItemMetadata>;
