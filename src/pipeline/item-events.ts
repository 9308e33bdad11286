import { apiError, ERRORS } from "../core/errors.ts";
import { lowerAddress } from "../core/formats.ts";
import type { getItemEvents } from "../schemas/operations.ts";
import { itemEventsPage } from "../views/item-event.ts";
import type { PipelineDeps, ReadHandler } from "./handlers.ts";

/** An item's history, newest first. */
export const itemEventsRead = ({ chains }: PipelineDeps): ReadHandler<typeof getItemEvents> => ({
  kind: "read",
  async read({ params: { address, tokenId }, query }) {
    const collection = lowerAddress(address);
    await chains.whole();
    const lookup = await chains.findCollection(collection, query.chainId);
    if (!("found" in lookup)) throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${collection}` });
    const { found, among } = lookup;
    return {
      from: among.map(({ models }) => models),
      answer() {
        const events = itemEventsPage(found.models, collection, BigInt(tokenId), query);
        if (!events) throw apiError(ERRORS.NOT_FOUND, { what: `Item ${tokenId} of collection ${collection}` });
        return { events };
      },
    };
  },
});
