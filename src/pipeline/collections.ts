import type { listCollections as listOperation } from "../schemas/operations.ts";
import { listCollections, orderedViews } from "../views/collection-list.ts";
import type { PipelineDeps, ReadHandler } from "./handlers.ts";

/**
 * Every chain's collections (only the filtered chain's when `chainId` is given: another chain being down does not
 * matter then), filtered, sorted and paged.
 */
export const collectionsRead = ({ chains }: PipelineDeps): ReadHandler<typeof listOperation> => ({
  kind: "read",
  async read({ query }) {
    const chainId = (query as { chainId?: number }).chainId;
    const from = (await chains.read(chainId)).map(({ models }) => models);
    return {
      from,
      answer: () => listCollections(orderedViews(from, query.sortBy, query.sortDir), query),
    };
  },
});
