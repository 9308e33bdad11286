import { notFound } from "../errors.ts";
import { getCollection } from "../schemas/operations.ts";
import { collectionViews } from "../views/collections.ts";
import type { RouteDeps } from "./deps.ts";
import { handle } from "./handle.ts";
import { lowerAddress } from "../chain/address.ts";

/** One collection by address; an optional `chainId` picks the chain when an address is on several. */
export const collectionRoute = ({ chains }: RouteDeps) =>
  handle(getCollection, {
    async answer({ params, query }) {
      const wanted = lowerAddress(params.address);
      const lookup = await chains.findCollection(wanted, query.chainId);
      if (!("found" in lookup)) throw notFound(`Collection ${wanted}`);
      return { collection: collectionViews(lookup.found.models).get(wanted)!.collection };
    },
  });
