import type { Address } from "viem";
import { StartError, START_ERRORS } from "../core/errors.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import { itemKey } from "../indexer/models.ts";
import { hexToText, slugify } from "../core/formats.ts";
import { collectionUri } from "../schemas/metadata.ts";
import type { ReplayContext } from "./chain-replay.ts";
import type { Step } from "./references.ts";

/**
 * A chain an earlier run loaded this world onto (attached with --contracts): nothing is sent.
 * Where the scenario's collections and items landed is read back from the index in the order the
 * replay created them (the factory's collections in chain order; each collection's token ids from
 * 1), and each is checked against the scenario, its metadata on chain included.
 */
export async function landFromChain(chain: SimChain, steps: Step[], world: ReplayContext): Promise<void> {
  const { chainId } = chain;
  const models = await chain.read();
  const created = [...models.collections.values()];
  const nextTokenId = new Map<Address, bigint>();
  let nextCollection = 0;
  let listings = 0n;
  const mismatch = (what: string) =>
    new StartError(
      START_ERRORS.NODE_REFUSED,
      `chain ${chainId} does not hold the world its contracts file records: ${what}. Give another --contracts file ` +
        `to deploy afresh.`,
    );
  for (const step of steps) {
    if (step.kind === "collection") {
      const { collection } = step;
      const record = created[nextCollection++];
      const slug = collection.slug ?? slugify(collection.name);
      const expected = {
        name: collection.name,
        uri: collectionUri(world.baseUrl, chainId, slug),
        owner: world.handles.accounts.get(collection.owner)?.address,
        metadata: hexToText(world.metadata.collections.get(collection.id)!),
      };
      if (
        !record ||
        Object.entries(expected).some(([field, value]) => record[field as keyof typeof expected] !== value)
      )
        throw mismatch(
          `collection '${collection.id}' (${expected.name}, ${expected.uri}) is not the next one the factory created`,
        );
      world.handles.collections.set(collection.id, { chainId, address: record.address, slug });
      nextTokenId.set(record.address, 1n);
    } else if (step.action.action === "addItem") {
      const item = world.items.get(step.action.item)!;
      const collection = world.handles.collections.get(item.collection)!.address;
      const first = nextTokenId.get(collection)!;
      const count = item.isStackable === false ? item.initialSupply : 1;
      const creation = models.items.get(itemKey(collection, first))?.creation;
      const described = hexToText(world.metadata.items.get(item.id)!);
      if (
        !creation ||
        creation.tokenIds.length !== count ||
        creation.tokenIds[0] !== first ||
        creation.description?.metadata !== described
      )
        throw mismatch(
          `item '${item.id}' is not token ${first} of ${collection} (${count} token id${count === 1 ? "" : "s"} in ` +
            `one transaction, described as the scenario describes it)`,
        );
      nextTokenId.set(collection, first + BigInt(count));
      world.handles.items.set(item.id, { chainId, collection, tokenIds: [...creation.tokenIds] });
    } else if (step.action.action === "list") {
      // The replay that loaded this world listed first on the marketplace it deployed: ids in step order.
      world.handles.listings.set(step.action.listing, { chainId, listingId: (listings += 1n) });
    }
  }
}
