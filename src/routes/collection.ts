import type Router from "@koa/router";
import type { Address } from "viem";
import { notFound } from "../errors.ts";
import { CollectionParams, CollectionQuery, CollectionResponse } from "../schemas/collection.ts";
import { requestValidator, responseValidator } from "../schemas/validate.ts";
import type { Simulator } from "../simulator.ts";
import { collectionViews } from "../views/collections.ts";

const parseParams = requestValidator(CollectionParams, "path");
const parseQuery = requestValidator(CollectionQuery, "query");
const checkResponse = responseValidator(CollectionResponse);

/** GET /api/v2/collection/:address (an optional `chainId` picks the chain when an address is on several). */
export function collectionRoute(router: Router, sim: Simulator): void {
  router.get("/api/v2/collection/:address", async (ctx) => {
    const { address } = parseParams(ctx.params);
    const { chainId } = parseQuery(ctx.query);
    const wanted = address.toLowerCase() as Address;
    const chains = [...sim.chains.values()].filter((chain) => chainId === undefined || chain.chainId === chainId);
    await Promise.all(chains.map(({ indexer }) => indexer.sync()));
    for (const { indexer } of chains) {
      const view = collectionViews(indexer.models, sim.metadata).get(wanted);
      if (view) return void (ctx.body = checkResponse({ collection: view.collection }));
    }
    throw notFound(`Collection ${wanted}`);
  });
}
