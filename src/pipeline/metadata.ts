import type { Address } from "viem";
import { apiError, ERRORS } from "../core/errors.ts";
import type { getItemMetadata } from "../schemas/operations.ts";
import { collectionViews } from "../views/collections.ts";
import { itemMetadata } from "../views/item-metadata.ts";
import type { PipelineDeps, ReadHandler } from "./handlers.ts";

/** What a collection's `uri` points at: wallets and marketplaces read `<uri>/<tokenId>` for an item's JSON metadata. */
export const metadataRead = ({ chains }: PipelineDeps): ReadHandler<typeof getItemMetadata> => ({
  kind: "read",
  async read({ params: { chainId, slug, tokenId } }) {
    await chains.whole();
    const [target] = await chains.read(chainId);
    if (!target) throw apiError(ERRORS.NOT_FOUND, { what: `Chain ${chainId}` });
    const { models } = target;
    return {
      from: [models],
      answer() {
        const view = [...collectionViews(models).values()].find((v) => v.collection.slug === slug);
        const found = view && itemMetadata(models, view.collection.address as Address, BigInt(tokenId));
        if (!found) throw apiError(ERRORS.NOT_FOUND, { what: `Metadata of item ${tokenId} in ${slug}` });
        return found;
      },
    };
  },
});
