import type Router from "@koa/router";
import type { Address } from "viem";
import { Type } from "@sinclair/typebox";
import { notFound } from "../errors.ts";
import { itemRef } from "../indexer/models.ts";
import { ChainId, SafeInteger } from "../schemas/common.ts";
import { requestValidator } from "../schemas/validate.ts";
import type { RouteDeps } from "./deps.ts";
import { collectionViews } from "../views/collections.ts";

const parseParams = requestValidator(
  Type.Object({ chainId: ChainId, slug: Type.String(), tokenId: Type.Integer(SafeInteger) }, { additionalProperties: false }),
  "path",
);

/**
 * GET /metadata/:chainId/:slug/:tokenId: what a collection's `uri` points at.
 * Wallets and marketplaces read `<uri>/<tokenId>` for an item's JSON metadata.
 */
export function metadataRoute(router: Router, { chains, metadata }: RouteDeps): void {
  router.get("/metadata/:chainId/:slug/:tokenId", async (ctx) => {
    const { chainId, slug, tokenId } = parseParams(ctx.params);
    const [target] = await chains.synced(chainId);
    if (!target) throw notFound(`Chain ${chainId}`);
    const view = [...collectionViews(target.models, metadata).values()].find((v) => v.collection.slug === slug);
    const item = view && metadata.item(itemRef(chainId, view.collection.address as Address, BigInt(tokenId)));
    if (!view || !item) throw notFound(`Metadata of item ${tokenId} in ${slug}`);
    ctx.body = {
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
  });
}
