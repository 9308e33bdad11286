import type { Address } from "viem";
import type { ChainRegistry } from "../chain/registry.ts";
import { apiError, ERRORS, found } from "../core/errors.ts";
import { handle } from "../routes/handle.ts";
import * as ops from "../schemas/control-operations.ts";
import { collectionItems } from "../views/collection-items.ts";
import { collectionVolume } from "../views/collection-volume.ts";
import { itemDetail } from "../views/item-detail.ts";

// The control API's reads of one collection, for the dashboard: its items, one item whole, its volume per day.

interface Reads {
  chains: ChainRegistry;
}

async function collectionOf(chains: ChainRegistry, rawAddress: string, chainId?: number) {
  const address = rawAddress.toLowerCase() as Address;
  await chains.whole();
  const lookup = await chains.findCollection(address, chainId);
  if (!("found" in lookup)) throw apiError(ERRORS.NOT_FOUND, { what: `Collection ${address}` });
  const { chain, models } = lookup.found;
  return { address, models, head: { chainId: chain.chainId, collectionAddress: address } };
}

export const collectionReadRoutes = ({ chains }: Reads) => ({
  listCollectionItems: handle(ops.listCollectionItems, {
    async answer({ params, query }) {
      const { address, models, head } = await collectionOf(chains, params.address, query.chainId);
      return { ...head, items: collectionItems(models, address) };
    },
  }),
  getCollectionItem: handle(ops.getCollectionItem, {
    async answer({ params, query }) {
      const { address, models } = await collectionOf(chains, params.address, query.chainId);
      return found(itemDetail(models, address, BigInt(params.tokenId)), `Item ${params.tokenId} of ${address}`);
    },
  }),
  getCollectionVolume: handle(ops.getCollectionVolume, {
    async answer({ params, query }) {
      const { address, models, head } = await collectionOf(chains, params.address, query.chainId);
      return { ...head, days: collectionVolume(models, address) };
    },
  }),
});
