import type Router from "@koa/router";
import { CollectionsQuery, CollectionsResponse } from "../schemas/collection.ts";
import { requestValidator, responseValidator } from "../schemas/validate.ts";
import type { Simulator } from "../simulator.ts";
import { collectionViews } from "../views/collections.ts";
import { listCollections, orderedViews } from "../views/collection-list.ts";

const parseQuery = requestValidator(CollectionsQuery, "query");
const checkResponse = responseValidator(CollectionsResponse);

/** GET /api/v2/collection: every chain's collections, filtered, sorted and paged. */
export function collectionsRoute(router: Router, sim: Simulator): void {
  router.get("/api/v2/collection", async (ctx) => {
    const query = parseQuery(ctx.query);
    const chains = [...sim.chains.values()];
    await Promise.all(chains.map(({ indexer }) => indexer.sync()));
    const perChain = chains.map(({ indexer }) => collectionViews(indexer.models, sim.metadata));
    ctx.body = checkResponse(listCollections(orderedViews(perChain, query.sortBy, query.sortDir), query));
  });
}
