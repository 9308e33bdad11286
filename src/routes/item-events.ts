import type Router from "@koa/router";
import type { Address } from "viem";
import { notFound } from "../errors.ts";
import { ItemEventsParams, ItemEventsQuery, ItemEventsResponse } from "../schemas/item-event.ts";
import { requestValidator, responseValidator } from "../schemas/validate.ts";
import type { Simulator } from "../simulator.ts";
import { itemEventsPage } from "../views/item-events.ts";

const parseParams = requestValidator(ItemEventsParams, "path");
const parseQuery = requestValidator(ItemEventsQuery, "query");
const checkResponse = responseValidator(ItemEventsResponse);

/** GET /api/v2/item/events/:address/:tokenId: the item's history, newest first. */
export function itemEventsRoute(router: Router, sim: Simulator): void {
  router.get("/api/v2/item/events/:address/:tokenId", async (ctx) => {
    const { address, tokenId } = parseParams(ctx.params);
    const query = parseQuery(ctx.query);
    const collection = address.toLowerCase() as Address;
    const chains = [...sim.chains.values()].filter((chain) => query.chainId === undefined || chain.chainId === query.chainId);
    await Promise.all(chains.map(({ indexer }) => indexer.sync()));
    for (const { indexer } of chains) {
      if (!indexer.models.collections.has(collection)) continue;
      const events = itemEventsPage(indexer.models, collection, BigInt(tokenId), query);
      if (!events) throw notFound(`Item ${tokenId} of collection ${collection}`);
      return void (ctx.body = checkResponse({ events }));
    }
    throw notFound(`Collection ${collection}`);
  });
}
