import type Router from "@koa/router";
import type { Address } from "viem";
import { notFound } from "../errors.ts";
import { CollectionParams, CollectionQuery, CollectionResponse } from "../schemas/collection.ts";
import { requestValidator, responseValidator } from "../schemas/validate.ts";
import type { RouteDeps } from "./deps.ts";
import { collectionViews } from "../views/collections.ts";

const parseParams = requestValidator(CollectionParams, "path");
const parseQuery = requestValidator(CollectionQuery, "query");
const checkResponse = responseValidator(CollectionResponse);

/** GET /api/v2/collection/:address (an optional `chainId` picks the chain when an address is on several). */
export function collectionRoute(router: Router, { chains, metadata }: RouteDeps): void {
  router.get("/api/v2/collection/:address", async (ctx) => {
    const { address } = parseParams(ctx.params);
    const { chainId } = parseQuery(ctx.query);
    const wanted = address.toLowerCase() as Address;
    const lookup = await chains.findCollection(wanted, chainId);
    if (!("found" in lookup)) throw notFound(`Collection ${wanted}`);
    const view = collectionViews(lookup.found.models, metadata).get(wanted)!;
    ctx.body = checkResponse({ collection: view.collection });
  });
}
