import type { Address } from "viem";
import { notFound } from "../errors.ts";
import { itemRef } from "../indexer/models.ts";
import { getItemMetadata } from "../schemas/operations.ts";
import { collectionViews } from "../views/collections.ts";
import type { RouteDeps } from "./deps.ts";
import { handle } from "./handle.ts";

/** What a collection's `uri` points at: wallets and marketplaces read `<uri>/<tokenId>` for an item's JSON metadata. */
export const metadataRoute = ({ chains, metadata }: RouteDeps) =>
  handle(getItemMetadata, {
    async answer({ params: { chainId, slug, tokenId } }) {
      const [target] = await chains.synced(chainId);
      if (!target) throw notFound(`Chain ${chainId}`);
      const view = [...collectionViews(target.models, metadata).values()].find((v) => v.collection.slug === slug);
      const item = view && metadata.item(itemRef(chainId, view.collection.address as Address, BigInt(tokenId)));
      if (!view || !item) throw notFound(`Metadata of item ${tokenId} in ${slug}`);
      return {
        name: item.name,
        description: item.description,
        image: item.imageUrl,
        fileType: item.fileType,
        attributes: item.properties.map(({ name, value, static: isStatic }) => ({ trait_type: name, value, static: isStatic })),
        isStackable: item.isStackable,
        isConsumable: item.isConsumable,
        maximumSupply: item.maximumSupply,
        royaltyFee: item.royaltyFee,
      };
    },
  });
