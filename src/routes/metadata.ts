import type Router from "@koa/router";
import type { Address } from "viem";
import { Type } from "@sinclair/typebox";
import { notFound } from "../errors.ts";
import { ChainId, SafeInteger } from "../schemas/common.ts";
import { requestValidator } from "../schemas/validate.ts";
import type { Simulator } from "../simulator.ts";
import { collectionViews } from "../views/collections.ts";
import { itemMetadata } from "../views/item-metadata.ts";

const parseParams = requestValidator(
  Type.Object({ chainId: ChainId, slug: Type.String(), tokenId: Type.Integer(SafeInteger) }, { additionalProperties: false }),
  "path",
);

/**
 * GET /metadata/:chainId/:slug/:tokenId: what a collection's `uri` points at.
 * Wallets and marketplaces read `<uri>/<tokenId>` for an item's JSON metadata.
 */
export function metadataRoute(router: Router, sim: Simulator): void {
  router.get("/metadata/:chainId/:slug/:tokenId", async (ctx) => {
    const { chainId, slug, tokenId } = parseParams(ctx.params);
    const target = sim.chains.get(chainId);
    if (!target) throw notFound(`Chain ${chainId}`);
    await target.indexer.sync();
    const view = [...collectionViews(target.indexer.models, sim.metadata).values()].find((v) => v.collection.slug === slug);
    const metadata = view && itemMetadata(target.indexer.models, sim.metadata, view.collection.address as Address, BigInt(tokenId));
    if (!metadata) throw notFound(`Metadata of item ${tokenId} in ${slug}`);
    ctx.body = metadata;
  });
}
