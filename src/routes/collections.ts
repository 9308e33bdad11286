import type Router from "@koa/router";
import { CollectionsQuery, CollectionsResponse } from "../schemas/collection.ts";
import { requestValidator, responseValidator } from "../schemas/validate.ts";
import type { RouteDeps } from "./deps.ts";
import { collectionViews } from "../views/collections.ts";
import { listCollections, orderedViews } from "../views/collection-list.ts";

const parseQuery = requestValidator(CollectionsQuery, "query");
const checkResponse = responseValidator(CollectionsResponse);

/** GET /api/v2/collection: every chain's collections, filtered, sorted and paged. */
export function collectionsRoute(router: Router, { chains, metadata }: RouteDeps): void {
  router.get("/api/v2/collection", async (ctx) => {
    const query = parseQuery(ctx.query);
    const perChain = (await chains.synced()).map((chain) => collectionViews(chain.models, metadata));
    ctx.body = checkResponse(listCollections(orderedViews(perChain, query.sortBy, query.sortDir), query));
  });
}
