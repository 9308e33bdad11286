import type { Address } from "viem";
import { apiError, ERRORS } from "../core/errors.ts";
import { lowerAddress } from "../core/formats.ts";
import type { ImageFormat } from "../schemas/image.ts";
import type * as Operations from "../schemas/operations.ts";
import { listCollections, orderedViews } from "../views/collection-list.ts";
import { collectionViews } from "../views/collections.ts";
import { itemEventsPage } from "../views/item-event.ts";
import { itemMetadata } from "../views/item-metadata.ts";
import type { MediaHandler, PipelineDeps, ReadHandler } from "./handlers.ts";

// The handlers of the API's reads (each answer made from the read models alone) and of its pictures.

/** The chain holding the collection (among `chainId`'s when given), and every chain looked at; 404 when none. */
async function lookUp({ chains }: PipelineDeps, collection: Address, chainId?: number) {
  const lookup = await chains.findCollection(collection, chainId);
  if (!("found" in lookup)) throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${collection}` });
  return { models: lookup.found.models, from: lookup.among.map(({ models }) => models) };
}

/**
 * Every chain's collections (only the filtered chain's when `chainId` is given: another chain being down does not
 * matter then), filtered, sorted and paged.
 */
export const collectionsRead = ({ chains }: PipelineDeps): ReadHandler<typeof Operations.listCollections> => ({
  kind: "read",
  async read({ query }) {
    const chainId = (query as { chainId?: number }).chainId;
    const from = (await chains.read(chainId)).map(({ models }) => models);
    return { from, answer: () => listCollections(orderedViews(from, query.sortBy, query.sortDir), query) };
  },
});

/** One collection by address; an optional `chainId` picks the chain when an address is on several. */
export const collectionRead = (deps: PipelineDeps): ReadHandler<typeof Operations.getCollection> => ({
  kind: "read",
  async read({ params, query }) {
    const wanted = lowerAddress(params.address);
    const { models, from } = await lookUp(deps, wanted, query.chainId);
    return { from, answer: () => ({ collection: collectionViews(models).get(wanted)!.collection }) };
  },
});

/** An item's history, newest first. */
export const itemEventsRead = (deps: PipelineDeps): ReadHandler<typeof Operations.getItemEvents> => ({
  kind: "read",
  async read({ params: { address, tokenId }, query }) {
    const collection = lowerAddress(address);
    await deps.chains.whole();
    const { models, from } = await lookUp(deps, collection, query.chainId);
    return {
      from,
      answer() {
        const events = itemEventsPage(models, collection, BigInt(tokenId), query);
        if (!events) throw apiError(ERRORS.NOT_FOUND, { what: `Item ${tokenId} of collection ${collection}` });
        return { events };
      },
    };
  },
});

/** What a collection's `uri` points at: wallets and marketplaces read `<uri>/<tokenId>` for an item's JSON metadata. */
export const metadataRead = ({ chains }: PipelineDeps): ReadHandler<typeof Operations.getItemMetadata> => ({
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

/** The picture of the seed; a client may keep it a day, and revalidate it by its ETag. */
export const image =
  (format: ImageFormat) =>
  ({ draw }: PipelineDeps): MediaHandler<typeof Operations.getImagePng | typeof Operations.getImageSvg> => ({
    kind: "media",
    answer({ params, query }, request) {
      const drawn = draw(params.seed, format, query.size);
      if (drawn.etag) request.setHeader("ETag", drawn.etag);
      request.setHeader("Cache-Control", "public, max-age=86400");
      return drawn;
    },
  });
