import { apiError, ERRORS } from "../core/errors.ts";
import { getCollection } from "../schemas/operations.ts";
import { collectionViews } from "../views/collections.ts";
import type { RouteDeps } from "./deps.ts";
import { handle } from "./handle.ts";
import { lowerAddress } from "../core/formats.ts";

/** One collection by address; an optional `chainId` picks the chain when an address is on several. */
export const collectionRoute = ({ chains }: RouteDeps) =>
  handle(getCollection, {
    async answer({ params, query }) {
      const wanted = lowerAddress(params.address);
      const lookup = await chains.findCollection(wanted, query.chainId);
      if (!("found" in lookup)) throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${wanted}` });
      return { collection: collectionViews(lookup.found.models).get(wanted)!.collection };
    },
  });
