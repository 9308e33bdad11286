import { listCollections as listOperation } from "../schemas/operations.ts";
import { collectionViews } from "../views/collections.ts";
import { listCollections, orderedViews } from "../views/collection-list.ts";
import type { RouteDeps } from "./deps.ts";
import { handle } from "./handle.ts";

/**
 * Every chain's collections (only the filtered chain's when `chainId` is given: another chain being down does not
 * matter then), filtered, sorted and paged.
 */
export const collectionsRoute = ({ chains }: RouteDeps) =>
  handle(listOperation, {
    async answer({ query }) {
      const chainId = (query as { chainId?: number }).chainId;
      const perChain = (await chains.read(chainId)).map(({ models }) => collectionViews(models));
      return listCollections(orderedViews(perChain, query.sortBy, query.sortDir), query);
    },
  });
