import { apiError, ERRORS } from "../core/errors.ts";
import { lowerAddress } from "../core/formats.ts";
import type { getCollection } from "../schemas/operations.ts";
import { collectionViews } from "../views/collections.ts";
import type { PipelineDeps, ReadHandler } from "./handlers.ts";

/** One collection by address; an optional `chainId` picks the chain when an address is on several. */
export const collectionRead = ({ chains }: PipelineDeps): ReadHandler<typeof getCollection> => ({
  kind: "read",
  async read({ params, query }) {
    const wanted = lowerAddress(params.address);
    const lookup = await chains.findCollection(wanted, query.chainId);
    if (!("found" in lookup)) throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${wanted}` });
    const { found, among } = lookup;
    return {
      from: among.map(({ models }) => models),
      answer: () => ({ collection: collectionViews(found.models).get(wanted)!.collection }),
    };
  },
});
