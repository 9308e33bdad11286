import { apiError, ERRORS } from "../core/errors.ts";
import { getCollection } from "../schemas/operations.ts";
import { collectionViews } from "../views/collections.ts";
import type { AnswerBytes } from "./answer-bytes.ts";
import type { RouteDeps } from "./deps.ts";
import { handleRead } from "./handle.ts";
import { lowerAddress } from "../core/formats.ts";

/** One collection by address; an optional `chainId` picks the chain when an address is on several. */
export const collectionRoute = ({ chains }: RouteDeps, answers: AnswerBytes) =>
  handleRead(
    getCollection,
    {
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
    },
    answers,
  );
