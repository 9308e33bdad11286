import type Router from "@koa/router";
import type { Address } from "viem";
import { notFound } from "../errors.ts";
import { ItemEventsParams, ItemEventsQuery, ItemEventsResponse } from "../schemas/item-event.ts";
import { requestValidator, responseValidator } from "../schemas/validate.ts";
import type { RouteDeps } from "./deps.ts";
import { itemEventsPage } from "../views/item-events.ts";

const parseParams = requestValidator(ItemEventsParams, "path");
const parseQuery = requestValidator(ItemEventsQuery, "query");
const checkResponse = responseValidator(ItemEventsResponse);

/** GET /api/v2/item/events/:address/:tokenId: the item's history, newest first. */
export function itemEventsRoute(router: Router, { chains }: RouteDeps): void {
  router.get("/api/v2/item/events/:address/:tokenId", async (ctx) => {
    const { address, tokenId } = parseParams(ctx.params);
    const query = parseQuery(ctx.query);
    const collection = address.toLowerCase() as Address;
    const lookup = await chains.findCollection(collection, query.chainId);
    if (!("found" in lookup)) throw notFound(`Collection ${collection}`);
    const events = itemEventsPage(lookup.found.models, collection, BigInt(tokenId), query);
    if (!events) throw notFound(`Item ${tokenId} of collection ${collection}`);
    ctx.body = checkResponse({ events });
  });
}
