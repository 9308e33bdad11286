import { listCollections as listOperation } from "../schemas/operations.ts";
import { collectionViews } from "../views/collections.ts";
import { listCollections, orderedViews } from "../views/collection-list.ts";
import type { AnswerBytes } from "./answer-bytes.ts";
import type { RouteDeps } from "./deps.ts";
import { handleRead } from "./handle.ts";

/**
 * Every chain's collections (only the filtered chain's when `chainId` is given: another chain being down does not
 * matter then), filtered, sorted and paged.
 */
export const collectionsRoute = ({ chains }: RouteDeps, answers: AnswerBytes) =>
  handleRead(
    listOperation,
    {
      async read({ query }) {
        const chainId = (query as { chainId?: number }).chainId;
        const from = (await chains.read(chainId)).map(({ models }) => models);
        return {
          from,
          answer: () => listCollections(orderedViews(from.map(collectionViews), query.sortBy, query.sortDir), query),
        };
      },
    },
    answers,
  );
